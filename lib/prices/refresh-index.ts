import { getDb } from "@/lib/db/client";
import { recordFailure, recordSuccess } from "@/lib/catalog/queries/jobs";
import { bumpCatalogVersion } from "@/lib/catalog/queries/sync";
import type { Progress } from "@/lib/jobs/progress";
import { compositeIndex, primaryLocaleOf, type CompositeIndex } from "./composite";
import { loadFx } from "./fx";
import { currentFigures, indexHeadlines, recordPriceChanges, setProductIndex } from "./queries/index-job";
import { rebuildDocs } from "./docs";
import { vacuumAnalyze } from "@/lib/db/maintenance";
import { applyObservations, type Resolved } from "./store";
import { movesOf, monthsNeeded } from "./moves";
import { unpack } from "./pack";
import { headlineSeries, monthRows, replaceMoves } from "./queries/moves";

// refresh-index: the composite INDEX of every card and sealed product from the newest figure
// of each third-party series, written as INDEX series (one per locale and printing, plus the
// headline with neither) so that history, stats and movers read it like any source.

export type RefreshIndexResult = { products: number; indexed: number; changed: number; missing_rates: number; moves: number; seconds: number };

/** Every headline index's move over each window, for the movers ranking. */
export async function computeMoves(): Promise<number> {
  const heads = await headlineSeries();
  const months = new Set<number>();
  for (const to of new Set(heads.map((h) => h.last_as_of))) for (const m of monthsNeeded(to)) months.add(m);
  const points = new Map<number, [string, number][]>();
  for (const r of await monthRows(heads.map((h) => h.id), [...months])) {
    const list = points.get(r.series_id) ?? [];
    list.push(...unpack(r.month, Buffer.from(r.hex, "hex")));
    points.set(r.series_id, list);
  }
  const moves = heads.flatMap((h) => movesOf(points.get(h.id) ?? []).map((m) => ({ ...m, product_kind: h.product_kind, product_id: h.product_id })));
  await replaceMoves(moves);
  return moves.length;
}

const PROVENANCE = "Composite index";

export function indexObservations(kind: string, id: string, index: CompositeIndex, demo: boolean): Resolved[] {
  const provenance = demo ? `${PROVENANCE} (over demo data)` : PROVENANCE;
  const base = {
    source: "INDEX", product: `${kind}:${id}`, productKind: kind, productId: id, variant: "INDEX", basis: "DERIVED", currency: "EUR",
    condition: null, grading: null, provenance,
  } as const;
  // An entry that names neither locale nor printing is the headline itself.
  const out = index.by_locale.filter((e) => e.locale !== null || e.printing !== null).map((e) => ({ ...base, locale: e.locale, printing: e.printing, amount: e.eur, as_of: e.as_of, sample_n: e.sample_n }));
  out.push({ ...base, locale: null, printing: null, amount: index.eur, as_of: index.as_of, sample_n: index.sample_n });
  return out as unknown as Resolved[];
}

export async function refreshIndex(p: Progress): Promise<RefreshIndexResult> {
  const started = Date.now();
  const db = await getDb();
  try {
    const fx = await loadFx();
    p.phase("reading current figures");
    const figures = await currentFigures();
    const before = await indexHeadlines();
    p.phase("computing");
    const obs: Resolved[] = [];
    const headlines: { kind: string; id: string; eur: number | null; as_of: string | null }[] = [];
    let missing = 0;
    let products = 0;
    for (const [ref, f] of figures) {
      products++;
      const { index, missingRates } = compositeIndex(f.rows, fx, primaryLocaleOf(f.printRegion));
      missing += missingRates;
      p.tick();
      if (!index) continue;
      obs.push(...indexObservations(f.kind, f.id, index, f.demo));
      const old = before.get(ref);
      if (!old || old.eur !== index.eur || old.as_of !== index.as_of) headlines.push({ kind: f.kind, id: f.id, eur: index.eur, as_of: index.as_of });
    }
    p.phase("writing INDEX series");
    for (let i = 0; i < obs.length; i += 50_000) {
      await applyObservations(obs.slice(i, i + 50_000));
      p.tick(Math.min(50_000, obs.length - i));
    }
    p.phase("price documents");
    await rebuildDocs();
    await setProductIndex(headlines);
    await recordPriceChanges(headlines);
    p.phase("moves");
    const moves = await computeMoves();
    p.phase("vacuum");
    await vacuumAnalyze(["cards", "sealed_products", "price_series", "price_months", "price_docs", "index_moves"]);
    const result = {
      products, indexed: obs.filter((o) => o.locale === null).length, changed: headlines.length, missing_rates: missing, moves,
      seconds: (Date.now() - started) / 1000,
    };
    await recordSuccess(db, "refresh-index", result);
    if (headlines.length) await bumpCatalogVersion(db);
    return result;
  } catch (err) {
    await recordFailure(db, "refresh-index", (err as Error).message, false);
    throw err;
  }
}
