import { accountOf } from "@/lib/api/auth";
import { CACHE } from "@/lib/api/cache-control";
import { defineRoute, mount } from "@/lib/api/route";
import { portalUrl } from "@/lib/billing/manage";
import { UrlResponse } from "@/lib/billing/schemas";
import { COSTS } from "@/lib/meter/costs";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = mount({
  POST: defineRoute({
    method: "POST",
    path: "/billing/portal",
    operationId: "createBillingPortal",
    summary: "A Stripe customer portal URL",
    description: "Stripe's own page to update the card, download invoices and pay an open one.",
    tags: ["Billing"],
    auth: "key",
    response: UrlResponse("PortalSession", "Stripe customer portal for this account."),
    errors: ["BILLING_UNAVAILABLE"],
    cost: COSTS.billing,
    cacheControl: CACHE.none,
    etag: false,
    handler: async ({ principal }) => ({ body: { data: await portalUrl(accountOf(principal)) } }),
  }),
});
