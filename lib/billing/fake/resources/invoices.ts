// Invoices: list, retrieve, lines, pay, create_preview.

import { cardDeclined, invalid } from "../errors";
import { newestFirst, paginate, render, type Router } from "../http";
import { allowOnly, bool, int, obj, str } from "../params";
import { previewInvoice } from "../preview";
import { itemChanges, prorationBehavior } from "./subscriptions";

export function invoiceRoutes(r: Router): void {
  r.on("GET", "/v1/invoices", (e, q) => {
    const p = q.params;
    allowOnly(p, ["customer", "subscription", "status", "limit", "starting_after", "ending_before", "created", "collection_method"]);
    const customer = str(p, "customer");
    const subscription = str(p, "subscription");
    const status = str(p, "status");
    const items = newestFirst(e.d.invoices).filter(
      (i) =>
        (!customer || i.customer === customer) &&
        (!subscription || i.parent.subscription_details.subscription === subscription) &&
        (!status || i.status === status),
    );
    return render(paginate(items, p, "/v1/invoices"), q, e.store);
  });

  r.on("POST", "/v1/invoices/create_preview", (e, q) => {
    const p = q.params;
    allowOnly(p, ["customer", "subscription", "subscription_details", "automatic_tax", "preview_mode", "currency"]);
    const subscriptionId = str(p, "subscription");
    if (!subscriptionId) {
      throw invalid("The fake previews only the invoices of an existing subscription: pass `subscription`.", "subscription");
    }
    const sub = e.subscription(subscriptionId, "subscription");
    const customer = str(p, "customer");
    if (customer && customer !== sub.customer) {
      throw invalid(`The subscription ${sub.id} does not belong to customer ${customer}.`, "customer");
    }
    const details = obj(p, "subscription_details") ?? {};
    allowOnly(details, ["items", "proration_behavior", "proration_date", "cancel_at_period_end", "billing_cycle_anchor", "cancel_at"]);
    const inv = previewInvoice(e, {
      subscription: sub,
      items: itemChanges(details, "items", "subscription_details[items]"),
      prorationBehavior: prorationBehavior(details, "proration_behavior", "subscription_details[proration_behavior]"),
      prorationDate: int(details, "proration_date", "subscription_details[proration_date]"),
      cancelAtPeriodEnd: bool(details, "cancel_at_period_end", "subscription_details[cancel_at_period_end]"),
    });
    return render(inv, q, e.store);
  });

  r.on("GET", "/v1/invoices/:id", (e, q) => {
    allowOnly(q.params, []);
    return render(e.invoice(q.args.id as string), q, e.store);
  });

  r.on("GET", "/v1/invoices/:id/lines", (e, q) => {
    allowOnly(q.params, ["limit", "starting_after", "ending_before"]);
    const inv = e.invoice(q.args.id as string);
    return render(paginate(inv.lines.data, q.params, `/v1/invoices/${inv.id}/lines`), q, e.store);
  });

  r.on("POST", "/v1/invoices/:id/pay", (e, q) => {
    const p = q.params;
    allowOnly(p, ["payment_method", "paid_out_of_band", "off_session", "forgive", "source"]);
    const inv = e.invoice(q.args.id as string);
    const pm = str(p, "payment_method");
    if (pm) {
      const method = e.paymentMethod(pm, "payment_method");
      if (method.customer !== inv.customer) throw invalid(`The payment method \`${pm}\` does not belong to the invoice's customer.`, "payment_method");
    }
    const ok = e.payInvoice(inv, { paymentMethod: pm || undefined, outOfBand: bool(p, "paid_out_of_band") }, q.info);
    if (!ok) {
      throw cardDeclined({
        payment_method: { id: pm || e.defaultMethod(inv), object: "payment_method", type: "card" },
      });
    }
    return render(inv, q, e.store);
  });
}
