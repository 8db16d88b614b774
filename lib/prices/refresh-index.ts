import { getDb } from "@/lib/db/client";
import { recordFailure, recordSuccess } from "@/lib/catalog/queries/jobs";
import { bumpCatalogVersion } from "@/lib/catalog/queries/sync";
import type { Progress } from "@/lib/jobs/progress";
import { trackJob } from "@/lib/jobs/running";
import { SLICE_MS, slicer } from "@/lib/jobs/pace";
import { checkpointWhenDue, maintainPaced, vacuumAnalyze } from "@/lib/db/maintenance";
import { compositeIndex, primaryLocaleOf, trialIndex, type CompositeIndex } from "./composite";
import { loadFx } from "./fx";
import { currentFigures, indexHeadlines, productsWithSeries, recordPriceChanges, setProductIndex, trialIndexes, type ProductIndex, type ProductRef } from "./queries/index-job";
import { rebuildDocs } from "./docs";
import { applyObservations, type Resolved } from "./store";
import { movesOf, monthsNeeded } from "./moves";
import { unpack } from "./pack";
import { headlineSeries, monthRows, replaceMoves, setCardChanges, type Headline as HeadlineSeries } from "./queries/moves";

// refresh-index: the composite INDEX of every card and sealed product from the newest figure
// of each third-party series, written as INDEX series (one per locale and printing, plus the
// headline with neither) so that history, stats and movers read it like any source.

export type RefreshIndexResult = { products: number; indexed: number; changed: number; missing_rates: number; moves: number; seconds: number };

/**
 * `paced` (the embedded first start, beside a server on the same thread): the products in
 * batches of PACED_PRODUCTS, each read, computed and written by itself (its moves too) in
 * statements of a fraction of a second, the CPU work yielding every SLICE_MS; no transaction
 * longer than a batch's statement; a checkpoint when due (lib/db/maintenance.ts); ANALYZE
 * instead of VACUUM. The data written is the same as unpaced. `share` hears the share done.
 */
export type RefreshIndexOptions = { paced?: boolean; share?: (done: number) => void; /** Products a paced batch (PACED_PRODUCTS). */ batch?: number };

/** Products a paced batch reads, computes and writes. */
export const PACED_PRODUCTS = 150;
const PRODUCT_PAGE = 2_000;

type ProductMove = ReturnType<typeof movesOf>[number] & { product_kind: string; product_id: string };

/** Headline series' moves over each window, from their month rows. */
function headlineMoves(heads: HeadlineSeries[], months: { series_id: number; month: number; hex: string }[]): ProductMove[] {
  const points = new Map<number, [string, number][]>();
  for (const r of months) {
    const list = points.get(r.series_id) ?? [];
    list.push(...unpack(r.month, Buffer.from(r.hex, "hex")));
    points.set(r.series_id, list);
  }
  return heads.flatMap((h) => movesOf(points.get(h.id) ?? []).map((m) => ({ ...m, product_kind: h.product_kind, product_id: h.product_id })));
}

function monthsOf(heads: { last_as_of: string }[]): number[] {
  const months = new Set<number>();
  for (const to of new Set(heads.map((h) => h.last_as_of))) for (const m of monthsNeeded(to)) months.add(m);
  return [...months];
}

/** Every headline index's move over each window, for the movers ranking. */
export async function computeMoves(): Promise<number> {
  const heads = await headlineSeries();
  const moves = headlineMoves(heads, await monthRows(heads.map((h) => h.id), monthsOf(heads)));
  await replaceMoves(moves);
  await setCardChanges();
  return moves.length;
}

const PROVENANCE = "Composite index";

export function indexObservations(kind: string, id: string, index: CompositeIndex, demo: boolean): Resolved[] {
  const provenance = demo ? `${PROVENANCE} (demo data)` : PROVENANCE;
  const base = {
    source: "INDEX", product: `${kind}:${id}`, productKind: kind, productId: id, variant: "INDEX", basis: "DERIVED", currency: "EUR",
    condition: null, grading: null, provenance,
  } as const;
  // An entry that names neither locale nor printing is the headline itself.
  const out = index.by_locale.filter((e) => e.locale !== null || e.printing !== null).map((e) => ({ ...base, locale: e.locale, printing: e.printing, amount: e.eur, as_of: e.as_of, sample_n: e.sample_n }));
  out.push({ ...base, locale: null, printing: null, amount: index.eur, as_of: index.as_of, sample_n: index.sample_n });
  return out as unknown as Resolved[];
}

type Tally = { products: number; indexed: number; missing: number; changed: number };

/**
 * The index of `products` (every product when omitted) from their current figures: the INDEX
 * series written, the products' documents rebuilt, the list sort keys set and one PRICE change
 * for each product whose headline moved.
 */
