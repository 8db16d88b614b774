// Checkout in subscription mode: the session, and its completion by the hosted page's "Pay" (or
// the control API): a card, the subscription, its first invoice paid, then the three events
// checkout.session.completed, customer.subscription.created, invoice.paid.

import { AUTOMATIC, type Engine } from "./engine";
import { invalid } from "./errors";
import { newId } from "./ids";
import { makeCard, makeCustomer, makeSession } from "./shapes";
import type { CheckoutLine, CheckoutSession, Metadata, Price } from "./types";

export interface SessionInput {
  customer: string | null;
  customerEmail: string | null;
  clientReferenceId: string | null;
  lines: { price: Price; quantity: number }[];
  successUrl: string;
  cancelUrl: string | null;
  metadata: Metadata;
  subscriptionMetadata: Metadata;
}

export function createSession(e: Engine, o: SessionInput): CheckoutSession {
  if (o.lines.length === 0) throw invalid("Missing required param: line_items.", "line_items", "parameter_missing");
  const currencies = new Set(o.lines.map((l) => l.price.currency));
  const intervals = new Set(o.lines.map((l) => l.price.recurring.interval));
  if (currencies.size > 1 || intervals.size > 1) {
    throw invalid("All prices of a subscription must share their currency and interval.", "line_items");
  }
  const first = o.lines[0] as { price: Price };
  const session = makeSession({
    created: e.now(),
    customer: o.customer,
    customerEmail: o.customerEmail,
    clientReferenceId: o.clientReferenceId,
    successUrl: o.successUrl,
    cancelUrl: o.cancelUrl,
    metadata: o.metadata,
    amountTotal: o.lines.reduce((s, l) => s + l.price.unit_amount * l.quantity, 0),
    currency: first.price.currency,
    baseUrl: e.opts.baseUrl(),
  });
  e.d.sessions[session.id] = session;
  e.d.sessionLines[session.id] = o.lines.map(
    (l): CheckoutLine => ({
      id: newId("li"),
      object: "item",
      amount_discount: 0,
      amount_subtotal: l.price.unit_amount * l.quantity,
      amount_tax: 0,
      amount_total: l.price.unit_amount * l.quantity,
      currency: l.price.currency,
      description: e.productName(l.price),
      metadata: {},
      price: structuredClone(l.price),
      quantity: l.quantity,
    }),
  );
  e.d.sessionSubscriptionMetadata[session.id] = o.subscriptionMetadata;
  e.changed();
  return session;
}

/** success_url with {CHECKOUT_SESSION_ID} filled in. */
export function successRedirect(s: CheckoutSession): string | null {
  return s.success_url ? s.success_url.replaceAll("{CHECKOUT_SESSION_ID}", s.id) : null;
}

export type CompleteResult =
  | { status: "paid" | "already_paid"; redirect: string | null; session: CheckoutSession }
  | { status: "declined" | "expired"; redirect: null; session: CheckoutSession };

export function completeSession(e: Engine, id: string, o: { decline?: boolean } = {}): CompleteResult {
  const s = e.session(id);
  if (s.status === "complete") return { status: "already_paid", redirect: successRedirect(s), session: s };
  if (s.status === "expired") return { status: "expired", redirect: null, session: s };
  if (o.decline) return { status: "declined", redirect: null, session: s };

  const now = e.now();
  let customer = s.customer ? e.customer(s.customer, "customer") : undefined;
  if (!customer) {
    customer = makeCustomer({ created: now, email: s.customer_email, name: null, metadata: {} });
    e.d.customers[customer.id] = customer;
  }
  const card = makeCard({ created: now, customer: customer.id, email: customer.email, name: customer.name });
  e.d.paymentMethods[card.id] = card;
  customer.invoice_settings.default_payment_method = card.id;

  const lines = (e.d.sessionLines[s.id] ?? []).map((l) => ({ price: e.price(l.price.id), quantity: l.quantity }));
  const sub = e.createSubscription({
    customer,
    lines,
    metadata: { ...(e.d.sessionSubscriptionMetadata[s.id] ?? {}) },
    paymentMethod: card.id,
  });
  const { start, end } = e.period(sub);
  const invoice = e.newInvoice(sub, "subscription_create", e.itemLines(sub, start, end), now, now);
  e.charge(invoice, { ignoreFailing: true }); // the card just typed in works; failing applies to later charges

  s.status = "complete";
  s.payment_status = "paid";
  s.customer = customer.id;
  s.subscription = sub.id;
  s.invoice = invoice.id;
  s.url = null;
  s.customer_details = {
    address: null,
    business_name: null,
    email: customer.email,
    individual_name: null,
    name: customer.name,
    phone: null,
    tax_exempt: "none",
    tax_ids: [],
  };
  e.emit("checkout.session.completed", s, undefined, AUTOMATIC);
  e.emit("customer.subscription.created", sub, undefined, AUTOMATIC);
  e.emit("invoice.paid", invoice, undefined, AUTOMATIC);
  e.changed();
  return { status: "paid", redirect: successRedirect(s), session: s };
}
