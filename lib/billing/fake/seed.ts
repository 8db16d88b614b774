// The catalogue every fake starts with: three plans, each monthly and yearly (yearly = 10 × monthly),
// in EUR, found by lookup_key `<plan>_<interval>` (developer_month, growth_year, …).

import { newId } from "./ids";
import { makePrice, makeProduct } from "./shapes";
import type { Interval, Price, Product } from "./types";

export const PLANS = [
  { plan: "developer", name: "Developer", monthly: 29 },
  { plan: "growth", name: "Growth", monthly: 99 },
  { plan: "professional", name: "Professional", monthly: 249 },
] as const;

export function seedCatalog(now: number): { products: Record<string, Product>; prices: Record<string, Price> } {
  const products: Record<string, Product> = {};
  const prices: Record<string, Price> = {};
  for (const p of PLANS) {
    const product = makeProduct({ id: newId("prod", 14), name: p.name, created: now, metadata: { plan: p.plan } });
    products[product.id] = product;
    for (const interval of ["month", "year"] as Interval[]) {
      const price = makePrice({
        id: newId("price"),
        product: product.id,
        unitAmount: (interval === "year" ? 10 : 1) * p.monthly * 100,
        currency: "eur",
        interval,
        lookupKey: `${p.plan}_${interval}`,
        created: now,
        metadata: { plan: p.plan },
      });
      prices[price.id] = price;
    }
    product.default_price = Object.values(prices).find((x) => x.product === product.id)?.id ?? null;
  }
  return { products, prices };
}
