import type Stripe from "stripe";
import { ApiError } from "@/lib/api/errors";
import { billingRow, keepCustomer } from "./queries/accounts";
import { finishEvent, releaseEvent, takeEvent } from "./queries/events";
import { syncSubscription } from "./sync";
import { stripe, webhookSecret } from "./stripe";

// POST /v1/billing/webhook. The signature is checked on the raw body; each event is applied once
// (billing_events with a lease); every handler re-reads the subscription from Stripe (sync.ts).
// Events we do not handle are acknowledged; only a fault a retry can fix answers 5xx.

type Handler = (event: Stripe.Event) => Promise<string | null>;

const idOf = (x: string | { id: string } | null | undefined) => (typeof x === "string" ? x : x?.id ?? null);

const onSubscription: Handler = async (event) => syncSubscription((event.data.object as Stripe.Subscription).id);

const onInvoice: Handler = async (event) => {
  const invoice = event.data.object as Stripe.Invoice;
  const sub = idOf(invoice.parent?.subscription_details?.subscription);
  return sub ? syncSubscription(sub) : null;
};

/** A downgrade waiting in a schedule shows once the schedule has its phase, whichever event comes last. */
const onSchedule: Handler = async (event) => {
  const schedule = event.data.object as Stripe.SubscriptionSchedule;
  const sub = idOf(schedule.subscription) ?? idOf(schedule.released_subscription);
  return sub ? syncSubscription(sub) : null;
};

const onCheckout: Handler = async (event) => {
  const session = event.data.object as Stripe.Checkout.Session;
  if (session.mode !== "subscription") return null;
  const accountId = session.client_reference_id ?? session.metadata?.account_id ?? null;
  const customer = idOf(session.customer);
  if (accountId && customer && (await billingRow(accountId))) await keepCustomer(accountId, customer);
  const sub = idOf(session.subscription);
  return sub ? syncSubscription(sub) : accountId;
};

export const HANDLERS: Record<string, Handler> = {
  "checkout.session.completed": onCheckout,
  "customer.subscription.created": onSubscription,
  "customer.subscription.updated": onSubscription,
  "customer.subscription.deleted": onSubscription,
  "customer.subscription.paused": onSubscription,
  "customer.subscription.resumed": onSubscription,
  "subscription_schedule.created": onSchedule,
  "subscription_schedule.updated": onSchedule,
  "subscription_schedule.released": onSchedule,
  "subscription_schedule.canceled": onSchedule,
  "invoice.paid": onInvoice,
  "invoice.payment_failed": onInvoice,
};

export type WebhookOutcome = { received: true; event: string; type: string; applied: boolean; reason?: "duplicate" | "not_handled" };

/** Verifies and applies one delivery; throws INVALID_SIGNATURE, or a fault for Stripe to retry. */
export async function receiveWebhook(raw: Uint8Array, signature: string | null): Promise<WebhookOutcome> {
  const secret = webhookSecret();
  let event: Stripe.Event;
  try {
    event = stripe().webhooks.constructEvent(Buffer.from(raw), signature ?? "", secret);
  } catch (err) {
    throw new ApiError("INVALID_SIGNATURE", `The Stripe-Signature header does not verify: ${(err as Error).message}`);
  }
  const base = { received: true as const, event: event.id, type: event.type };
  const handler = HANDLERS[event.type];
  if (!handler) return { ...base, applied: false, reason: "not_handled" };
  const take = await takeEvent(event.id, event.type);
  if (take === "done") return { ...base, applied: false, reason: "duplicate" };
  if (take === "busy") {
    throw new ApiError("BILLING_UNAVAILABLE", "This event is being applied by another delivery. Retry later.", { event: event.id }, { "retry-after": "30" });
  }
  try {
    const accountId = await handler(event);
    await finishEvent(event.id, accountId);
    return { ...base, applied: true };
  } catch (err) {
    await releaseEvent(event.id, (err as Error).message ?? String(err)).catch(() => undefined);
    throw err;
  }
}