async function indexProducts(products: ProductRef[] | undefined, fx: Awaited<ReturnType<typeof loadFx>>, p: Progress, t: Tally): Promise<void> {
  const paced = products !== undefined;
  const slice = slicer(paced ? SLICE_MS : Infinity);
  if (!paced) p.phase("reading current figures");
  const figures = await currentFigures(products);
  const before = await indexHeadlines(products);
  const trialBefore = await trialIndexes(products);
  if (!paced) p.phase("computing");
  const obs: Resolved[] = [];
  // Products whose list sort keys change, and among them those whose headline moved.
  const written: ProductIndex[] = [];
  const headlines: ProductIndex[] = [];
  for (const [ref, f] of figures) {
    await slice();
    t.products++;
    const { index, missingRates } = compositeIndex(f.rows, fx, primaryLocaleOf(f.printRegion));
    t.missing += missingRates;
    p.tick();
    if (!index) continue;
    obs.push(...indexObservations(f.kind, f.id, index, f.demo));
    const trial = trialIndex(index.by_locale);
    const row = { kind: f.kind, id: f.id, eur: index.eur, as_of: index.as_of, trial: trial && { eur: trial.eur, as_of: trial.as_of } };
    const old = before.get(ref);
    const moved = !old || old.eur !== index.eur || old.as_of !== index.as_of;
    const was = trialBefore.get(ref);
    if (moved || was?.eur !== row.trial?.eur || was?.as_of !== row.trial?.as_of) written.push(row);
    if (moved) headlines.push(row);
  }
  if (!paced) p.phase("writing INDEX series");
  const per = paced ? obs.length || 1 : 50_000;
  for (let i = 0; i < obs.length; i += per) {
    await applyObservations(obs.slice(i, i + per));
    p.tick(Math.min(per, obs.length - i));
  }
  if (!paced) p.phase("price documents");
  await rebuildDocs(products);
  await setProductIndex(written, undefined, paced ? { perStatement: 75 } : undefined);
  await recordPriceChanges(headlines, { paced });
  t.indexed += obs.filter((o) => o.locale === null).length;
  t.changed += headlines.length;
}

/** The moves of these products' headline index series, today's figure included. */
async function movesOfProducts(products: ProductRef[]): Promise<ProductMove[]> {
  const slice = slicer(SLICE_MS);
  const heads = await headlineSeries({ products });
  const moves: ProductMove[] = [];
  for (let i = 0; i < heads.length; i += 50) {
    const part = heads.slice(i, i + 50);
    moves.push(...headlineMoves(part, await monthRows(part.map((h) => h.id), monthsOf(part))));
    await slice();
  }
  return moves;
}

/** Paced: every product that has series, read in pages of the product index. */
async function allProducts(): Promise<ProductRef[]> {
  const all: ProductRef[] = [];
  for (let after: ProductRef | null = null; ;) {
    const page = await productsWithSeries(after, PRODUCT_PAGE);
    all.push(...page);
    if (page.length < PRODUCT_PAGE) return all;
    after = page.at(-1)!;
  }
}

export async function refreshIndex(p: Progress, opts: RefreshIndexOptions = {}): Promise<RefreshIndexResult> {
  // Listed on /v1/status (state running; paced, with the share done) while it runs here.
  const job = trackJob("refresh-index");
  try {
    return await indexAll(p, { ...opts, share: (x) => (job.share(x), opts.share?.(x)) });
  } finally {
    job.end();
  }
}

async function indexAll(p: Progress, opts: RefreshIndexOptions): Promise<RefreshIndexResult> {
  const started = Date.now();
  const db = await getDb();
  try {
    const fx = await loadFx();
    const t: Tally = { products: 0, indexed: 0, missing: 0, changed: 0 };
    let moves: number;
    if (!opts.paced) {
      await indexProducts(undefined, fx, p, t);
      opts.share?.(0.7);
      p.phase("moves");
      moves = await computeMoves();
      opts.share?.(0.85);
      p.phase("vacuum");
      await vacuumAnalyze(["cards", "sealed_products", "price_series", "price_months", "price_docs", "index_moves"]);
    } else {
      p.phase("products in batches");
      const products = await allProducts();
      const ranked: ProductMove[] = [];
      const per = opts.batch ?? PACED_PRODUCTS;
      for (let i = 0; i < products.length; i += per) {
        const batch = products.slice(i, i + per);
        await indexProducts(batch, fx, p, t);
        ranked.push(...(await movesOfProducts(batch)));
        await checkpointWhenDue();
        // Replacing the movers' table and the maintenance take the last few percent.
        opts.share?.((0.95 * (i + batch.length)) / products.length);
      }
      p.phase("moves");
      await replaceMoves(ranked, { paced: true });
      await setCardChanges({ paced: true });
      moves = ranked.length;
      opts.share?.(0.98);
      p.phase("maintenance");
      await maintainPaced(db);
    }
    const result = {
      products: t.products, indexed: t.indexed, changed: t.changed, missing_rates: t.missing, moves,
      seconds: (Date.now() - started) / 1000,
    };
    await recordSuccess(db, "refresh-index", result);
    if (t.changed) await bumpCatalogVersion(db);
    // Collectors' price alerts compare the index: checked once it moved (never throws).
    if (t.changed) await (await import("@/lib/collection/alerts")).afterPriceRefresh();
    return result;
  } catch (err) {
    await recordFailure(db, "refresh-index", (err as Error).message, false);
    throw err;
  }
}
