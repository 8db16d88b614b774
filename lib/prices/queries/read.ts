import { sql } from "drizzle-orm";
import { rows } from "@/lib/db/client";
import type { RecentPoint, StoredPoint } from "@/lib/db/schema";
import { unpackRecent } from "./recent";

// Reads of the price routes: a product's series are one index range; its history is a dozen
// month rows per series.

export type SeriesRead = {
  id: number; product_id: string; source: string; variant: string; basis: string; currency: string;
  locale: string | null; condition: string | null; printing: string | null; grading_company: string | null; grading_score: string | null;
  provenance: string; recent: RecentPoint[]; last_as_of: string;
};

// Only what quotes and history read: a page of 250 cards with prices parses a few thousand rows.
const COLUMNS = sql`id, product_id, source, variant, basis, currency, locale, condition, printing, grading_company,
  grading_score, provenance, recent, last_as_of::text as last_as_of`;

export async function seriesOfProducts(kind: string, ids: string[]): Promise<SeriesRead[]> {
  if (!ids.length) return [];
  const found = await rows<SeriesRead & { recent: unknown }>(sql`select ${COLUMNS} from price_series
    where product_kind = ${kind} and product_id = any(${sql.param(ids)}::text[])`, undefined, { prepare: true });
  for (const s of found) s.recent = unpackRecent(s.recent as unknown as StoredPoint[]);
  return found;
}

/** Month rows with their packed amounts as bytes (node-postgres gives a Buffer, PGlite a Uint8Array). */
export async function monthsOf(seriesIds: number[], fromMonth: number, toMonth: number): Promise<{ series_id: number; month: number; amounts: Buffer }[]> {
  if (!seriesIds.length) return [];
  const found = await rows<{ series_id: number; month: number; amounts: Uint8Array }>(sql`select series_id, month, amounts from price_months
    where series_id = any(${sql.param(seriesIds)}::int[]) and month between ${fromMonth} and ${toMonth}
    order by series_id, month`);
  return found.map((r) => ({ ...r, amounts: Buffer.isBuffer(r.amounts) ? r.amounts : Buffer.from(r.amounts) }));
}

/** The canonical id of a sealed product from its sku or slug. */
export async function sealedSlug(ref: string): Promise<string | null> {
  const found = await rows<{ slug: string }>(sql`select slug from sealed_products
    where (slug = ${ref} or lower(sku) = lower(${ref})) and deleted_at is null limit 1`, undefined, { prepare: true });
  return found[0]?.slug ?? null;
}
