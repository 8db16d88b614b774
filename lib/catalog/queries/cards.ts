import { sql, type SQL } from "drizzle-orm";
import { rows } from "@/lib/db/client";
import { iso } from "@/lib/db/sql";
import { NORMALIZE_NUMBER_SQL, normalizeNumber, numberSort } from "@/lib/util/numbers";
import { keysetWhere, orderBySql, orderBySqlOuter, sortKeySelect, type Order } from "@/lib/api/paging";
import { asciiUpper, identifierKey, isAscii } from "./identifiers";

// Card SQL. Lists are keyset pages over (sort keys…, id); every list joins the card's set,
// series and artist so one query answers a page whatever the include.

export type CardDbRow = {
  id: string; alt_id: string | null; set_id: string; number: string; printed_total: number | null; name: string;
  names: Record<string, string>; supertype: string | null; subtypes: string[]; types: string[]; hp: number | null;
  rarity: string | null; artist: string | null; artist_slug: string | null; national_pokedex_numbers: number[];
  regulation_mark: string | null; release_date: string | null; languages: string[]; attrs: Record<string, unknown>;
  index_eur: number | null; last_price_at: string | null; change_7d_pct?: number | null; change_30d_pct?: number | null;
  created_at: string; updated_at: string;
  deleted_at: string | null;
  s_alt_id: string | null; s_ptcgo_code: string | null; s_name: string; s_names: Record<string, string>;
  s_series_id: string; s_series_name: string; s_series_names: Record<string, string>; s_print_region: string | null; s_printed_total: number | null;
  s_total: number | null; s_card_count: number; s_release_date: string | null; s_languages: string[];
  s_images: Record<string, string> | null; s_block_id: string | null; s_block_name: string | null;
  s_name_en_unofficial: string | null; s_created_at: string; s_updated_at: string;
  a_name: string | null; a_card_count: number | null; a_set_count: number | null;
  a_first_release_date: string | null; a_last_release_date: string | null; a_updated_at: string | null;
  [key: `__k${number}`]: unknown;
};

const COLUMNS = sql`
  c.id, c.alt_id, c.set_id, c.number, c.printed_total, c.name, c.names, c.supertype, c.subtypes, c.types, c.hp,
  c.rarity, c.artist, c.artist_slug, c.national_pokedex_numbers, c.regulation_mark, c.release_date::text as release_date,
  c.languages, c.attrs, c.index_eur, ${iso(sql`c.last_price_at`)} as last_price_at, c.change_7d_pct, c.change_30d_pct, ${iso(sql`c.created_at`)} as created_at,
  ${iso(sql`c.updated_at`)} as updated_at, ${iso(sql`c.deleted_at`)} as deleted_at,
  s.alt_id as s_alt_id, s.ptcgo_code as s_ptcgo_code, s.name as s_name, s.names as s_names, s.series_id as s_series_id,
  r.name as s_series_name, r.names as s_series_names, s.print_region as s_print_region, s.printed_total as s_printed_total, s.total as s_total,
  s.card_count as s_card_count, s.release_date::text as s_release_date, s.languages as s_languages, s.images as s_images,
  s.attrs->>'block_id' as s_block_id, s.attrs->>'block_name' as s_block_name,
  s.attrs->>'name_en_unofficial' as s_name_en_unofficial,
  ${iso(sql`s.created_at`)} as s_created_at, ${iso(sql`s.updated_at`)} as s_updated_at,
  a.name as a_name, a.card_count as a_card_count, a.set_count as a_set_count,
  a.first_release_date::text as a_first_release_date, a.last_release_date::text as a_last_release_date,
  ${iso(sql`a.updated_at`)} as a_updated_at`;

const FROM = sql`from cards c
  join sets s on s.id = c.set_id
  join series r on r.id = s.series_id
  left join artists a on a.slug = c.artist_slug`;

/** Below this many estimated matches a page collects every match and sorts them. */
const SMALL_MATCH_SET = 5000;

/** The planner's estimate of the rows a filter matches (one planning pass, no execution). */
async function estimateMatches(where: SQL): Promise<number> {
  const [r] = await rows<{ "QUERY PLAN": [{ Plan: { "Plan Rows": number } }] }>(
    sql`explain (format json) select 1 from cards c where c.deleted_at is null and ${where}`,
  );
  return r?.["QUERY PLAN"][0]?.Plan["Plan Rows"] ?? Number.POSITIVE_INFINITY;
}

/**
 * One page (limit + 1 rows: the extra one only says whether more exist).
 *
 * With a LIMIT, PostgreSQL walks the sort index and filters, assuming matches are spread
 * evenly through the order. They often are not: Japanese cards sit together in id order, so
 * `set.region:JP types:fire` would read half the table before its first match. When the
 * filter is selective, the page is instead taken from all matches (found through the filter's
 * own indexes) and sorted; OFFSET 0 keeps the planner from pushing the LIMIT back inside.
 */
