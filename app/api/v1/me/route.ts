import { accountOf } from "@/lib/api/auth";
import { CACHE } from "@/lib/api/cache-control";
import { defineRoute, mount } from "@/lib/api/route";
import { getMe } from "@/lib/accounts/me";
import { MeResponse } from "@/lib/accounts/schemas";
import { COSTS } from "@/lib/meter/costs";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = mount({
  GET: defineRoute({
    method: "GET",
    path: "/me",
    operationId: "getMe",
    summary: "The caller's account, quota and limits",
    description: "Answers after trial expiry. usage_warnings start at 80% of a finite limit; upgrade_suggestion starts for a trial at 50 credits, 50 distinct cards or seven days before expiry, for paid plans at 80%.",
    tags: ["Accounts"],
    auth: "key",
    response: MeResponse,
    errors: [],
    cost: COSTS.account,
    cacheControl: CACHE.none,
    etag: false,
    handler: ({ principal }) => getMe(accountOf(principal)),
  }),
});
