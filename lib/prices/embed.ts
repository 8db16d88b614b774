import type { Account } from "@/lib/accounts/types";
import { seriesOfProducts, type SeriesRead } from "./queries/read";
import { planNotes, productPrices, withholdsRows, type HeldBack, type ProductPrices } from "./quotes";

/** Quotes and index of many products at once (include=prices), as the plan may see them. */
export async function pricesOf(kind: "card" | "sealed", items: { id: string; region: string | null }[], account: Account) {
  const series = await seriesOfProducts(kind, items.map((r) => r.id));
  const by = new Map<string, SeriesRead[]>();
  for (const s of series) {
    const list = by.get(s.product_id);
    if (list) list.push(s);
    else by.set(s.product_id, [s]);
  }
  let withheld = 0;
  const held = new Set<HeldBack>();
  const prices = new Map<string, ProductPrices>();
  for (const r of items) {
    const p = productPrices(by.get(r.id) ?? [], account, {}, r.region);
    withheld += p.withheld;
    for (const h of p.held) held.add(h);
    prices.set(r.id, p);
  }
  // What was held back of these products for this plan, as meta.withheld names it: nothing
  // when the plan saw every row (SPEC.md set cards rule 2).
  return { prices, notes: planNotes(account, withheld), withheld: [...held].sort() };
}

/**
 * Whether products answered with these includes need the plan's prices read: include=prices,
 * and include=index on a plan that withholds rows (the trial), for planIndexFields.
 */
export function needsPlanPrices(include: ReadonlySet<string>, account: Account | undefined): account is Account {
  return !!account && (include.has("prices") || (include.has("index") && withholdsRows(account)));
}

/**
 * A plan that withholds rows (the trial) is answered the index its own rows make, in a product's
 * index fields as in prices.index (SPEC.md set cards rule 2), not the catalogue's, which may
 * stand on Japanese or graded figures the plan does not see. Paid plans see every row: unchanged.
 */
export function planIndexFields(target: Record<string, unknown>, account: Account, index: { eur: number; as_of: string } | null | undefined): void {
  if (!withholdsRows(account)) return;
  if (index) {
    target.index_eur = index.eur;
    // The newest of the trial's own entries, as trial lists sort by it (refresh-index).
    if ("last_price_at" in target) target.last_price_at = `${index.as_of}T00:00:00.000Z`;
    return;
  }
  for (const f of ["index_eur", "last_price_at", "change_7d_pct", "change_30d_pct"]) if (f in target) target[f] = null;
}
