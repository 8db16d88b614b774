import type Stripe from "stripe";
import { ApiError } from "@/lib/api/errors";
import type { Account } from "@/lib/accounts/types";
import { configuredOrigin } from "@/lib/env";
import { PLANS } from "@/lib/meter/plans";
import { SALES_STEP } from "@/lib/meter/refusals";
import { malformedCursor } from "@/lib/api/paging";
import { ensureCustomer, hasLiveSubscription } from "./checkout";
import { billingRow, type BillingRow } from "./queries/accounts";
import { planOfPrice, priceFor, type Interval, type PaidPlan } from "./prices";
import { callStripe, isMissing, stripe } from "./stripe";

// What the owner does with a subscription once it exists. Each asks Stripe for the change and
// answers at once; the account itself changes when the webhook reports it (sync.ts), so every
// instance applies the same state in the same way.

async function liveSubscription(account: Account): Promise<{ row: BillingRow; sub: Stripe.Subscription }> {
  const row = (await billingRow(account.id))!;
  if (!hasLiveSubscription(row)) {
    throw new ApiError("SUBSCRIPTION_NOT_FOUND", "The account has no subscription to change.", {
      next_step: { action: "subscribe", checkout: "POST /v1/billing/checkout", message: "Subscribe with POST /v1/billing/checkout." },
    });
  }
  const sub = await callStripe(() => stripe().subscriptions.retrieve(row.stripeSubscriptionId!, { expand: ["schedule"] }));
  return { row, sub };
}

/** Up: at once, prorated and invoiced now. Down (a smaller plan, or yearly to monthly): at the period's end. */
export function direction(from: { plan: PaidPlan; interval: Interval }, to: { plan: PaidPlan; interval: Interval }): "same" | "up" | "down" {
  if (from.plan === to.plan && from.interval === to.interval) return "same";
  const rank = PLANS[to.plan].rank - PLANS[from.plan].rank;
  if (rank > 0) return "up";
  if (rank < 0) return "down";
  return to.interval === "year" ? "up" : "down";
}

export async function changePlan(account: Account, to: { plan: PaidPlan | "enterprise"; interval: Interval }): Promise<{ change: "none" | "now" | "at_period_end"; effective_at: string | null }> {
  if (to.plan === "enterprise") {
    throw new ApiError("INVALID_PARAMETER", "Enterprise is not sold through Stripe: contact sales.", { parameter: "plan", next_step: SALES_STEP });
  }
  const target = { plan: to.plan, interval: to.interval };
  const { sub } = await liveSubscription(account);
  const item = sub.items.data[0]!;
  const from = planOfPrice(item.price);
  if (!from) throw new Error(`subscription ${sub.id} has no price of ours`);
  const way = direction(from, target);
  const schedule = typeof sub.schedule === "object" ? sub.schedule : null;
  const price = await priceFor(target.plan, target.interval);
  if (way === "same") {
    // Back to the current plan: a waiting downgrade is dropped.
    if (schedule && schedule.status !== "released") await callStripe(() => stripe().subscriptionSchedules.release(schedule.id));
    return { change: "none", effective_at: null };
  }
  if (way === "up") {
    if (schedule && schedule.status !== "released") await callStripe(() => stripe().subscriptionSchedules.release(schedule.id));
    await callStripe(() => stripe().subscriptions.update(sub.id, {
      items: [{ id: item.id, price: price.id }],
      proration_behavior: "always_invoice",
      metadata: { account_id: account.id },
    }));
    return { change: "now", effective_at: new Date().toISOString() };
  }
  // Down: the current phase runs to its end, then the smaller price, through a schedule.
  const sched = schedule && schedule.status !== "released" ? schedule : await callStripe(() => stripe().subscriptionSchedules.create({ from_subscription: sub.id }));
  const current = sched.phases[0]!;
  await callStripe(() => stripe().subscriptionSchedules.update(sched.id, {
    end_behavior: "release",
    phases: [
      { items: [{ price: item.price.id, quantity: 1 }], start_date: current.start_date, end_date: item.current_period_end },
      { items: [{ price: price.id, quantity: 1 }], duration: { interval: target.interval, interval_count: 1 } },
    ],
  }));
  return { change: "at_period_end", effective_at: new Date(item.current_period_end * 1000).toISOString() };
}

/** Cancel at the period's end (`cancel: true`) or take that back before it comes (`false`). */
export async function setCancelAtPeriodEnd(account: Account, cancel: boolean): Promise<{ cancel_at_period_end: boolean; period_end: string }> {
  const { sub } = await liveSubscription(account);
  const schedule = typeof sub.schedule === "object" ? sub.schedule : null;
  // A schedule governs the subscription's end; canceling drops the waiting downgrade with it.
  if (cancel && schedule && schedule.status !== "released") await callStripe(() => stripe().subscriptionSchedules.release(schedule.id));
  const updated = await callStripe(() => stripe().subscriptions.update(sub.id, { cancel_at_period_end: cancel }));
  return { cancel_at_period_end: updated.cancel_at_period_end, period_end: new Date(updated.items.data[0]!.current_period_end * 1000).toISOString() };
}

export async function portalUrl(account: Account): Promise<{ url: string }> {
  const row = (await billingRow(account.id))!;
  const customer = await ensureCustomer(row);
  const session = await callStripe(() => stripe().billingPortal.sessions.create({ customer, return_url: `${configuredOrigin()}/dashboard/billing` }));
  return { url: session.url };
}

export type InvoiceRow = {
  id: string; number: string | null; status: string | null; currency: string; amount_due: number; amount_paid: number; total: number;
  created: string; period_start: string | null; period_end: string | null; hosted_invoice_url: string | null; invoice_pdf: string | null;
};

const iso = (unix: number | null | undefined) => (unix ? new Date(unix * 1000).toISOString() : null);

export function invoiceRow(i: Stripe.Invoice): InvoiceRow {
  return {
    id: i.id!, number: i.number, status: i.status, currency: i.currency, amount_due: i.amount_due, amount_paid: i.amount_paid, total: i.total,
    created: iso(i.created)!, period_start: iso(i.period_start), period_end: iso(i.period_end),
    hosted_invoice_url: i.hosted_invoice_url ?? null, invoice_pdf: i.invoice_pdf ?? null,
  };
}

/**
 * The account's invoices, newest first, a page at a time (Stripe's own cursor, an invoice id).
 * An `after` that is none of the account's invoices is the caller's cursor gone wrong (made up,
 * another account's, or an invoice deleted since): 400 INVALID_CURSOR, not Stripe's refusal.
 */
export async function listInvoices(account: Account, limit: number, after?: string): Promise<{ rows: InvoiceRow[]; hasMore: boolean }> {
  const row = (await billingRow(account.id))!;
  if (!row.stripeCustomerId) {
    if (after) throw malformedCursor();
    return { rows: [], hasMore: false };
  }
  const page = await callStripe(() => stripe().invoices.list({ customer: row.stripeCustomerId!, limit, ...(after ? { starting_after: after } : {}) }))
    .catch((err) => {
      throw after && isMissing(err) ? malformedCursor() : err;
    });
  return { rows: page.data.map(invoiceRow), hasMore: page.has_more };
}
