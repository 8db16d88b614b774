// The billing engine: lookups, invoices and payments, subscription creation, price changes with
// prorations, cancellation. Schedules (schedules.ts), the clock's work (renewals.ts), previews
// (preview.ts) and checkout (checkout.ts) build on it. HTTP lives in resources/*.ts.

import { addInterval, type Clock } from "./clock";
import { invalid, missing } from "./errors";
import { changedFields, type EventBus } from "./events";
import { newId } from "./ids";
import { lineDescription, makeInvoice, makeItem, makeLine, makeSubscription, planOf } from "./shapes";
import type { Store } from "./state";
import type {
  BillingReason,
  CheckoutSession,
  Customer,
  Interval,
  Invoice,
  InvoiceLine,
  Metadata,
  PaymentMethod,
  Price,
  ProrationBehavior,
  RequestInfo,
  StripeObject,
  Subscription,
  SubscriptionSchedule,
} from "./types";

export const AUTOMATIC: RequestInfo = { id: null, idempotency_key: null };

export interface Dunning {
  /** Days after the first failed attempt on which an open invoice is charged again. */
  retryDays: number[];
  /** What happens to the subscription when the last retry fails. */
  final: "canceled" | "unpaid" | "past_due";
}

export interface EngineOptions {
  baseUrl: () => string;
  dunning: Dunning;
}

/** A requested change of one subscription item (`items[i]` of POST /v1/subscriptions/:id). */
export interface ItemChange {
  id?: string;
  price?: string;
  quantity?: number;
  deleted?: boolean;
}

export interface ItemChangeResult {
  /** Lines to invoice at once (always_invoice, or a change of billing interval). */
  invoiceNow: InvoiceLine[];
  /** Lines for the next invoice (create_prorations). */
  pending: InvoiceLine[];
  cycleReset: boolean;
}

export class Engine {
  constructor(
    readonly store: Store,
    readonly clock: Clock,
    readonly bus: EventBus,
    readonly opts: EngineOptions,
  ) {}

  get d() {
    return this.store.d;
  }

  now(): number {
    return this.clock.now();
  }

  // ---- lookups -------------------------------------------------------------------------------

  customer(id: string, param = "id"): Customer {
    const c = this.d.customers[id];
    if (!c) throw missing("cus", id, param);
    return c;
  }

  price(id: string, param = "price"): Price {
    const p = this.d.prices[id];
    if (!p) throw missing("price", id, param);
    return p;
  }

  subscription(id: string, param = "id"): Subscription {
    const s = this.d.subscriptions[id];
    if (!s) throw missing("sub", id, param);
    return s;
  }

  invoice(id: string, param = "id"): Invoice {
    const i = this.d.invoices[id];
    if (!i) throw missing("in", id, param);
    return i;
  }

  schedule(id: string, param = "id"): SubscriptionSchedule {
    const s = this.d.schedules[id];
    if (!s) throw missing("sub_sched", id, param);
    return s;
  }

  session(id: string, param = "id"): CheckoutSession {
    const s = this.d.sessions[id];
    if (!s) throw missing("cs", id, param);
    return s;
  }

  paymentMethod(id: string, param = "id"): PaymentMethod {
    const p = this.d.paymentMethods[id];
    if (!p) throw missing("pm", id, param);
    return p;
  }

  productName(price: Price): string {
    return this.d.products[price.product]?.name ?? price.product;
  }

  emit(type: string, object: StripeObject, previous?: Record<string, unknown>, req: RequestInfo = AUTOMATIC): void {
    this.bus.emit(type, object, previous, req);
  }

  changed(): void {
    this.store.changed();
  }

  // ---- periods -------------------------------------------------------------------------------

  period(sub: Subscription): { start: number; end: number } {
    const item = sub.items.data[0];
    return item ? { start: item.current_period_start, end: item.current_period_end } : { start: sub.created, end: sub.created };
  }

  setPeriod(sub: Subscription, start: number, end: number): void {
    for (const item of sub.items.data) {
      item.current_period_start = start;
      item.current_period_end = end;
    }
  }

  interval(sub: Subscription): Interval {
    return sub.items.data[0]?.price.recurring.interval ?? "month";
  }

