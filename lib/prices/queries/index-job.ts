import { sql, type SQL } from "drizzle-orm";
import { getDb, rows, type Db } from "@/lib/db/client";
import { lockChangeFeed } from "@/lib/changes/lock";
import type { StoredPoint } from "@/lib/db/schema";
import type { IndexInput } from "../composite";
import { servablePoint } from "../quotes";
import { unpackRecent } from "./recent";

// Reads and writes of refresh-index.

export type ProductFigures = { kind: string; id: string; printRegion: string | null; demo: boolean; rows: IndexInput[] };
export type ProductRef = { kind: string; id: string };

/** `and (product_kind, product_id)` among `products`; nothing when every product is meant. */
export const amongProducts = (products: ProductRef[] | undefined, alias = "") => products
  ? sql`and (${sql.raw(alias)}product_kind, ${sql.raw(alias)}product_id) in
      (select * from unnest(${sql.param(products.map((p) => p.kind))}::text[], ${sql.param(products.map((p) => p.id))}::text[]))`
  : sql``;

/**
 * The next `limit` products that have series, after `after` in (kind, id) order: refresh-index
 * in batches walks the products this way, one index range a page.
 */
export async function productsWithSeries(after: ProductRef | null, limit: number, db?: Db): Promise<ProductRef[]> {
  const from = after ? sql`where (product_kind, product_id) > (${after.kind}, ${after.id})` : sql``;
  return rows<ProductRef>(sql`select product_kind as kind, product_id as id from price_series ${from}
    group by product_kind, product_id order by product_kind, product_id limit ${limit}`, db);
}

/**
 * The figure of every third-party series (of `products`, or of all) that the current-prices
 * route would serve at `now` (quotes.ts servablePoint: past its source's delay), grouped by
 * product: the index, served at once, must not pass on a figure its source still withholds.
 */
export async function currentFigures(products?: ProductRef[], db?: Db, now = Date.now()): Promise<Map<string, ProductFigures>> {
  const found = await rows<{
    product_kind: string; product_id: string; source: string; variant: string; currency: string; locale: string | null; condition: string | null;
    printing: string | null; graded: boolean; recent: string; provenance: string; print_region: string | null;
  }>(sql`
    select s.product_kind, s.product_id, s.source, s.variant, s.currency, s.locale, s.condition, s.printing,
      (s.grading_company is not null or s.grading_score is not null) as graded,
      s.recent::text as recent, s.provenance, c.print_region
    from price_series s left join cards c on s.product_kind = 'card' and c.id = s.product_id
    where s.source <> 'INDEX' and json_array_length(s.recent) > 0 ${amongProducts(products, "s.")}`, db);
  const out = new Map<string, ProductFigures>();
  for (const r of found) {
    // As text, parsed here: the drivers (node-postgres, PGlite) need not agree on json columns.
    const point = servablePoint({ source: r.source, recent: unpackRecent(JSON.parse(r.recent) as StoredPoint[]) }, now);
    if (!point) continue;
    const ref = `${r.product_kind}:${r.product_id}`;
    const f = out.get(ref) ?? { kind: r.product_kind, id: r.product_id, printRegion: r.print_region, demo: false, rows: [] };
    if (r.provenance.includes("demo")) f.demo = true;
    f.rows.push({
      source: r.source, variant: r.variant, currency: r.currency, locale: r.locale, condition: r.condition, printing: r.printing,
      graded: r.graded, amount: point.amount, as_of: point.as_of,
    });
    out.set(ref, f);
  }
  return out;
}

export async function indexHeadlines(products?: ProductRef[], db?: Db): Promise<Map<string, { eur: number; as_of: string }>> {
  const found = await rows<{ product_kind: string; product_id: string; amount: number; as_of: string }>(sql`
    select product_kind, product_id, (recent->0->>1)::float8 as amount, recent->0->>0 as as_of
    from price_series where source = 'INDEX' and locale is null and printing is null ${amongProducts(products)}`, db);
  return new Map(found.map((r) => [`${r.product_kind}:${r.product_id}`, { eur: Number(r.amount), as_of: r.as_of }]));
}

