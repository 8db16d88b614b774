import { CACHE } from "@/lib/api/cache-control";
import { readBounded } from "@/lib/api/body";
import { ApiError } from "@/lib/api/errors";
import { defineRoute, mount } from "@/lib/api/route";
import { WebhookResponse } from "@/lib/billing/schemas";
import { receiveWebhook } from "@/lib/billing/webhook";
import { COSTS } from "@/lib/meter/costs";

/** Stripe's events are a few kilobytes; a megabyte is far beyond any of them. */
const MAX_EVENT_BYTES = 1_000_000;

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = mount({
  POST: defineRoute({
    method: "POST",
    path: "/billing/webhook",
    operationId: "stripeWebhook",
    summary: "Stripe's webhook (for Stripe, not for clients)",
    description: "Checked against Stripe-Signature on the raw body; each event is applied once (a repeat answers 200 with reason duplicate). Stripe does not order its events, so each one re-reads the subscription from Stripe and applies its current state. Events not handled are acknowledged with 200. 5xx only for faults a retry can fix.",
    tags: ["Billing"],
    auth: "none",
    rawBody: {
      description: "A Stripe event, exactly as Stripe sends it (JSON, at most 1,000,000 bytes).",
      signedBy: { header: "Stripe-Signature", description: "Stripe's signature of the raw body with the endpoint's signing secret; a missing or wrong one is 400 INVALID_SIGNATURE." },
    },
    response: WebhookResponse,
    errors: ["INVALID_SIGNATURE", "PAYLOAD_TOO_LARGE", "BILLING_UNAVAILABLE"],
    cost: COSTS.billingWebhook,
    cacheControl: CACHE.none,
    etag: false,
    handler: async ({ req }) => {
      const raw = await readBounded(req, MAX_EVENT_BYTES, () =>
        new ApiError("PAYLOAD_TOO_LARGE", `Webhook bodies are limited to ${MAX_EVENT_BYTES} bytes.`, { max_bytes: MAX_EVENT_BYTES }));
      return { body: await receiveWebhook(raw, req.headers.get("stripe-signature")) };
    },
  }),
});
