import { accountOf } from "@/lib/api/auth";
import { CACHE } from "@/lib/api/cache-control";
import { defineRoute, mount } from "@/lib/api/route";
import { getUsage } from "@/lib/accounts/me";
import { UsageQuery, UsageResponse } from "@/lib/accounts/schemas";
import { COSTS } from "@/lib/meter/costs";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = mount({
  GET: defineRoute({
    method: "GET",
    path: "/me/usage",
    operationId: "getUsage",
    summary: "Usage per day and per route",
    description: "From the durable ledger (PostgreSQL), so it survives a restart of the meter's Redis. Answers after trial expiry.",
    tags: ["Accounts"],
    auth: "key",
    query: UsageQuery,
    response: UsageResponse,
    errors: [],
    cost: COSTS.account,
    cacheControl: CACHE.none,
    etag: false,
    handler: ({ principal, query }) => getUsage(accountOf(principal), query.days),
  }),
});