/**
 * cards.index_eur / last_price_at (and the sealed ones), and the trial's pair: the sort keys of
 * the lists. A card row carries some thirty indexes, so each row written costs about half a
 * millisecond on the embedded database: paced callers write fewer rows a statement.
 */
export async function setProductIndex(items: ProductIndex[], db?: Db, opts: { perStatement?: number } = {}): Promise<void> {
  const per = opts.perStatement ?? 5000;
  const at = (day: string | null | undefined) => (day ? `${day}T00:00:00Z` : null);
  for (const kind of ["card", "sealed"] as const) {
    const part = items.filter((i) => i.kind === kind);
    for (let i = 0; i < part.length; i += per) {
      const chunk = part.slice(i, i + per);
      const values = sql`unnest(${sql.param(chunk.map((c) => c.id))}::text[], ${sql.param(chunk.map((c) => c.eur))}::float8[],
        ${sql.param(chunk.map((c) => at(c.as_of)))}::text[], ${sql.param(chunk.map((c) => c.trial?.eur ?? null))}::float8[],
        ${sql.param(chunk.map((c) => at(c.trial?.as_of)))}::text[]) as t(id, e, a, te, ta)`;
      const set = sql`index_eur = t.e, last_price_at = t.a::timestamptz, trial_index_eur = t.te, trial_last_price_at = t.ta::timestamptz`;
      if (kind === "card") await rows(sql`update cards c set ${set} from ${values} where c.id = t.id`, db);
      else await rows(sql`update sealed_products c set ${set} from ${values} where c.slug = t.id`, db);
    }
  }
}

/** A product's index as the lists sort by it: the catalogue's, and the trial's (composite.ts trialIndex). */
export type ProductIndex = { kind: string; id: string; eur: number | null; as_of: string | null; trial: { eur: number; as_of: string } | null };

/** The trial's index of these products (of all when omitted) as the lists hold it, by `kind:id`. */
export async function trialIndexes(products?: ProductRef[], db?: Db): Promise<Map<string, { eur: number; as_of: string }>> {
  const day = (c: SQL) => sql`to_char(${c} at time zone 'UTC', 'YYYY-MM-DD')`;
  const found = await rows<{ product_kind: string; product_id: string; eur: number; as_of: string }>(sql`
    select * from (
      select 'card' as product_kind, id as product_id, trial_index_eur as eur, ${day(sql`trial_last_price_at`)} as as_of from cards
      union all
      select 'sealed', slug, trial_index_eur, ${day(sql`trial_last_price_at`)} from sealed_products
    ) x where eur is not null ${amongProducts(products)}`, db);
  return new Map(found.map((r) => [`${r.product_kind}:${r.product_id}`, { eur: Number(r.eur), as_of: r.as_of }]));
}

/**
 * One PRICE change per product whose figures changed; sealed products as sealed:<slug>. In one
 * transaction, or `paced` in one per 1,000 products (the embedded database admits nothing else
 * while a transaction is open).
 */
export async function recordPriceChanges(productIds: { kind: string; id: string }[], opts: { paced?: boolean } = {}): Promise<void> {
  if (!productIds.length) return;
  const db = await getDb();
  const per = 5000;
  const insert = (tx: { execute: Db["execute"] }, part: { kind: string; id: string }[]) => tx.execute(sql`
    insert into changes (kind, entity_id, op, fields)
    select 'PRICE', id, 'updated', array['prices'] from unnest(${sql.param(part.map((p) => (p.kind === "sealed" ? `sealed:${p.id}` : p.id)))}::text[]) as t(id)`);
  if (opts.paced) {
    for (let i = 0; i < productIds.length; i += 1000) {
      await db.transaction(async (tx) => {
        await tx.execute(lockChangeFeed);
        await insert(tx, productIds.slice(i, i + 1000));
      });
    }
    return;
  }
  await db.transaction(async (tx) => {
    await tx.execute(lockChangeFeed);
    for (let i = 0; i < productIds.length; i += per) await insert(tx, productIds.slice(i, i + per));
  });
}
