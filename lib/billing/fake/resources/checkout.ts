// Checkout sessions (subscription mode only).

import { createSession } from "../checkout";
import { invalid } from "../errors";
import { newestFirst, paginate, render, type ApiRequest, type Router } from "../http";
import { allowOnly, int, metadataOf, objs, obj, str, strs } from "../params";
import { list } from "../shapes";
import type { Engine } from "../engine";
import type { CheckoutSession } from "../types";

/** Accepted and ignored: they change nothing the fake models. */
const IGNORED = [
  "allow_promotion_codes",
  "automatic_tax",
  "billing_address_collection",
  "consent_collection",
  "currency",
  "customer_update",
  "locale",
  "payment_method_collection",
  "payment_method_types",
  "tax_id_collection",
  "ui_mode",
  "custom_text",
  "submit_type",
  "saved_payment_method_options",
];

function show(e: Engine, s: CheckoutSession, q: ApiRequest): CheckoutSession {
  const wantsLines = strs(q.params, "expand").some((x) => x === "line_items" || x.startsWith("line_items."));
  const out = wantsLines
    ? { ...s, line_items: list(e.d.sessionLines[s.id] ?? [], `/v1/checkout/sessions/${s.id}/line_items`) }
    : s;
  return render(out, q, e.store);
}

export function checkoutRoutes(r: Router): void {
  r.on("POST", "/v1/checkout/sessions", (e, q) => {
    const p = q.params;
    allowOnly(p, [
      "mode",
      "customer",
      "customer_email",
      "client_reference_id",
      "line_items",
      "success_url",
      "cancel_url",
      "metadata",
      "subscription_data",
      ...IGNORED,
    ]);
    const mode = str(p, "mode");
    if (mode !== "subscription") {
      throw invalid(`The fake supports only mode=subscription (got ${mode ?? "none"}).`, "mode");
    }
    const customer = str(p, "customer") || null;
    if (customer) e.customer(customer, "customer");
    const customerEmail = str(p, "customer_email") || null;
    if (customer && customerEmail) throw invalid("You may only specify one of these parameters: customer, customer_email.", "customer_email");
    const successUrl = str(p, "success_url");
    if (!successUrl) throw invalid("Missing required param: success_url.", "success_url", "parameter_missing");
    const lines = objs(p, "line_items").map((li, i) => {
      allowOnly(li, ["price", "quantity", "adjustable_quantity"]);
      const id = str(li, "price", `line_items[${i}][price]`);
      if (!id) throw invalid(`Missing required param: line_items[${i}][price].`, `line_items[${i}][price]`, "parameter_missing");
      const price = e.price(id, `line_items[${i}][price]`);
      const quantity = int(li, "quantity", `line_items[${i}][quantity]`) ?? 1;
      if (quantity < 1) throw invalid("Quantity must be at least 1.", `line_items[${i}][quantity]`);
      return { price, quantity };
    });
    const subData = obj(p, "subscription_data") ?? {};
    allowOnly(subData, ["metadata", "description", "trial_period_days", "trial_settings", "billing_cycle_anchor", "proration_behavior", "default_tax_rates"]);
    if (subData.trial_period_days !== undefined) throw invalid("Trials are not modelled by the fake.", "subscription_data[trial_period_days]");
    const session = createSession(e, {
      customer,
      customerEmail,
      clientReferenceId: str(p, "client_reference_id") || null,
      lines,
      successUrl,
      cancelUrl: str(p, "cancel_url") || null,
      metadata: metadataOf(p),
      subscriptionMetadata: metadataOf(subData),
    });
    return show(e, session, q);
  });

  r.on("GET", "/v1/checkout/sessions", (e, q) => {
    const p = q.params;
    allowOnly(p, ["customer", "subscription", "status", "limit", "starting_after", "ending_before", "created"]);
    const customer = str(p, "customer");
    const subscription = str(p, "subscription");
    const status = str(p, "status");
    const items = newestFirst(e.d.sessions).filter(
      (s) =>
        (!customer || s.customer === customer) &&
        (!subscription || s.subscription === subscription) &&
        (!status || s.status === status),
    );
    return render(paginate(items, p, "/v1/checkout/sessions"), q, e.store);
  });

  r.on("GET", "/v1/checkout/sessions/:id", (e, q) => {
    allowOnly(q.params, []);
    return show(e, e.session(q.args.id as string), q);
  });

  r.on("GET", "/v1/checkout/sessions/:id/line_items", (e, q) => {
    allowOnly(q.params, ["limit", "starting_after", "ending_before"]);
    const s = e.session(q.args.id as string);
    return render(paginate(e.d.sessionLines[s.id] ?? [], q.params, `/v1/checkout/sessions/${s.id}/line_items`), q, e.store);
  });

  r.on("POST", "/v1/checkout/sessions/:id/expire", (e, q) => {
    allowOnly(q.params, []);
    const s = e.session(q.args.id as string);
    if (s.status !== "open") throw invalid(`Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${s.status}".`);
    s.status = "expired";
    s.url = null;
    e.emit("checkout.session.expired", s, undefined, q.info);
    e.changed();
    return show(e, s, q);
  });
}