export async function selectCardPage(
  where: SQL, order: Order, after: unknown[] | undefined, limit: number, opts: { filtered: boolean },
): Promise<CardDbRow[]> {
  const keyset = after ? sql`and ${keysetWhere(order, after)}` : sql``;
  const selective = opts.filtered && (await estimateMatches(where)) < SMALL_MATCH_SET;
  if (selective) {
    // Sort the matches by their keys alone, then fetch the full rows of one page.
    const keys = sql.join(order.columns.map((_, i) => sql`p.${sql.identifier(`__k${i}`)}`), sql`, `);
    return rows<CardDbRow>(sql`
      select ${COLUMNS}, ${keys}
      from (
        select * from (
          select c.id as __id, ${sortKeySelect(order)} from cards c
          where c.deleted_at is null and ${where} ${keyset}
          offset 0
        ) m
        order by ${orderBySqlOuter(order)}
        limit ${limit + 1}
      ) p
      join cards c on c.id = p.__id
      join sets s on s.id = c.set_id
      join series r on r.id = s.series_id
      left join artists a on a.slug = c.artist_slug
      order by ${orderBySqlOuter(order, "p")}`, undefined, { prepare: true });
  }
  return rows<CardDbRow>(sql`
    select ${COLUMNS}, ${sortKeySelect(order)} ${FROM}
    where c.deleted_at is null and ${where} ${keyset}
    order by ${orderBySql(order)}
    limit ${limit + 1}`, undefined, { prepare: true });
}

/**
 * One card by primary or alternate id, case-insensitive; a deleted row is returned for the
 * 404 text. A scalar parameter, so the prepared plan knows it fetches one row by index.
 */
export async function selectCardById(id: string): Promise<CardDbRow[]> {
  const lower = identifierKey(id);
  if (lower === null) return [];
  return rows<CardDbRow>(sql`
    select ${COLUMNS} ${FROM}
    where c.id_lower = ${lower} or lower(c.alt_id) = ${lower}`, undefined, { prepare: true });
}

/** Cards by primary or alternate ids (a batch), case-insensitive, deleted rows included. */
export async function selectCardsByIds(ids: string[]): Promise<CardDbRow[]> {
  const keys = ids.map(identifierKey).filter((k) => k !== null);
  if (!keys.length) return [];
  const lower = sql.param(keys);
  return rows<CardDbRow>(sql`
    select ${COLUMNS} ${FROM}
    where c.id_lower = any(${lower}::text[]) or lower(c.alt_id) = any(${lower}::text[])`);
}

export type CardImageRow = {
  owner_id: string; face: string; size: string; source_url: string | null; storage_key: string | null; origin: string; width: number | null; height: number | null;
};

export async function selectCardImages(ids: string[]): Promise<CardImageRow[]> {
  if (!ids.length) return [];
  return rows<CardImageRow>(sql`
    select owner_id, face, size, source_url, storage_key, origin, width, height from images
    where owner_kind = 'card' and owner_id in (${sql.join(ids.map((i) => sql`${i}`), sql`, `)})
    order by owner_id, face, size`);
}

/** Set identifiers hold at most a few hyphens (tcgdex-asia-SV-P): more splits cannot name a set. */
const MAX_SPLITS = 4;

export type Alternative = { id: string; name: string; reason: string };

/**
 * What missing ids may have meant, for all of them in one statement: a recorded alias (a
 * renamed or removed card), else a card of the same set whose number matches once leading
 * zeros are dropped (sv3pt5-06, MEW-6). Each id is split at its first hyphens into a set key
 * and a number; sets are found through their indexed identifiers, cards through (set, number).
 */
export async function selectAlternatives(missing: string[]): Promise<Map<string, Alternative[]>> {
  const out = new Map<string, Alternative[]>(missing.map((m) => [m, []]));
  if (!missing.length) return out;
  const wanted: { id: string; set: string; sort: number | null; norm: string }[] = [];
  for (const id of missing) {
    const lower = identifierKey(id);
    // Splitting needs ASCII (normalizeNumber would case-map the rest): others have no alternative.
    if (lower === null || !isAscii(lower)) continue;
    let from = 0;
    for (let i = 0; i < MAX_SPLITS; i++) {
      const at = lower.indexOf("-", from);
      if (at <= 0) break;
      const set = lower.slice(0, at);
      const num = lower.slice(at + 1);
      if (num) wanted.push({ id, set, sort: numberSort(num), norm: normalizeNumber(num) });
      from = at + 1;
    }
  }
  const found = await rows<Alternative & { wanted: string }>(sql`
    with wanted as (
      select * from unnest(${sql.param(wanted.map((w) => w.id))}::text[], ${sql.param(wanted.map((w) => w.set))}::text[],
        ${sql.param(wanted.map((w) => asciiUpper(w.set)))}::text[],
        ${sql.param(wanted.map((w) => w.sort))}::int[], ${sql.param(wanted.map((w) => w.norm))}::text[]) as w(id, set_key, code_key, sort, norm)
    ),
    aliased as (
      select ca.alias as wanted, c.id, c.name, ca.reason from card_aliases ca join cards c on c.id = ca.card_id
      where lower(ca.alias) = any(${sql.param(missing.map(identifierKey).filter((k) => k !== null))}::text[]) and c.deleted_at is null
    ),
    same_number as (
      select distinct w.id as wanted, c.id, c.name, 'same set and number' as reason
      from wanted w
      join sets s on s.id_lower = w.set_key or lower(s.alt_id) = w.set_key or s.ptcgo_code = w.code_key
      join cards c on c.set_id = s.id and c.number_sort is not distinct from w.sort and c.deleted_at is null
        and ${sql.raw(NORMALIZE_NUMBER_SQL("c.number"))} = w.norm
    )
    select * from aliased union all select * from same_number order by wanted, id`);
  for (const r of found) {
    const key = missing.find((m) => m === r.wanted || identifierKey(m) === identifierKey(r.wanted));
    const list = key ? out.get(key)! : undefined;
    if (list && list.length < 5 && !list.some((a) => a.id === r.id)) list.push({ id: r.id, name: r.name, reason: r.reason });
  }
  return out;
}
