// What happens when the fake's clock moves: schedule phases end, periods renew (invoice, payment),
// subscriptions set to cancel end, failed invoices are retried, checkout sessions expire. Moments
// are processed in time order, each at its own timestamp, so advancing three months renews three
// times with the right dates.

import { AUTOMATIC, type Engine } from "./engine";
import { endPhase } from "./schedules";
import type { Invoice, Subscription } from "./types";

const LIVE = new Set(["active", "past_due", "trialing"]);

function subscriptionMoments(e: Engine, sub: Subscription): number[] {
  const out = [e.period(sub).end];
  if (sub.cancel_at !== null) out.push(sub.cancel_at);
  const sched = sub.schedule ? e.d.schedules[sub.schedule] : undefined;
  if (sched?.status === "active" && sched.current_phase) out.push(sched.current_phase.end_date);
  return out;
}

/** The earliest moment something is due, or null. */
export function nextDue(e: Engine): number | null {
  let min: number | null = null;
  const see = (t: number | null) => {
    if (t !== null && (min === null || t < min)) min = t;
  };
  for (const sub of Object.values(e.d.subscriptions)) {
    if (LIVE.has(sub.status)) for (const t of subscriptionMoments(e, sub)) see(t);
  }
  for (const inv of Object.values(e.d.invoices)) {
    if (inv.status === "open" && inv.auto_advance) see(inv.next_payment_attempt);
  }
  for (const s of Object.values(e.d.sessions)) if (s.status === "open") see(s.expires_at);
  return min;
}

function processSubscription(e: Engine, sub: Subscription, at: number): void {
  const before = structuredClone(sub);
  let invoice: Invoice | null = null;
  let paid = false;
  let cancel = false;
  // 1. schedule phases that ended (a downgrade at the period end applies before the renewal bills)
  for (let guard = 0; guard < 100 && sub.schedule; guard++) {
    const sched = e.d.schedules[sub.schedule];
    if (!sched || sched.status !== "active" || !sched.current_phase || sched.current_phase.end_date > at) break;
    const r = endPhase(e, sched, sub, at);
    if (r.invoice) ({ invoice, paid } = r);
    if (r.cancel) {
      cancel = true;
      break;
    }
  }
  // 2. cancellation asked for (cancel_at_period_end, cancel_at)
  const { start, end } = e.period(sub);
  if (!cancel && ((sub.cancel_at_period_end && end <= at) || (sub.cancel_at !== null && sub.cancel_at <= at))) cancel = true;
  if (cancel) {
    if (invoice) e.emit(paid ? "invoice.paid" : "invoice.payment_failed", invoice);
    e.cancelSubscription(sub, AUTOMATIC);
    return;
  }
  // 3. renewal: a new period, its invoice, the payment
  if (end <= at) {
    const newEnd = e.nextPeriodEnd(sub, end);
    e.setPeriod(sub, end, newEnd);
    const lines = [...(e.d.pendingLines[sub.id] ?? []), ...e.itemLines(sub, end, newEnd)];
    delete e.d.pendingLines[sub.id];
    invoice = e.newInvoice(sub, "subscription_cycle", lines, start, end);
    paid = e.charge(invoice);
    sub.status = paid ? "active" : "past_due";
  }
  if (invoice) e.emit(paid ? "invoice.paid" : "invoice.payment_failed", invoice);
  e.emitUpdated(before, sub);
}

/** A scheduled retry of a failed invoice; when the last one fails, the dunning's final step. */
function retryInvoice(e: Engine, inv: Invoice): void {
  const sub = e.d.subscriptions[inv.parent.subscription_details.subscription];
  if (e.payInvoice(inv, {}, AUTOMATIC)) return;
  if (inv.next_payment_attempt !== null || !sub || sub.latest_invoice !== inv.id) return;
  const final = e.opts.dunning.final;
  if (final === "canceled" && sub.status !== "canceled") e.cancelSubscription(sub, AUTOMATIC, "payment_failed");
  if (final === "unpaid" && sub.status === "past_due") {
    const before = structuredClone(sub);
    sub.status = "unpaid";
    e.emitUpdated(before, sub);
  }
}

/** Does everything due at or before `at` (the clock already reads `at`). */
export function processAt(e: Engine, at: number): void {
  for (const sub of Object.values(e.d.subscriptions)) {
    if (LIVE.has(sub.status) && subscriptionMoments(e, sub).some((t) => t <= at)) processSubscription(e, sub, at);
  }
  for (const inv of Object.values(e.d.invoices)) {
    if (inv.status === "open" && inv.auto_advance && inv.next_payment_attempt !== null && inv.next_payment_attempt <= at) {
      retryInvoice(e, inv);
    }
  }
  for (const s of Object.values(e.d.sessions)) {
    if (s.status === "open" && s.expires_at <= at) {
      s.status = "expired";
      s.url = null;
      e.emit("checkout.session.expired", s);
    }
  }
  e.changed();
}

/** Moves the clock to `target`, stopping at every due moment on the way. */
export function advanceTo(e: Engine, target: number): void {
  for (let guard = 0; guard < 100_000; guard++) {
    const t = nextDue(e);
    if (t === null || t > target) break;
    e.clock.setTo(t);
    processAt(e, Math.max(t, e.now()));
  }
  e.clock.setTo(target);
  e.d.clockOffset = e.clock.offsetSeconds;
  e.changed();
}