  nextPeriodEnd(sub: Subscription, start: number): number {
    return addInterval(start, this.interval(sub), 1, sub.billing_cycle_anchor);
  }

  // ---- invoices and payments -----------------------------------------------------------------

  itemLines(sub: Subscription, start: number, end: number): InvoiceLine[] {
    return sub.items.data.map((item) =>
      makeLine({
        amount: item.price.unit_amount * item.quantity,
        currency: sub.currency,
        description: lineDescription(this.productName(item.price), item.price, item.quantity),
        price: item.price,
        quantity: item.quantity,
        start,
        end,
        subscription: sub.id,
        subscriptionItem: item.id,
        proration: false,
      }),
    );
  }

  /** A finalized (open) invoice of the subscription, stored and numbered. */
  newInvoice(sub: Subscription, reason: BillingReason, lines: InvoiceLine[], periodStart: number, periodEnd: number): Invoice {
    const customer = this.customer(sub.customer, "customer");
    const number = `${customer.invoice_prefix}-${String(customer.next_invoice_sequence).padStart(4, "0")}`;
    customer.next_invoice_sequence += 1;
    const inv = makeInvoice({
      id: newId("in"),
      customer,
      subscription: sub,
      billingReason: reason,
      created: this.now(),
      lines,
      periodStart,
      periodEnd,
      number,
      baseUrl: this.opts.baseUrl(),
    });
    this.d.invoices[inv.id] = inv;
    sub.latest_invoice = inv.id;
    this.changed();
    return inv;
  }

  /** The payment method an invoice is charged with: the subscription's, else the customer's default. */
  defaultMethod(inv: Invoice): string | null {
    const sub = this.d.subscriptions[inv.parent.subscription_details.subscription];
    return sub?.default_payment_method ?? this.d.customers[inv.customer]?.invoice_settings.default_payment_method ?? null;
  }

  /**
   * One payment attempt. Succeeds unless the customer is set to fail (and `ignoreFailing` is not
   * given) or there is no payment method. No events: callers emit them in Stripe's order.
   */
  charge(inv: Invoice, o: { ignoreFailing?: boolean; paymentMethod?: string; outOfBand?: boolean } = {}): boolean {
    if (inv.status === "paid") return true;
    if (inv.status !== "open") throw invalid(`Invoice ${inv.id} is ${inv.status} and cannot be paid.`, undefined, "invoice_not_editable");
    const now = this.now();
    if (inv.amount_due === 0 || o.outOfBand) {
      this.markPaid(inv, now, o.outOfBand);
      return true;
    }
    inv.attempted = true;
    inv.attempt_count += 1;
    const method = o.paymentMethod ?? this.defaultMethod(inv);
    if (!method || (this.d.failing[inv.customer] && !o.ignoreFailing)) {
      inv.next_payment_attempt = this.nextAttempt(inv, now);
      this.changed();
      return false;
    }
    this.markPaid(inv, now);
    return true;
  }

  private markPaid(inv: Invoice, now: number, outOfBand = false): void {
    inv.status = "paid";
    inv.amount_paid = outOfBand ? 0 : inv.amount_due;
    if (outOfBand) inv.amount_paid_off_stripe = inv.amount_due;
    inv.amount_remaining = 0;
    inv.next_payment_attempt = null;
    inv.status_transitions.paid_at = now;
    this.changed();
  }

  private nextAttempt(inv: Invoice, now: number): number | null {
    if (!inv.auto_advance) return null;
    const days = this.opts.dunning.retryDays[inv.attempt_count - 1];
    if (days === undefined) return null;
    const base = inv.status_transitions.finalized_at ?? inv.created;
    return Math.max(base + days * 86400, now + 3600);
  }

