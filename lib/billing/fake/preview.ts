// POST /v1/invoices/create_preview for an existing subscription: the next renewal invoice (with
// pending prorations and the price of a schedule phase starting then), or, with
// subscription_details[items], the invoice a price change would make (now with always_invoice,
// else the next renewal including the new prorations). Nothing is stored.

import type { Engine, ItemChange } from "./engine";
import { FakeStripeError } from "./errors";
import { newId } from "./ids";
import { phaseChanges } from "./schedules";
import { makeInvoice } from "./shapes";
import type { Invoice, ProrationBehavior, Subscription } from "./types";

export interface PreviewInput {
  subscription: Subscription;
  items?: ItemChange[];
  prorationBehavior?: ProrationBehavior;
  prorationDate?: number;
  cancelAtPeriodEnd?: boolean;
}

function none(customer: string): FakeStripeError {
  return new FakeStripeError(404, "invalid_request_error", `No upcoming invoices for customer: ${customer}`, undefined, "invoice_upcoming_none");
}

export function previewInvoice(e: Engine, o: PreviewInput): Invoice {
  const sub = structuredClone(o.subscription);
  const customer = e.customer(sub.customer, "customer");
  if (sub.status === "canceled" || sub.status === "incomplete") throw none(customer.id);
  if (o.cancelAtPeriodEnd !== undefined) sub.cancel_at_period_end = o.cancelAtPeriodEnd;
  const now = e.now();
  const at = o.prorationDate ?? now;
  let pending = [...(e.d.pendingLines[sub.id] ?? [])].map((l) => structuredClone(l));
  const build = (lines: typeof pending, reason: Invoice["billing_reason"], periodStart: number, periodEnd: number, created: number) => {
    const inv = makeInvoice({
      id: newId("upcoming_in"),
      customer,
      subscription: sub,
      billingReason: reason,
      created,
      lines,
      periodStart,
      periodEnd,
      number: null,
      baseUrl: e.opts.baseUrl(),
    });
    for (const l of inv.lines.data) l.invoice = null;
    return inv;
  };

  if (o.items?.length) {
    const behavior = o.prorationBehavior ?? "create_prorations";
    const r = e.changeItems(sub, o.items, behavior, at);
    if (r.invoiceNow.length) {
      const inv = build([...pending, ...r.invoiceNow], "subscription_update", at, at, at);
      inv.next_payment_attempt = at;
      return inv;
    }
    pending = [...pending, ...r.pending];
  }

  const { start, end } = e.period(sub);
  if (sub.cancel_at_period_end || (sub.cancel_at !== null && sub.cancel_at <= end)) throw none(customer.id);
  // A schedule phase that starts at the renewal sets the renewal's price.
  const sched = sub.schedule ? e.d.schedules[sub.schedule] : undefined;
  const phase = sched?.status === "active" ? sched.phases.find((p) => p.start_date <= end && end < p.end_date) : undefined;
  if (phase) e.changeItems(sub, phaseChanges(sub, phase), "none", end);
  const newEnd = e.nextPeriodEnd(sub, end);
  const inv = build([...pending, ...e.itemLines(sub, end, newEnd)], "upcoming", start, end, end);
  inv.next_payment_attempt = end;
  inv.automatically_finalizes_at = end;
  return inv;
}
