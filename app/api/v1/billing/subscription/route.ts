import { accountOf } from "@/lib/api/auth";
import { CACHE } from "@/lib/api/cache-control";
import { defineRoute, mount } from "@/lib/api/route";
import { changePlan } from "@/lib/billing/manage";
import { ChangeResponse, PlanChoice } from "@/lib/billing/schemas";
import { COSTS } from "@/lib/meter/costs";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = mount({
  POST: defineRoute({
    method: "POST",
    path: "/billing/subscription",
    operationId: "changePlan",
    summary: "Change the subscription's plan",
    description: "A larger plan (or monthly to yearly) applies at once, prorated and invoiced now; its credits are available as soon as Stripe's webhook reports the change. A smaller plan (or yearly to monthly) applies at the period's end. Asking for the current plan drops a waiting downgrade.",
    tags: ["Billing"],
    auth: "key",
    body: PlanChoice,
    response: ChangeResponse,
    errors: ["INVALID_PARAMETER", "SUBSCRIPTION_NOT_FOUND", "BILLING_UNAVAILABLE"],
    cost: COSTS.billing,
    cacheControl: CACHE.none,
    etag: false,
    handler: async ({ principal, body }) => ({ body: { data: await changePlan(accountOf(principal), body) } }),
  }),
});