  /**
   * Pays an open invoice (POST /v1/invoices/:id/pay, the hosted invoice page, the control API).
   * On success: invoice.paid, and a past_due/unpaid subscription whose invoices are now all paid
   * becomes active (customer.subscription.updated). On failure: invoice.payment_failed, then false.
   */
  payInvoice(inv: Invoice, o: { ignoreFailing?: boolean; paymentMethod?: string; outOfBand?: boolean }, req: RequestInfo): boolean {
    if (inv.status === "paid") throw invalid("Invoice is already paid", undefined, "invoice_already_paid");
    const sub = this.d.subscriptions[inv.parent.subscription_details.subscription];
    const before = sub ? structuredClone(sub) : null;
    if (!this.charge(inv, o)) {
      this.emit("invoice.payment_failed", inv, undefined, req);
      return false;
    }
    this.emit("invoice.paid", inv, undefined, req);
    if (sub && before && ["past_due", "unpaid", "incomplete"].includes(sub.status)) {
      const stillOpen = Object.values(this.d.invoices).some(
        (i) => i.status === "open" && i.parent.subscription_details.subscription === sub.id,
      );
      if (!stillOpen) {
        sub.status = "active";
        this.emitUpdated(before, sub, req);
      }
    }
    return true;
  }

  emitUpdated(before: Subscription, sub: Subscription, req: RequestInfo = AUTOMATIC): void {
    const prev = changedFields(before, sub);
    if (prev) this.emit("customer.subscription.updated", sub, prev, req);
    this.changed();
  }

  // ---- subscriptions -------------------------------------------------------------------------

  createSubscription(o: {
    customer: Customer;
    lines: { price: Price; quantity: number }[];
    metadata: Metadata;
    paymentMethod: string | null;
  }): Subscription {
    const now = this.now();
    const first = o.lines[0];
    if (!first) throw invalid("Missing required param: line_items.", "line_items", "parameter_missing");
    const sub = makeSubscription({
      customer: o.customer.id,
      created: now,
      currency: first.price.currency,
      metadata: o.metadata,
      defaultPaymentMethod: o.paymentMethod,
    });
    const end = addInterval(now, first.price.recurring.interval, 1, now);
    sub.items.data = o.lines.map((l) =>
      makeItem({ subscription: sub.id, price: l.price, quantity: l.quantity, created: now, start: now, end }),
    );
    sub.items.total_count = sub.items.data.length;
    this.d.subscriptions[sub.id] = sub;
    o.customer.currency ??= sub.currency;
    this.changed();
    return sub;
  }

  /**
   * Applies item changes to `sub` (which may be a copy, for previews) and computes the prorations
   * Stripe would: credit for the unused time of the old price, charge for the rest of the period
   * at the new one. A change of billing interval restarts the period now and invoices at once.
   * Touches no stored state but `sub` itself.
   */
  changeItems(sub: Subscription, changes: ItemChange[], behavior: ProrationBehavior, at: number): ItemChangeResult {
    const { start, end } = this.period(sub);
    const oldInterval = this.interval(sub);
    const old = new Map(sub.items.data.map((i) => [i.id, { price: i.price, quantity: i.quantity, item: i }]));
    changes.forEach((c, n) => {
      const param = `items[${n}]`;
      const existing = c.id ? sub.items.data.find((i) => i.id === c.id) : undefined;
      if (c.id && !existing) throw missing("si", c.id, `${param}[id]`);
      if (c.deleted) {
        if (!existing) throw invalid("Deleting an item requires its id.", `${param}[id]`);
        sub.items.data = sub.items.data.filter((i) => i !== existing);
        return;
      }
      const price = c.price ? this.price(c.price, `${param}[price]`) : undefined;
      if (existing) {
        if (price) {
          existing.price = structuredClone(price);
          existing.plan = planOf(price);
        }
        if (c.quantity !== undefined) existing.quantity = c.quantity;
        return;
      }
      if (!price) throw invalid("Missing required param: price.", `${param}[price]`, "parameter_missing");
      sub.items.data.push(makeItem({ subscription: sub.id, price, quantity: c.quantity ?? 1, created: at, start, end }));
    });
    if (sub.items.data.length === 0) throw invalid("A subscription needs at least one item.", "items");
    const intervals = new Set(sub.items.data.map((i) => i.price.recurring.interval));
    const currencies = new Set(sub.items.data.map((i) => i.price.currency));
    if (intervals.size > 1 || currencies.size > 1) {
      throw invalid("Currency and interval fields must match across all plans on this subscription.", "items");
    }
    sub.items.total_count = sub.items.data.length;

    const share = end > start ? Math.min(1, Math.max(0, (end - at) / (end - start))) : 0;
    const date = new Date(at * 1000).toISOString().slice(0, 10);
    const credits: InvoiceLine[] = [];
    const debits: InvoiceLine[] = [];
    const proration = (price: Price, quantity: number, itemId: string, sign: 1 | -1, text: string): InvoiceLine =>
      makeLine({
        amount: sign * Math.round(price.unit_amount * quantity * share),
        currency: sub.currency,
        description: `${text} ${quantity} × ${this.productName(price)} after ${date}`,
        price,
        quantity,
        start: at,
        end,
        subscription: sub.id,
        subscriptionItem: itemId,
        proration: true,
      });
    const now = new Map(sub.items.data.map((i) => [i.id, i]));
    for (const [id, o] of old) {
      const n = now.get(id);
      if (n && n.price.id === o.price.id && n.quantity === o.quantity) continue;
      credits.push(proration(o.price, o.quantity, id, -1, "Unused time on"));
      if (n) debits.push(proration(n.price, n.quantity, id, 1, "Remaining time on"));
    }
    for (const [id, n] of now) if (!old.has(id)) debits.push(proration(n.price, n.quantity, id, 1, "Remaining time on"));

    if (this.interval(sub) !== oldInterval) {
      // New interval: the period restarts now, the unused old time is credited on an invoice at once.
      sub.billing_cycle_anchor = at;
      const newEnd = this.nextPeriodEnd(sub, at);
      this.setPeriod(sub, at, newEnd);
      const lines = [...credits.filter((l) => l.amount !== 0), ...this.itemLines(sub, at, newEnd)];
      return { invoiceNow: lines, pending: [], cycleReset: true };
    }
    const lines = [...credits, ...debits].filter((l) => l.amount !== 0);
    if (behavior === "none" || lines.length === 0) return { invoiceNow: [], pending: [], cycleReset: false };
    if (behavior === "always_invoice") return { invoiceNow: lines, pending: [], cycleReset: false };
    return { invoiceNow: [], pending: lines, cycleReset: false };
  }

