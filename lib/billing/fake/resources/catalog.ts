// Prices and products (the seeded catalogue; read-only).

import { missing } from "../errors";
import { newestFirst, paginate, render, type Router } from "../http";
import { allowOnly, bool, str, strs } from "../params";

export function catalogRoutes(r: Router): void {
  r.on("GET", "/v1/prices", (e, q) => {
    const p = q.params;
    allowOnly(p, ["active", "currency", "lookup_keys", "product", "type", "limit", "starting_after", "ending_before", "recurring"]);
    const active = bool(p, "active");
    const currency = str(p, "currency");
    const product = str(p, "product");
    const keys = strs(p, "lookup_keys");
    const items = newestFirst(e.d.prices).filter(
      (x) =>
        (active === undefined || x.active === active) &&
        (!currency || x.currency === currency) &&
        (!product || x.product === product) &&
        (keys.length === 0 || (x.lookup_key !== null && keys.includes(x.lookup_key))),
    );
    return render(paginate(items, p, "/v1/prices"), q, e.store);
  });

  r.on("GET", "/v1/prices/:id", (e, q) => {
    allowOnly(q.params, []);
    const price = e.d.prices[q.args.id as string];
    if (!price) throw missing("price", q.args.id as string);
    return render(price, q, e.store);
  });

  r.on("GET", "/v1/products", (e, q) => {
    const p = q.params;
    allowOnly(p, ["active", "ids", "limit", "starting_after", "ending_before"]);
    const active = bool(p, "active");
    const ids = strs(p, "ids");
    const items = newestFirst(e.d.products).filter(
      (x) => (active === undefined || x.active === active) && (ids.length === 0 || ids.includes(x.id)),
    );
    return render(paginate(items, p, "/v1/products"), q, e.store);
  });

  r.on("GET", "/v1/products/:id", (e, q) => {
    allowOnly(q.params, []);
    const product = e.d.products[q.args.id as string];
    if (!product) throw missing("prod", q.args.id as string);
    return render(product, q, e.store);
  });
}
