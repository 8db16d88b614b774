import { ApiError } from "@/lib/api/errors";
import { findSet } from "@/lib/catalog/sets";
import type { MoveWindow } from "./moves";
import { selectMovers, type MoverRow } from "./queries/moves";
import { sourceOf } from "./sources";

// GET /v1/prices/movers: the products whose composite index rose and fell most over a window.
// A floor on the price keeps cheap cards' noise (0.10 to 0.30 EUR is +200 %) out of the ranking.

/** A row's label when its index series has none of its own to say (never on an imported index). */
const INDEX_LABEL = sourceOf("INDEX")!.label;

export type MoversInput = { window: MoveWindow; product: "card" | "sealed"; limit: number; min_eur: number; region?: string; set?: string };

const present = (r: MoverRow) => ({
  id: r.product_id, name: r.name, number: r.number, rarity: r.rarity,
  set: r.set_id ? { id: r.set_id, name: r.set_name } : null, print_region: r.print_region,
  from: { date: r.from_date, eur: r.from_eur }, to: { date: r.to_date, eur: r.to_eur },
  change_eur: Math.round((r.to_eur - r.from_eur) * 100) / 100, change_pct: r.change_pct,
  provenance: r.provenance ?? INDEX_LABEL,
});

export async function listMovers(q: MoversInput) {
  let setId: string | undefined;
  if (q.set) {
    const set = await findSet(q.set);
    if (!set) throw new ApiError("SET_NOT_FOUND", `No set with code, slug or alternate id '${q.set}'.`, { code: q.set });
    setId = set.id;
  }
  const base = { window: q.window, kind: q.product, limit: q.limit, minEur: q.min_eur, region: q.region, setId };
  const [rose, fell] = await Promise.all([selectMovers({ ...base, up: true }), selectMovers({ ...base, up: false })]);
  return {
    body: {
      data: { rose: rose.map(present), fell: fell.map(present) },
      meta: { window: q.window, product: q.product, min_eur: q.min_eur, currency: "EUR", source: "INDEX" },
    },
  };
}
