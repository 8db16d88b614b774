// Subscriptions: retrieve, list, create (for a customer with a card), update (price changes with
// prorations, cancel at period end, metadata, default payment method), cancel.

import type { Engine, ItemChange } from "../engine";
import { invalid } from "../errors";
import { newestFirst, paginate, render, type ApiRequest, type Router } from "../http";
import { allowOnly, applyMetadata, bool, int, metadataOf, obj, objs, str, type Params } from "../params";
import type { ProrationBehavior, Subscription } from "../types";

const BEHAVIORS = ["create_prorations", "always_invoice", "none"];

export function prorationBehavior(p: Params, key = "proration_behavior", path = key): ProrationBehavior | undefined {
  const v = str(p, key, path);
  if (v === undefined) return undefined;
  if (!BEHAVIORS.includes(v)) throw invalid(`Invalid proration_behavior: must be one of ${BEHAVIORS.join(", ")}`, path);
  return v as ProrationBehavior;
}

export function itemChanges(p: Params, key = "items", prefix = key): ItemChange[] {
  return objs(p, key).map((it, i) => {
    const path = `${prefix}[${i}]`;
    allowOnly(it, ["id", "price", "quantity", "deleted", "metadata", "clear_usage", "tax_rates", "discounts"]);
    return {
      id: str(it, "id", `${path}[id]`) || undefined,
      price: str(it, "price", `${path}[price]`) || undefined,
      quantity: int(it, "quantity", `${path}[quantity]`),
      deleted: bool(it, "deleted", `${path}[deleted]`) || undefined,
    };
  });
}

function show(e: Engine, s: Subscription, q: ApiRequest): Subscription {
  return render(s, q, e.store);
}

function paymentMethodFor(e: Engine, sub: { customer: string }, id: string, param: string): string {
  const pm = e.paymentMethod(id, param);
  if (pm.customer !== sub.customer) throw invalid(`The payment method \`${id}\` does not belong to the subscription's customer.`, param);
  return id;
}

function update(e: Engine, sub: Subscription, q: ApiRequest): Subscription {
  const p = q.params;
  allowOnly(p, [
    "items",
    "proration_behavior",
    "proration_date",
    "cancel_at_period_end",
    "cancel_at",
    "cancellation_details",
    "metadata",
    "default_payment_method",
    "description",
    "payment_behavior",
    "billing_cycle_anchor",
    "off_session",
  ]);
  if (sub.status === "canceled" && Object.keys(p).some((k) => !["metadata", "cancellation_details", "expand"].includes(k))) {
    throw invalid("A canceled subscription can only update its cancellation_details and metadata.");
  }
  const anchor = str(p, "billing_cycle_anchor");
  if (anchor !== undefined && anchor !== "unchanged") throw invalid("The fake supports only billing_cycle_anchor=unchanged.", "billing_cycle_anchor");
  const cancelAtPeriodEnd = bool(p, "cancel_at_period_end");
  const cancelAt = str(p, "cancel_at");
  if ((cancelAtPeriodEnd !== undefined || cancelAt !== undefined) && sub.schedule) {
    throw invalid(
      `The subscription is managed by the subscription schedule \`${sub.schedule}\`, and updating any cancelation behavior directly is not allowed. Please update the schedule instead.`,
    );
  }
  const changes = itemChanges(p);
  const behavior = prorationBehavior(p) ?? "create_prorations";
  const at = int(p, "proration_date") ?? e.now();
  const before = structuredClone(sub);
  const now = e.now();

  if (cancelAtPeriodEnd !== undefined) {
    sub.cancel_at_period_end = cancelAtPeriodEnd;
    sub.cancel_at = cancelAtPeriodEnd ? e.period(sub).end : null;
    sub.canceled_at = cancelAtPeriodEnd ? now : null;
    sub.cancellation_details = { ...sub.cancellation_details, reason: cancelAtPeriodEnd ? "cancellation_requested" : null };
  }
  if (cancelAt !== undefined) {
    const t = cancelAt === "" ? null : cancelAt === "min_period_end" ? e.period(sub).end : Number(cancelAt);
    if (t !== null && (!Number.isFinite(t) || t <= now)) throw invalid("cancel_at must be in the future.", "cancel_at");
    sub.cancel_at = t;
    sub.cancel_at_period_end = t !== null && t === e.period(sub).end;
    sub.canceled_at = t === null ? null : now;
    sub.cancellation_details = { ...sub.cancellation_details, reason: t === null ? null : "cancellation_requested" };
  }
  const details = obj(p, "cancellation_details");
  if (details) {
    const comment = str(details, "comment", "cancellation_details[comment]");
    const feedback = str(details, "feedback", "cancellation_details[feedback]");
    if (comment !== undefined) sub.cancellation_details.comment = comment || null;
    if (feedback !== undefined) sub.cancellation_details.feedback = feedback || null;
  }
  applyMetadata(sub.metadata, p);
  const description = str(p, "description");
  if (description !== undefined) sub.description = description || null;
  const pm = str(p, "default_payment_method");
  if (pm !== undefined) sub.default_payment_method = pm ? paymentMethodFor(e, sub, pm, "default_payment_method") : null;

  const result = changes.length ? e.applyItemChanges(sub, changes, behavior, at) : { invoice: null, paid: false };
  e.emitUpdated(before, sub, q.info);
  if (result.invoice) e.emit(result.paid ? "invoice.paid" : "invoice.payment_failed", result.invoice, undefined, q.info);
  e.changed();
  return sub;
}

