// The hosted pages a person clicks through: checkout, the billing portal, invoices (HTML and a
// tiny PDF). Plain HTML forms, no script. Links are absolute on the public base URL.

import { completeSession } from "./checkout";
import { AUTOMATIC, type Engine } from "./engine";
import { FakeStripeError } from "./errors";
import type { FormObject } from "./form";
import { formatMoney } from "./shapes";
import type { CheckoutSession, Invoice, Subscription } from "./types";

export interface PageResult {
  status: number;
  headers: Record<string, string>;
  body: string | Buffer;
}

const esc = (s: unknown): string =>
  String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] as string);

const day = (t: number): string => new Date(t * 1000).toISOString().slice(0, 10);

function html(status: number, title: string, body: string): PageResult {
  const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title>
<meta name="viewport" content="width=device-width,initial-scale=1">
<style>
body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;color:#1a1f36}
.banner{background:#ffde92;border-radius:4px;padding:.3rem .6rem;font-size:.85rem;display:inline-block}
.card{border:1px solid #e3e8ee;border-radius:8px;padding:1rem 1.25rem;margin:1rem 0}
button,.btn{font:inherit;padding:.5rem 1rem;border-radius:6px;border:1px solid #635bff;background:#635bff;color:#fff;cursor:pointer;text-decoration:none;display:inline-block;margin:.25rem .25rem .25rem 0}
button.secondary,.btn.secondary{background:#fff;color:#635bff}
.error{color:#df1b41;font-weight:600}
table{border-collapse:collapse;width:100%}td,th{text-align:left;padding:.3rem;border-bottom:1px solid #e3e8ee}
.muted{color:#697386;font-size:.9rem}
</style></head><body><span class="banner">Fake Stripe · test mode · no real money</span>${body}</body></html>`;
  return { status, headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" }, body: page };
}

export function redirect(location: string): PageResult {
  return { status: 303, headers: { location }, body: "" };
}

export function notFound(what: string): PageResult {
  return html(404, "Not found", `<h1>Not found</h1><p>${esc(what)}</p>`);
}

function per(interval: string): string {
  return interval === "year" ? "per year" : "per month";
}

// ---- checkout ------------------------------------------------------------------------------

function checkoutBody(e: Engine, s: CheckoutSession, message: string): string {
  const base = e.opts.baseUrl();
  const lines = e.d.sessionLines[s.id] ?? [];
  const first = lines[0];
  const title = first ? `Subscribe to ${e.productName(first.price)}` : "Subscribe";
  const rows = lines
    .map((l) => `<tr><td>${esc(e.productName(l.price))} × ${l.quantity}</td><td>${esc(formatMoney(l.amount_total, l.price.currency))} ${per(l.price.recurring.interval)}</td></tr>`)
    .join("");
  const email = s.customer ? e.d.customers[s.customer]?.email : s.customer_email;
  const emailField = s.customer || s.customer_email
    ? `<p class="muted">Paying as ${esc(email ?? s.customer)}</p>`
    : `<p><label>Email <input type="email" name="email" value="newcomer@example.com"></label></p>`;
  if (s.status !== "open") {
    return `<h1>${esc(title)}</h1><p>This checkout session is ${esc(s.status)}.</p>`;
  }
  return `<h1>${esc(title)}</h1>
<div class="card"><table>${rows}</table>
<p><strong>Total due today: ${esc(formatMoney(s.amount_total, s.currency))}</strong></p></div>
${message ? `<p class="error">${esc(message)}</p>` : ""}
<form method="post" action="${esc(`${base}/checkout/${s.id}/pay`)}">
${emailField}
<p>Card <code>4242 4242 4242 4242</code> · 12/${new Date(e.now() * 1000).getUTCFullYear() + 3} · CVC 123</p>
<button type="submit" name="card" value="4242424242424242">Pay ${esc(formatMoney(s.amount_total, s.currency))}</button>
<button type="submit" name="card" value="4000000000000002" class="secondary">Pay with a declined card</button>
</form>
<form method="post" action="${esc(`${base}/checkout/${s.id}/cancel`)}"><button type="submit" class="secondary">Cancel</button></form>
<p class="muted">Session ${esc(s.id)}</p>`;
}

export function checkoutPage(e: Engine, id: string): PageResult {
  const s = e.d.sessions[id];
  if (!s) return notFound(`No such checkout session: ${id}`);
  return html(200, "Checkout", checkoutBody(e, s, ""));
}

export function checkoutPay(e: Engine, id: string, form: FormObject): PageResult {
  const s = e.d.sessions[id];
  if (!s) return notFound(`No such checkout session: ${id}`);
  const card = typeof form.card === "string" ? form.card.replace(/\s/g, "") : "4242424242424242";
  const decline = form.decline === "1" || form.decline === "true" || card === "4000000000000002";
  const email = typeof form.email === "string" && form.email ? form.email : null;
  if (email && !s.customer && !s.customer_email) s.customer_email = email;
  const r = completeSession(e, id, { decline });
  if (r.status === "declined") return html(402, "Checkout", checkoutBody(e, s, "Your card was declined."));
  if (r.status === "expired") return html(410, "Checkout", checkoutBody(e, s, ""));
  return r.redirect ? redirect(r.redirect) : html(200, "Paid", "<h1>Thanks, paid.</h1>");
}

export function checkoutCancel(e: Engine, id: string): PageResult {
  const s = e.d.sessions[id];
  if (!s) return notFound(`No such checkout session: ${id}`);
  return s.cancel_url ? redirect(s.cancel_url) : html(200, "Canceled", "<h1>Checkout canceled</h1>");
}

// ---- portal --------------------------------------------------------------------------------

function subscriptionCard(e: Engine, portal: string, sub: Subscription): string {
  const base = e.opts.baseUrl();
  const item = sub.items.data[0];
  const price = item?.price;
  const name = price ? e.productName(price) : "?";
  const { end } = e.period(sub);
  const action = (what: string, label: string, extra = "", cls = "") =>
    `<form method="post" action="${esc(`${base}/portal/${portal}/subscriptions/${sub.id}/${what}`)}" style="display:inline">${extra}<button type="submit" class="${cls}">${esc(label)}</button></form>`;
  let actions = "";
  if (sub.status !== "canceled" && !sub.schedule) {
    actions += sub.cancel_at_period_end ? action("renew", "Don't cancel") : action("cancel", "Cancel at period end", "", "secondary");
    const others = Object.values(e.d.prices).filter((p) => p.active && price && p.id !== price.id && p.currency === price.currency);
    for (const p of others) {
      actions += action("switch", `Switch to ${e.productName(p)} (${formatMoney(p.unit_amount, p.currency)} ${per(p.recurring.interval)})`, `<input type="hidden" name="price" value="${esc(p.id)}">`, "secondary");
    }
  } else if (sub.schedule) {
    actions = `<p class="muted">A scheduled change is pending (${esc(sub.schedule)}).</p>`;
  }
  const status = sub.cancel_at_period_end && sub.status !== "canceled" ? `${sub.status}, ends ${day(end)}` : sub.status;
  return `<div class="card"><h2>${esc(name)} · ${price ? esc(formatMoney(price.unit_amount * (item?.quantity ?? 1), price.currency)) : ""} ${price ? per(price.recurring.interval) : ""}</h2>
<p>Status: <strong>${esc(status)}</strong>${sub.status !== "canceled" ? ` · current period until ${day(end)}` : ""}</p>${actions}</div>`;
}

export function portalPage(e: Engine, id: string): PageResult {
  const ps = e.d.portalSessions[id];
  if (!ps) return notFound(`No such portal session: ${id}`);
  const customer = e.d.customers[ps.customer];
  const subs = Object.values(e.d.subscriptions).filter((s) => s.customer === ps.customer).reverse();
  const invoices = Object.values(e.d.invoices).filter((i) => i.customer === ps.customer).reverse();
  const back = ps.return_url ? `<p><a class="btn secondary" href="${esc(ps.return_url)}">← Return to the app</a></p>` : "";
  const invoiceRows = invoices
    .map((i) => `<tr><td><a href="${esc(i.hosted_invoice_url)}">${esc(i.number)}</a></td><td>${day(i.created)}</td><td>${esc(formatMoney(i.total, i.currency))}</td><td>${esc(i.status)}</td></tr>`)
    .join("");
  return html(
    200,
    "Billing portal",
    `<h1>Billing</h1><p class="muted">${esc(customer?.email ?? ps.customer)}</p>${back}
${subs.map((s) => subscriptionCard(e, id, s)).join("") || "<p>No subscriptions.</p>"}
<h2>Invoices</h2>${invoiceRows ? `<table>${invoiceRows}</table>` : "<p>None yet.</p>"}${back}`,
  );
}

export function portalAction(e: Engine, id: string, subId: string, action: string, form: FormObject): PageResult {
  const ps = e.d.portalSessions[id];
  const sub = e.d.subscriptions[subId];
  if (!ps || !sub || sub.customer !== ps.customer) return notFound("No such portal session or subscription");
  const back = redirect(`${e.opts.baseUrl()}/portal/${id}`);
  if (sub.status === "canceled" || sub.schedule) return back;
  const before = structuredClone(sub);
  if (action === "cancel" || action === "renew") {
    const on = action === "cancel";
    sub.cancel_at_period_end = on;
    sub.cancel_at = on ? e.period(sub).end : null;
    sub.canceled_at = on ? e.now() : null;
    sub.cancellation_details = { ...sub.cancellation_details, reason: on ? "cancellation_requested" : null };
    e.emitUpdated(before, sub, AUTOMATIC);
    return back;
  }
  if (action === "switch" && typeof form.price === "string" && sub.items.data[0]) {
    try {
      const r = e.applyItemChanges(sub, [{ id: sub.items.data[0].id, price: form.price }], "create_prorations", e.now());
      e.emitUpdated(before, sub, AUTOMATIC);
      if (r.invoice) e.emit(r.paid ? "invoice.paid" : "invoice.payment_failed", r.invoice);
    } catch (err) {
      if (err instanceof FakeStripeError) return html(400, "Portal", `<p class="error">${esc(err.message)}</p>`);
      throw err;
    }
  }
  return back;
}

// ---- invoices ------------------------------------------------------------------------------

export function invoicePage(e: Engine, id: string, message = ""): PageResult {
  const inv = e.d.invoices[id];
  if (!inv) return notFound(`No such invoice: ${id}`);
  const rows = inv.lines.data
    .map((l) => `<tr><td>${esc(l.description)}<br><span class="muted">${day(l.period.start)} – ${day(l.period.end)}</span></td><td>${esc(formatMoney(l.amount, l.currency))}</td></tr>`)
    .join("");
  const pay =
    inv.status === "open"
      ? `<form method="post" action="${esc(`${e.opts.baseUrl()}/invoices/${inv.id}/pay`)}"><button type="submit">Pay ${esc(formatMoney(inv.amount_remaining, inv.currency))} with card 4242</button></form>`
      : "";
  return html(
    200,
    `Invoice ${inv.number}`,
    `<h1>Invoice ${esc(inv.number)}</h1><p>Status: <strong>${esc(inv.status)}</strong> · issued ${day(inv.created)}</p>
${message ? `<p class="error">${esc(message)}</p>` : ""}
<div class="card"><table>${rows}</table>
<p>Total ${esc(formatMoney(inv.total, inv.currency))} · paid ${esc(formatMoney(inv.amount_paid, inv.currency))} · due ${esc(formatMoney(inv.amount_remaining, inv.currency))}</p></div>
${pay}<p><a href="${esc(inv.invoice_pdf)}">Download PDF</a></p>`,
  );
}

/** The hosted invoice page's "Pay": a new working card, whatever the customer's failing flag. */
export function invoicePay(e: Engine, id: string): PageResult {
  const inv = e.d.invoices[id];
  if (!inv) return notFound(`No such invoice: ${id}`);
  if (inv.status === "open") e.payInvoice(inv, { ignoreFailing: true }, AUTOMATIC);
  return redirect(`${e.opts.baseUrl()}/invoices/${inv.id}`);
}

function pdfText(s: string): string {
  return s
    .replace(/€/g, "EUR ")
    .replace(/×/g, "x")
    .replace(/[^\x20-\x7e]/g, "?")
    .replace(/[\\()]/g, (c) => `\\${c}`);
}

export function invoicePdf(e: Engine, id: string): PageResult {
  const inv: Invoice | undefined = e.d.invoices[id];
  if (!inv) return notFound(`No such invoice: ${id}`);
  const text = [
    `Invoice ${inv.number ?? inv.id}  (fake Stripe, test mode)`,
    `Issued ${day(inv.created)}  Status ${inv.status}`,
    `Customer ${inv.customer_email ?? inv.customer}`,
    "",
    ...inv.lines.data.map((l) => `${l.description ?? ""}   ${formatMoney(l.amount, l.currency)}`),
    "",
    `Total ${formatMoney(inv.total, inv.currency)}   Paid ${formatMoney(inv.amount_paid, inv.currency)}`,
  ];
  const stream = `BT /F1 12 Tf 50 790 Td 16 TL ${text.map((t) => `(${pdfText(t)}) '`).join(" ")} ET`;
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${Buffer.byteLength(stream, "latin1")} >>\nstream\n${stream}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(Buffer.byteLength(out, "latin1"));
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, "latin1");
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return {
    status: 200,
    headers: { "content-type": "application/pdf", "content-disposition": `inline; filename="${inv.number ?? inv.id}.pdf"` },
    body: Buffer.from(out, "latin1"),
  };
}

export function indexPage(e: Engine): PageResult {
  const counts = `${Object.keys(e.d.customers).length} customers, ${Object.keys(e.d.subscriptions).length} subscriptions, ${Object.keys(e.d.events).length} events`;
  return html(
    200,
    "Fake Stripe",
    `<h1>Fake Stripe</h1><p>A local stand-in for the parts of Stripe's API the app uses. ${esc(counts)}.</p>
<p>Clock: ${esc(new Date(e.now() * 1000).toISOString())}</p>
<p>Control API: <a href="${esc(e.opts.baseUrl())}/_control">/_control</a> · see docs/stripe-fake.md</p>`,
  );
}
