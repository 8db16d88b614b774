import { accountOf } from "@/lib/api/auth";
import { CACHE } from "@/lib/api/cache-control";
import { defineRoute, mount } from "@/lib/api/route";
import { createCheckout } from "@/lib/billing/checkout";
import { PlanChoice, UrlResponse } from "@/lib/billing/schemas";
import { COSTS } from "@/lib/meter/costs";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = mount({
  POST: defineRoute({
    method: "POST",
    path: "/billing/checkout",
    operationId: "createCheckout",
    summary: "Subscribe: a Stripe Checkout URL for a plan",
    description: "Open the URL in a browser to pay. The plan changes only when Stripe's signed webhook reports the payment: the trial's expiry is cleared, the key stays the same, and the plan's credits start fresh (trial credits do not carry over). Answers after trial expiry. One subscription per account: with one, change its plan with POST /v1/billing/subscription; a Checkout still open from an earlier call is expired by a new one, so only the newest URL can be paid.",
    tags: ["Billing"],
    auth: "key",
    body: PlanChoice,
    response: UrlResponse("CheckoutSession", "Stripe Checkout page for this account and plan."),
    errors: ["INVALID_PARAMETER", "SUBSCRIPTION_EXISTS", "BILLING_UNAVAILABLE"],
    cost: COSTS.billing,
    cacheControl: CACHE.none,
    etag: false,
    handler: async ({ principal, body }) => ({ body: { data: await createCheckout(accountOf(principal), body) } }),
  }),
});
