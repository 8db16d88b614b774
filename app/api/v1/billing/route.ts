import { accountOf } from "@/lib/api/auth";
import { CACHE } from "@/lib/api/cache-control";
import { defineRoute, mount } from "@/lib/api/route";
import { BillingResponse } from "@/lib/billing/schemas";
import { billingSummary } from "@/lib/billing/summary";
import { COSTS } from "@/lib/meter/costs";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = mount({
  GET: defineRoute({
    method: "GET",
    path: "/billing",
    operationId: "getBilling",
    summary: "The account's plan, subscription, card and next invoice",
    description: "Plan, interval, status and standing (whether credited routes answer), the period's end and the credits' reset (monthly, also on yearly plans), a cancellation or downgrade waiting for the period's end, the card on file and Stripe's estimate of the next invoice.",
    tags: ["Billing"],
    auth: "key",
    response: BillingResponse,
    errors: ["BILLING_UNAVAILABLE"],
    cost: COSTS.billing,
    cacheControl: CACHE.none,
    etag: false,
    handler: async ({ principal }) => ({ body: { data: await billingSummary(accountOf(principal)) } }),
  }),
});
