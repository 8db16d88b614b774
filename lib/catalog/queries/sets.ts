import { sql, type SQL } from "drizzle-orm";
import { rows } from "@/lib/db/client";
import { iso } from "@/lib/db/sql";
import { keysetWhere, orderBySql, sortKeySelect, type Order } from "@/lib/api/paging";
import type { SetDbRow } from "@/lib/catalog/present";
import { escapeLike, wordKey } from "@/lib/util/text";
import { identifierKey, printedCodeKey } from "./identifiers";

/** Every series' id and names, for the set list's `series` filter (a few dozen rows). */
export const selectSeriesNames = () => rows<{ id: string; name: string; names: Record<string, string> }>(sql`
  select id, name, names from series where deleted_at is null`);

const COLUMNS = sql`s.id, s.alt_id, s.ptcgo_code, s.name, s.names, s.series_id, r.name as series_name, r.names as series_names, s.print_region,
  s.printed_total, s.total, s.card_count, s.release_date::text as release_date, s.languages, s.images,
  s.attrs->>'block_id' as block_id, s.attrs->>'block_name' as block_name, s.attrs->>'name_en_unofficial' as name_en_unofficial,
  ${iso(sql`s.created_at`)} as created_at, ${iso(sql`s.updated_at`)} as updated_at`;
const FROM = sql`from sets s join series r on r.id = s.series_id`;

/**
 * A set by code (its id), slug (the id in lower case), alternate id, or printed code. A
 * printed code shared by a main set and its subsets (CEL: cel25, cel25c; HIF: sm115, sma) names
 * the main set: the shortest name, which the subsets' names extend ("Hidden Fates Shiny Vault").
 * A set without an alternate id is no match of one (null, not false: it sorted last).
 */
export async function selectSetByIdentifier(code: string): Promise<SetDbRow | undefined> {
  const lower = identifierKey(code);
  if (lower === null) return undefined;
  const found = await rows<SetDbRow>(sql`
    select ${COLUMNS} ${FROM}
    where s.deleted_at is null and (s.id_lower = ${lower} or lower(s.alt_id) = ${lower} or s.ptcgo_code = ${printedCodeKey(code)})
    order by (s.id_lower = ${lower}) desc, coalesce(lower(s.alt_id) = ${lower}, false) desc, length(s.name), s.id
    limit 1`, undefined, { prepare: true });
  return found[0];
}

/** `seriesIds`: the series the `series` filter named (seriesNamed), none matching any set when empty. */
export type SetFilter = { q?: string; seriesIds?: string[]; region?: string };

/** Each word of q matches the start of a word of the set's names; a q without letters matches nothing. */
export function setWhere(f: SetFilter): SQL {
  const parts: SQL[] = [sql`s.deleted_at is null`];
  const words = f.q ? wordKey(f.q).split(" ").filter(Boolean) : [];
  if (f.q && !words.length) parts.push(sql`false`);
  for (const w of words) parts.push(sql`(' ' || s.name_folded || ' ') like ${`% ${escapeLike(w)}%`}`);
  if (f.seriesIds) parts.push(f.seriesIds.length ? sql`s.series_id in (${sql.join(f.seriesIds.map((id) => sql`${id}`), sql`, `)})` : sql`false`);
  if (f.region) parts.push(sql`s.print_region = ${f.region}`);
  return sql.join(parts, sql` and `);
}

export async function selectSetPage(where: SQL, order: Order, after: unknown[] | undefined, limit: number) {
  const keyset = after ? sql`and ${keysetWhere(order, after)}` : sql``;
  return rows<SetDbRow & Record<string, unknown>>(sql`
    select ${COLUMNS}, ${sortKeySelect(order)} ${FROM}
    where ${where} ${keyset}
    order by ${orderBySql(order)}
    limit ${limit + 1}`);
}

export async function countSets(where: SQL): Promise<number> {
  const r = await rows<{ n: number }>(sql`select count(*)::int as n from sets s where ${where}`);
  return r[0]?.n ?? 0;
}
