import { sql, type SQL } from "drizzle-orm";
import { rows } from "@/lib/db/client";
import { iso } from "@/lib/db/sql";
import { escapeLike, wordKey } from "@/lib/util/text";
import { keysetWhere, orderBySql, sortKeySelect, type Order } from "@/lib/api/paging";
import { identifierKey } from "./identifiers";
import type { ArtistDbRow, SealedDbRow, SeriesDbRow } from "@/lib/catalog/present";

// SQL of the smaller catalogue lists: series, artists, sealed products.


function page<R>(select: SQL, from: SQL, where: SQL, order: Order, after: unknown[] | undefined, limit: number) {
  const keyset = after ? sql`and ${keysetWhere(order, after)}` : sql``;
  return rows<R & Record<string, unknown>>(sql`
    select ${select}, ${sortKeySelect(order)} ${from}
    where ${where} ${keyset}
    order by ${orderBySql(order)}
    limit ${limit + 1}`);
}

const SERIES_COLS = sql`r.id, r.name, r.names, r.set_count, r.card_count,
  r.first_release_date::text as first_release_date, r.last_release_date::text as last_release_date, ${iso(sql`r.updated_at`)} as updated_at`;
export const seriesWhere = sql`r.deleted_at is null`;
export const selectSeriesPage = (order: Order, after: unknown[] | undefined, limit: number) =>
  page<SeriesDbRow>(SERIES_COLS, sql`from series r`, seriesWhere, order, after, limit);
export const countSeries = async () => (await rows<{ n: number }>(sql`select count(*)::int as n from series r where ${seriesWhere}`))[0]!.n;

const ARTIST_COLS = sql`a.slug, a.name, a.card_count, a.set_count, a.first_release_date::text as first_release_date,
  a.last_release_date::text as last_release_date, ${iso(sql`a.updated_at`)} as updated_at`;

/** Accent- and case-insensitive substring of the artist's name; a q without letters matches nothing. */
export function artistWhere(q: string | undefined): SQL {
  if (q === undefined || q === "") return sql`a.deleted_at is null`;
  const folded = wordKey(q);
  return folded ? sql`a.deleted_at is null and a.name_folded like ${`%${escapeLike(folded)}%`}` : sql`false`;
}
export const selectArtistPage = (where: SQL, order: Order, after: unknown[] | undefined, limit: number) =>
  page<ArtistDbRow>(ARTIST_COLS, sql`from artists a`, where, order, after, limit);
export const countArtists = async (where: SQL) =>
  (await rows<{ n: number }>(sql`select count(*)::int as n from artists a where ${where}`))[0]!.n;
export async function selectArtist(slug: string): Promise<ArtistDbRow | undefined> {
  const key = identifierKey(slug);
  if (key === null) return undefined;
  return (await rows<ArtistDbRow>(sql`select ${ARTIST_COLS} from artists a where a.slug = ${key} and a.deleted_at is null`))[0];
}

const SEALED_COLS = sql`p.slug, p.sku, p.name, p.names, p.product_type, p.set_id, s.name as set_name, p.series_id,
  p.release_date::text as release_date, p.tcgplayer_product_id, p.attrs, p.index_eur, ${iso(sql`p.last_price_at`)} as last_price_at,
  ${iso(sql`p.created_at`)} as created_at, ${iso(sql`p.updated_at`)} as updated_at`;
const SEALED_FROM = sql`from sealed_products p left join sets s on s.id = p.set_id`;

export function sealedWhere(f: { q?: string; setId?: string; productType?: string }): SQL {
  const parts: SQL[] = [sql`p.deleted_at is null`];
  const words = f.q ? wordKey(f.q).split(" ").filter(Boolean) : [];
  if (f.q && !words.length) parts.push(sql`false`);
  for (const w of words) parts.push(sql`(' ' || p.name_folded || ' ') like ${`% ${escapeLike(w)}%`}`);
  if (f.setId) parts.push(sql`p.set_id = ${f.setId}`);
  if (f.productType) parts.push(sql`p.product_type = ${f.productType}`);
  return sql.join(parts, sql` and `);
}
export const selectSealedPage = (where: SQL, order: Order, after: unknown[] | undefined, limit: number) =>
  page<SealedDbRow>(SEALED_COLS, SEALED_FROM, where, order, after, limit);
/** A sealed product by SKU or slug (slugs are lower case), ASCII letters in any case. */
export async function selectSealed(id: string): Promise<SealedDbRow | undefined> {
  const key = identifierKey(id);
  if (key === null) return undefined;
  return (await rows<SealedDbRow>(sql`select ${SEALED_COLS} ${SEALED_FROM}
    where p.deleted_at is null and (lower(p.sku) = ${key} or p.slug = ${key}) limit 1`))[0];
}
