import { accountOf } from "@/lib/api/auth";
import { CACHE } from "@/lib/api/cache-control";
import { defineRoute, mount } from "@/lib/api/route";
import { getUsage } from "@/lib/accounts/me";
import { UsageQuery, UsageResponse } from "@/lib/usage/schemas";
import { COSTS } from "@/lib/meter/costs";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = mount({
  GET: defineRoute({
    method: "GET",
    path: "/me/usage",
    operationId: "getUsage",
    summary: "Usage per day and per route, and analytics",
    description: "`days`, `totals` and `routes` come from the durable ledger (PostgreSQL), so they survive a restart of the meter's Redis: they count the calls that reached the meter, and `days` and `totals` also an operator's setting of the period's credits (no route made it). `analytics` sums the request log per hour or day over a `range`, every call of the account's keys including those refused before the meter, split by route, key or status with `group_by`; refunded calls are counted apart. Answers after trial expiry.",
    tags: ["Accounts"],
    auth: "key",
    query: UsageQuery,
    response: UsageResponse,
    errors: [],
    cost: COSTS.account,
    cacheControl: CACHE.none,
    etag: false,
    handler: ({ principal, query }) => getUsage(accountOf(principal), query),
  }),
});
