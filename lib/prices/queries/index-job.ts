import { sql } from "drizzle-orm";
import { getDb, rows, type Db } from "@/lib/db/client";
import { lockChangeFeed } from "@/lib/changes/lock";
import type { IndexInput } from "../composite";

// Reads and writes of refresh-index.

export type ProductFigures = { kind: string; id: string; printRegion: string | null; demo: boolean; rows: IndexInput[] };

/** The newest figure of every third-party series, grouped by product. */
export async function currentFigures(db?: Db): Promise<Map<string, ProductFigures>> {
  const found = await rows<{
    product_kind: string; product_id: string; source: string; variant: string; currency: string; locale: string | null; condition: string | null;
    printing: string | null; graded: boolean; amount: number; as_of: string; provenance: string; print_region: string | null;
  }>(sql`
    select s.product_kind, s.product_id, s.source, s.variant, s.currency, s.locale, s.condition, s.printing,
      (s.grading_company is not null or s.grading_score is not null) as graded,
      (s.recent->0->>1)::float8 as amount, s.recent->0->>0 as as_of, s.provenance, c.print_region
    from price_series s left join cards c on s.product_kind = 'card' and c.id = s.product_id
    where s.source <> 'INDEX' and json_array_length(s.recent) > 0`, db);
  const out = new Map<string, ProductFigures>();
  for (const r of found) {
    const ref = `${r.product_kind}:${r.product_id}`;
    const f = out.get(ref) ?? { kind: r.product_kind, id: r.product_id, printRegion: r.print_region, demo: false, rows: [] };
    if (r.provenance.includes("demo")) f.demo = true;
    f.rows.push({
      source: r.source, variant: r.variant, currency: r.currency, locale: r.locale, condition: r.condition, printing: r.printing,
      graded: r.graded, amount: Number(r.amount), as_of: r.as_of,
    });
    out.set(ref, f);
  }
  return out;
}

export async function indexHeadlines(db?: Db): Promise<Map<string, { eur: number; as_of: string }>> {
  const found = await rows<{ product_kind: string; product_id: string; amount: number; as_of: string }>(sql`
    select product_kind, product_id, (recent->0->>1)::float8 as amount, recent->0->>0 as as_of
    from price_series where source = 'INDEX' and locale is null and printing is null`, db);
  return new Map(found.map((r) => [`${r.product_kind}:${r.product_id}`, { eur: Number(r.amount), as_of: r.as_of }]));
}

/** cards.index_eur / last_price_at (and the sealed ones): the sort keys of the lists. */
export async function setProductIndex(items: { kind: string; id: string; eur: number | null; as_of: string | null }[], db?: Db): Promise<void> {
  for (const kind of ["card", "sealed"] as const) {
    const part = items.filter((i) => i.kind === kind);
    for (let i = 0; i < part.length; i += 5000) {
      const chunk = part.slice(i, i + 5000);
      const ids = sql.param(chunk.map((c) => c.id));
      const eur = sql.param(chunk.map((c) => c.eur));
      const at = sql.param(chunk.map((c) => (c.as_of ? `${c.as_of}T00:00:00Z` : null)));
      if (kind === "card") {
        await rows(sql`update cards c set index_eur = t.e, last_price_at = t.a::timestamptz
          from unnest(${ids}::text[], ${eur}::float8[], ${at}::text[]) as t(id, e, a) where c.id = t.id`, db);
      } else {
        await rows(sql`update sealed_products c set index_eur = t.e, last_price_at = t.a::timestamptz
          from unnest(${ids}::text[], ${eur}::float8[], ${at}::text[]) as t(id, e, a) where c.slug = t.id`, db);
      }
    }
  }
}

/** One PRICE change per product whose figures changed; sealed products as sealed:<slug>. */
export async function recordPriceChanges(productIds: { kind: string; id: string }[]): Promise<void> {
  if (!productIds.length) return;
  const db = await getDb();
  await db.transaction(async (tx) => {
    await tx.execute(lockChangeFeed);
    for (let i = 0; i < productIds.length; i += 5000) {
      const part = productIds.slice(i, i + 5000);
      await tx.execute(sql`
        insert into changes (kind, entity_id, op, fields)
        select 'PRICE', id, 'updated', array['prices'] from unnest(${sql.param(part.map((p) => (p.kind === "sealed" ? `sealed:${p.id}` : p.id)))}::text[]) as t(id)`);
    }
  });
}
