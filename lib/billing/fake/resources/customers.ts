// Customers (create, retrieve, update, list by email, search) and their payment methods.

import type { Engine } from "../engine";
import { invalid } from "../errors";
import { newestFirst, paginate, render, type Router } from "../http";
import { allowOnly, applyMetadata, obj, str, type Params } from "../params";
import { makeCustomer } from "../shapes";
import type { Customer } from "../types";

const WRITABLE = ["email", "name", "metadata", "description", "phone", "invoice_settings", "preferred_locales", "address"];

function write(e: Engine, c: Customer, p: Params): void {
  const email = str(p, "email");
  if (email !== undefined) c.email = email || null;
  const name = str(p, "name");
  if (name !== undefined) c.name = name || null;
  const description = str(p, "description");
  if (description !== undefined) c.description = description || null;
  const phone = str(p, "phone");
  if (phone !== undefined) c.phone = phone || null;
  applyMetadata(c.metadata, p);
  const settings = obj(p, "invoice_settings");
  if (settings) {
    const pm = str(settings, "default_payment_method", "invoice_settings[default_payment_method]");
    if (pm !== undefined) {
      if (pm) {
        const method = e.paymentMethod(pm, "invoice_settings[default_payment_method]");
        if (method.customer !== c.id) {
          throw invalid(`The payment method \`${pm}\` must be attached to customer \`${c.id}\` first.`, "invoice_settings[default_payment_method]");
        }
      }
      c.invoice_settings.default_payment_method = pm || null;
    }
  }
}

/** Stripe's search syntax, the parts apps use: `email:'a@b.c'`, `metadata['key']:'value'`, joined by AND. */
function matches(c: Customer, query: string): boolean {
  const clauses = query.split(/\s+AND\s+/i).map((s) => s.trim()).filter(Boolean);
  return clauses.every((clause) => {
    const m = /^(email|name|metadata\[['"]([^'"]+)['"]\])\s*:\s*['"](.*)['"]$/.exec(clause);
    if (!m) throw invalid(`The fake supports only email:'…', name:'…' and metadata['key']:'…' clauses, not: ${clause}`, "query");
    const value = m[3] ?? "";
    if (m[1] === "email") return c.email === value;
    if (m[1] === "name") return c.name === value;
    return c.metadata[m[2] ?? ""] === value;
  });
}

export function customerRoutes(r: Router): void {
  r.on("POST", "/v1/customers", (e, q) => {
    allowOnly(q.params, WRITABLE);
    const c = makeCustomer({ created: e.now(), email: null, name: null, metadata: {} });
    write(e, c, q.params);
    e.d.customers[c.id] = c;
    e.changed();
    return render(c, q, e.store);
  });

  r.on("GET", "/v1/customers", (e, q) => {
    const p = q.params;
    allowOnly(p, ["email", "limit", "starting_after", "ending_before", "created"]);
    const email = str(p, "email");
    const items = newestFirst(e.d.customers).filter((c) => email === undefined || c.email === email);
    return render(paginate(items, p, "/v1/customers"), q, e.store);
  });

  r.on("GET", "/v1/customers/search", (e, q) => {
    const p = q.params;
    allowOnly(p, ["query", "limit", "page"]);
    const query = str(p, "query") ?? "";
    const data = newestFirst(e.d.customers).filter((c) => matches(c, query));
    const limit = Number(str(p, "limit") ?? 10);
    return render(
      { object: "search_result", data: data.slice(0, limit), has_more: data.length > limit, next_page: null, url: "/v1/customers/search" },
      q,
      e.store,
    );
  });

  r.on("GET", "/v1/customers/:id", (e, q) => {
    allowOnly(q.params, []);
    return render(e.customer(q.args.id as string), q, e.store);
  });

  r.on("POST", "/v1/customers/:id", (e, q) => {
    allowOnly(q.params, WRITABLE);
    const c = e.customer(q.args.id as string);
    write(e, c, q.params);
    e.changed();
    return render(c, q, e.store);
  });

  r.on("GET", "/v1/customers/:id/payment_methods", (e, q) => {
    allowOnly(q.params, ["type", "limit", "starting_after", "ending_before", "allow_redisplay"]);
    const c = e.customer(q.args.id as string);
    const items = newestFirst(e.d.paymentMethods).filter((m) => m.customer === c.id);
    return render(paginate(items, q.params, `/v1/customers/${c.id}/payment_methods`), q, e.store);
  });

  r.on("GET", "/v1/payment_methods", (e, q) => {
    allowOnly(q.params, ["customer", "type", "limit", "starting_after", "ending_before"]);
    const customer = str(q.params, "customer");
    const items = newestFirst(e.d.paymentMethods).filter((m) => !customer || m.customer === customer);
    return render(paginate(items, q.params, "/v1/payment_methods"), q, e.store);
  });

  r.on("GET", "/v1/payment_methods/:id", (e, q) => {
    allowOnly(q.params, []);
    return render(e.paymentMethod(q.args.id as string), q, e.store);
  });
}
