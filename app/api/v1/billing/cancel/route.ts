import { accountOf } from "@/lib/api/auth";
import { CACHE } from "@/lib/api/cache-control";
import { defineRoute, mount } from "@/lib/api/route";
import { setCancelAtPeriodEnd } from "@/lib/billing/manage";
import { CancelBody, CancelResponse } from "@/lib/billing/schemas";
import { COSTS } from "@/lib/meter/costs";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = mount({
  POST: defineRoute({
    method: "POST",
    path: "/billing/cancel",
    operationId: "cancelSubscription",
    summary: "Cancel at the period's end, or take the cancellation back",
    description: "`{\"cancel_at_period_end\": true}`: the plan serves until the period's end, then credited routes answer 403 PLAN_REQUIRED (never a fresh trial). `false` before that end: it renews as before.",
    tags: ["Billing"],
    auth: "key",
    body: CancelBody,
    response: CancelResponse,
    errors: ["INVALID_PARAMETER", "SUBSCRIPTION_NOT_FOUND", "BILLING_UNAVAILABLE"],
    cost: COSTS.billing,
    cacheControl: CACHE.none,
    etag: false,
    handler: async ({ principal, body }) => ({ body: { data: await setCancelAtPeriodEnd(accountOf(principal), body.cancel_at_period_end) } }),
  }),
});