export function subscriptionRoutes(r: Router): void {
  r.on("GET", "/v1/subscriptions", (e, q) => {
    const p = q.params;
    allowOnly(p, ["customer", "status", "price", "limit", "starting_after", "ending_before", "created", "collection_method"]);
    const customer = str(p, "customer");
    const status = str(p, "status");
    const price = str(p, "price");
    const items = newestFirst(e.d.subscriptions).filter(
      (s) =>
        (!customer || s.customer === customer) &&
        (status === "all" || (status ? s.status === status : s.status !== "canceled")) &&
        (!price || s.items.data.some((i) => i.price.id === price)),
    );
    return render(paginate(items, p, "/v1/subscriptions"), q, e.store);
  });

  r.on("POST", "/v1/subscriptions", (e, q) => {
    const p = q.params;
    allowOnly(p, ["customer", "items", "metadata", "default_payment_method", "payment_behavior", "off_session", "description", "collection_method"]);
    const customer = e.customer(str(p, "customer") ?? "", "customer");
    const lines = objs(p, "items").map((it, i) => ({
      price: e.price(str(it, "price", `items[${i}][price]`) ?? "", `items[${i}][price]`),
      quantity: int(it, "quantity", `items[${i}][quantity]`) ?? 1,
    }));
    const pmId = str(p, "default_payment_method");
    const pm = pmId ? paymentMethodFor(e, { customer: customer.id }, pmId, "default_payment_method") : null;
    const sub = e.createSubscription({ customer, lines, metadata: metadataOf(p), paymentMethod: pm });
    const description = str(p, "description");
    if (description) sub.description = description;
    const { start, end } = e.period(sub);
    const inv = e.newInvoice(sub, "subscription_create", e.itemLines(sub, start, end), start, start);
    const paid = e.charge(inv);
    if (!paid) sub.status = "incomplete";
    e.emit("customer.subscription.created", sub, undefined, q.info);
    e.emit(paid ? "invoice.paid" : "invoice.payment_failed", inv, undefined, q.info);
    return show(e, sub, q);
  });

  r.on("GET", "/v1/subscriptions/:id", (e, q) => {
    allowOnly(q.params, []);
    return show(e, e.subscription(q.args.id as string), q);
  });

  r.on("POST", "/v1/subscriptions/:id", (e, q) => show(e, update(e, e.subscription(q.args.id as string), q), q));

  r.on("DELETE", "/v1/subscriptions/:id", (e, q) => {
    allowOnly(q.params, ["invoice_now", "prorate", "cancellation_details"]);
    const sub = e.subscription(q.args.id as string);
    const details = obj(q.params, "cancellation_details");
    if (details) {
      sub.cancellation_details.comment = str(details, "comment") || sub.cancellation_details.comment;
      sub.cancellation_details.feedback = str(details, "feedback") || sub.cancellation_details.feedback;
    }
    e.cancelSubscription(sub, q.info);
    return show(e, sub, q);
  });
}
