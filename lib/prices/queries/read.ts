import { identifierKey } from "@/lib/catalog/queries/identifiers";
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

type DocElement = [number, string, string, string, string, string | null, string | null, string | null, string | null, string | null, string, StoredPoint[], string];

/** The series of these products, from their documents (one row and one JSON text per product). */
export async function seriesOfProducts(kind: string, ids: string[]): Promise<SeriesRead[]> {
  if (!ids.length) return [];
  const docs = await rows<{ product_id: string; doc: string }>(sql`select product_id, doc from price_docs
    where product_kind = ${kind} and product_id = any(${sql.param(ids)}::text[])`, undefined, { prepare: true });
  const out: SeriesRead[] = [];
  for (const d of docs) {
    for (const e of JSON.parse(d.doc) as DocElement[]) {
      out.push({
        id: e[0], product_id: d.product_id, source: e[1], variant: e[2], basis: e[3], currency: e[4], locale: e[5], condition: e[6],
        printing: e[7], grading_company: e[8], grading_score: e[9], provenance: e[10], recent: unpackRecent(e[11]), last_as_of: e[12],
      });
    }
  }
  return out;
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
  // As GET /v1/sealed/{id} resolves it (catalog/queries/lists.ts selectSealed): slugs are lower case.
  const key = identifierKey(ref);
  if (key === null) return null;
  const found = await rows<{ slug: string }>(sql`select slug from sealed_products
    where (slug = ${key} or lower(sku) = ${key}) and deleted_at is null limit 1`, undefined, { prepare: true });
  return found[0]?.slug ?? null;
}