  /**
   * Applies item changes to a stored subscription: pending prorations are kept for the next
   * invoice; lines due now are invoiced (with the pending ones) and charged. Returns the invoice
   * made, if any, and whether it was paid. Emits nothing.
   */
  applyItemChanges(sub: Subscription, changes: ItemChange[], behavior: ProrationBehavior, at: number): { invoice: Invoice | null; paid: boolean } {
    const r = this.changeItems(sub, changes, behavior, at);
    const pending = this.d.pendingLines[sub.id] ?? [];
    if (r.pending.length) this.d.pendingLines[sub.id] = [...pending, ...r.pending];
    if (r.invoiceNow.length === 0) {
      this.changed();
      return { invoice: null, paid: false };
    }
    delete this.d.pendingLines[sub.id];
    const inv = this.newInvoice(sub, "subscription_update", [...pending, ...r.invoiceNow], at, at);
    const paid = this.charge(inv);
    if (paid && sub.status === "past_due") sub.status = "active";
    if (!paid && sub.status === "active") sub.status = "past_due";
    return { invoice: inv, paid };
  }

  /** Ends a subscription now: canceled, open invoices no longer collected, its schedule canceled. */
  cancelSubscription(sub: Subscription, req: RequestInfo, reason = "cancellation_requested"): void {
    if (sub.status === "canceled") throw invalid(`A canceled subscription can only update its cancellation_details and metadata: ${sub.id}`);
    const now = this.now();
    sub.status = "canceled";
    sub.ended_at = now;
    sub.canceled_at ??= now;
    sub.cancellation_details = { ...sub.cancellation_details, reason: sub.cancellation_details.reason ?? reason };
    delete this.d.pendingLines[sub.id];
    for (const inv of Object.values(this.d.invoices)) {
      if (inv.status === "open" && inv.parent.subscription_details.subscription === sub.id) {
        inv.auto_advance = false;
        inv.next_payment_attempt = null;
      }
    }
    const sched = sub.schedule ? this.d.schedules[sub.schedule] : undefined;
    if (sched && (sched.status === "active" || sched.status === "not_started")) {
      sched.status = "canceled";
      sched.canceled_at = now;
      sched.current_phase = null;
      this.emit("subscription_schedule.canceled", sched, undefined, req);
    }
    this.emit("customer.subscription.deleted", sub, undefined, req);
    this.changed();
  }
}
