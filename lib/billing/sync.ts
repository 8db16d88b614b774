import type Stripe from "stripe";
import { announceAccountChange } from "@/lib/accounts/invalidate";
import { getDb, type Db } from "@/lib/db/client";
import { billingRow, billingRowByCustomer, writeSubscriptionState, type BillingRow, type SubscriptionState } from "./queries/accounts";
import { planOfPrice, priceById } from "./prices";
import { mailPaymentFailed } from "./mail";
import { callStripe, stripe } from "./stripe";

// Stripe does not order its events, so no handler trusts the event's copy of a subscription:
// each re-reads the subscription from Stripe and applies its current state to the account. An
// event that changes nothing writes nothing. Only this file turns Stripe's states into ours.

const idOf = (x: string | { id: string } | null | undefined) => (typeof x === "string" ? x : x?.id ?? null);
const isoOf = (unix: number | null | undefined) => (unix ? new Date(unix * 1000).toISOString() : null);

/** The account a subscription belongs to: its metadata first, then its customer. */
async function accountFor(sub: Stripe.Subscription): Promise<BillingRow | undefined> {
  const byMeta = sub.metadata?.account_id ? await billingRow(sub.metadata.account_id) : undefined;
  return byMeta ?? billingRowByCustomer(idOf(sub.customer)!);
}

/** Reads the subscription from Stripe and applies it; returns the account it belongs to. */
export async function syncSubscription(subscriptionId: string, now = Date.now()): Promise<string | null> {
  const sub = await callStripe(() => stripe().subscriptions.retrieve(subscriptionId, { expand: ["latest_invoice", "schedule"] }));
  const row = await accountFor(sub);
  if (!row) {
    console.warn(`[billing] subscription ${sub.id} belongs to no account (customer ${idOf(sub.customer)})`);
    return null;
  }
  // One subscription per account: another live one than the account's is not applied.
  if (row.stripeSubscriptionId && row.stripeSubscriptionId !== sub.id && row.status !== "canceled" && !isEnded(sub)) {
    const current = await callStripe(() => stripe().subscriptions.retrieve(row.stripeSubscriptionId!)).catch(() => undefined);
    if (current && !isEnded(current)) {
      console.warn(`[billing] account ${row.id} has subscription ${row.stripeSubscriptionId}; ${sub.id} is not applied`);
      return row.id;
    }
  }
  if (row.stripeSubscriptionId && row.stripeSubscriptionId !== sub.id && isEnded(sub)) return row.id;
  const next = await stateOf(sub, row, now);
  if (!next) return row.id;
  if (same(row, next)) return row.id;
  // The state and its mail in one transaction: a retried event finds both or neither.
  const db = await getDb();
  await db.transaction(async (tx) => {
    await writeSubscriptionState(row.id, next, tx as unknown as Db);
    if (next.status === "past_due" && row.status !== "past_due") await mailPaymentFailed(row, next, tx as unknown as Db);
  });
  await announceAccountChange(row.id);
  return row.id;
}

const isEnded = (s: Stripe.Subscription) => s.status === "canceled" || s.status === "incomplete_expired";

/** The account's billing columns as the subscription says; undefined when it must not change them (not paid yet). */
async function stateOf(sub: Stripe.Subscription, row: BillingRow, now: number): Promise<SubscriptionState | undefined> {
  if (sub.status === "incomplete") return undefined;
  const item = sub.items.data[0];
  const priced = planOfPrice(item?.price);
  if (!item || !priced) {
    console.warn(`[billing] subscription ${sub.id} has no price of ours (${item?.price?.lookup_key ?? item?.price?.id})`);
    return undefined;
  }
  const invoice = typeof sub.latest_invoice === "object" ? sub.latest_invoice : null;
  const openUrl = invoice && invoice.status === "open" ? invoice.hosted_invoice_url ?? null : null;
  const base: SubscriptionState = {
    plan: priced.plan,
    billingInterval: priced.interval,
    periodStart: isoOf(item.current_period_start),
    periodEnd: isoOf(item.current_period_end),
    // A paid plan has no trial: its expiry is cleared (the key is not touched).
    trialExpiresAt: null,
    stripeSubscriptionId: sub.id,
    cancelAtPeriodEnd: sub.cancel_at_period_end,
    status: "active",
    pastDueSince: null,
    openInvoiceUrl: null,
    ...(await scheduled(sub, item.price.id, now)),
  };
  switch (sub.status) {
    case "active":
    case "trialing":
      return base;
    case "past_due":
      // The grace runs from the first failure: a later event of the same episode keeps its start.
      return { ...base, status: "past_due", pastDueSince: row.pastDueSince ?? isoOf(invoice?.created) ?? new Date(now).toISOString(), openInvoiceUrl: openUrl };
    case "unpaid":
    case "paused":
      return { ...base, status: "suspended", pastDueSince: row.pastDueSince, openInvoiceUrl: openUrl };
    case "canceled":
    case "incomplete_expired":
      // Never back to a trial: the plan stays, and credited routes refuse until a new subscription.
      return { ...base, status: "canceled", cancelAtPeriodEnd: false, scheduledPlan: null, scheduledInterval: null, scheduledAt: null };
    default:
      return undefined;
  }
}

/** A downgrade waiting in the subscription's schedule: the next phase's plan and when it starts. */
async function scheduled(sub: Stripe.Subscription, currentPrice: string, now: number): Promise<Pick<SubscriptionState, "scheduledPlan" | "scheduledInterval" | "scheduledAt">> {
  const none = { scheduledPlan: null, scheduledInterval: null, scheduledAt: null };
  const schedule = typeof sub.schedule === "object" ? sub.schedule : null;
  if (!schedule || schedule.status === "released" || schedule.status === "canceled") return none;
  // The phase after the current one (by Stripe's own dates, whatever this machine's clock says).
  const current = schedule.current_phase;
  const phase = schedule.phases.find((p) => (current ? p.start_date >= current.end_date : p.start_date * 1000 > now));
  const price = idOf(phase?.items[0]?.price as string | Stripe.Price | undefined);
  if (!phase || !price || price === currentPrice) return none;
  const plan = planOfPrice(await priceById(price));
  return plan ? { scheduledPlan: plan.plan, scheduledInterval: plan.interval, scheduledAt: isoOf(phase.start_date) } : none;
}

const KEYS: (keyof SubscriptionState)[] = [
  "plan", "status", "billingInterval", "periodStart", "periodEnd", "trialExpiresAt", "pastDueSince", "openInvoiceUrl",
  "cancelAtPeriodEnd", "scheduledPlan", "scheduledInterval", "scheduledAt", "stripeSubscriptionId",
];

const TIMES = new Set<keyof SubscriptionState>(["periodStart", "periodEnd", "trialExpiresAt", "pastDueSince", "scheduledAt"]);
const norm = (k: keyof SubscriptionState, v: unknown) => (v === null || v === undefined ? null : TIMES.has(k) ? Date.parse(String(v)) : v);

function same(row: BillingRow, next: SubscriptionState): boolean {
  return KEYS.every((k) => norm(k, row[k]) === norm(k, next[k]));
}
