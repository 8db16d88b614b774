import type Stripe from "stripe";
import type { Account } from "@/lib/accounts/types";
import { graceEnds, period, standing, trialExpired } from "@/lib/meter/policy";
import { billingRow } from "./queries/accounts";
import { callStripe, stripe } from "./stripe";

// GET /v1/billing: the account's plan and subscription as the owner needs to see them, with the
// card on file and the next invoice as Stripe estimates it.

type Card = { brand: string | null; last4: string | null; exp_month: number | null; exp_year: number | null };

const iso = (unix: number | null | undefined) => (unix ? new Date(unix * 1000).toISOString() : null);

export async function billingSummary(caller: Account, now = Date.now()) {
  const row = (await billingRow(caller.id))!;
  // One snapshot: the account as this row has it (its billing columns over the caller's copy).
  // The caller's copy may be older (a key's cached account, or one read before a webhook landed):
  // a status from the row beside a standing from that copy said "past_due" with a standing of
  // "ok", and the billing page then showed no warning.
  const account = { ...caller, ...row } as Account;
  // An expired trial is served no credited route either (SPEC.md States): said so here too.
  const s = trialExpired(account, now) ? "trial_expired" : standing(account, now);
  const grace = graceEnds(account);
  const out = {
    plan: row.plan,
    interval: row.billingInterval,
    status: row.status,
    /** Whether credited routes answer: ok, grace (payment failed, still served), suspended, canceled or trial_expired. */
    standing: s,
    current_period_end: row.plan === "trial" ? null : row.periodEnd,
    /** When this period's credits renew: the month's end on a yearly plan. */
    credits_reset_at: row.plan === "trial" ? null : period(account, now).resetsAt,
    cancel_at_period_end: row.cancelAtPeriodEnd,
    scheduled_change: row.scheduledPlan ? { plan: row.scheduledPlan, interval: row.scheduledInterval, at: row.scheduledAt } : null,
    grace_ends_at: Number.isFinite(grace) ? new Date(grace).toISOString() : null,
    open_invoice_url: row.openInvoiceUrl,
    trial_expires_at: row.plan === "trial" ? row.trialExpiresAt : null,
    payment_method: null as Card | null,
    next_invoice: null as null | { amount_due: number; currency: string; date: string | null },
  };
  if (!row.stripeSubscriptionId || row.status === "canceled") return out;
  const sub = await callStripe(() => stripe().subscriptions.retrieve(row.stripeSubscriptionId!, { expand: ["default_payment_method"] }));
  out.payment_method = cardOf(sub.default_payment_method);
  if (!sub.cancel_at_period_end && sub.status !== "canceled") {
    const next = await callStripe(() => stripe().invoices.createPreview({ customer: row.stripeCustomerId!, subscription: sub.id })).catch(() => null);
    if (next) out.next_invoice = { amount_due: next.amount_due, currency: next.currency, date: iso(next.next_payment_attempt ?? next.period_end) };
  }
  return out;
}

function cardOf(pm: string | Stripe.PaymentMethod | null): Card | null {
  if (!pm || typeof pm === "string" || !pm.card) return null;
  return { brand: pm.card.brand, last4: pm.card.last4, exp_month: pm.card.exp_month, exp_year: pm.card.exp_year };
}
