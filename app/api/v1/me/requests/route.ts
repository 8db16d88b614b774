import { accountOf } from "@/lib/api/auth";
import { CACHE } from "@/lib/api/cache-control";
import { defineRoute, mount } from "@/lib/api/route";
import { COSTS } from "@/lib/meter/costs";
import { listRequests } from "@/lib/usage/requests";
import { RequestsQuery, RequestsResponse } from "@/lib/usage/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = mount({
  GET: defineRoute({
    method: "GET",
    path: "/me/requests",
    operationId: "listRequests",
    summary: "The account's request log",
    description: "Every call of the account's keys over the last 30 days, newest first: answered and refused, with what it cost. Filter by key, route, status class or code, error code, request id (the X-Request-Id of an answer) and time range. A call appears within seconds; answers after trial expiry.",
    tags: ["Accounts"],
    auth: "key",
    query: RequestsQuery,
    response: RequestsResponse,
    errors: ["INVALID_PARAMETER", "INVALID_CURSOR", "LIMIT_EXCEEDED"],
    cost: COSTS.account,
    cacheControl: CACHE.none,
    etag: false,
    handler: ({ principal, query, link }) => listRequests(accountOf(principal), query, link),
  }),
});
