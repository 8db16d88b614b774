import type { Lang } from "@/lib/api/params";

// Rows as the API shows them. Field names are snake_case; every record carries updated_at
// so mirrors can re-read only what changed.

type Names = Record<string, string>;

/**
 * The name in `lang`, else English (the catalogue's, else `english`: an Asian set's unofficial
 * English name), else the name the record is printed under. Never null.
 */
export function localName(names: Names | null | undefined, fallback: string, lang: Lang | undefined, english?: string | null): string {
  if (!lang) return fallback;
  const n = names ?? {};
  const pick = lang === "zh" ? n["zh-cn"] ?? n["zh-tw"] : lang === "es" ? n.es ?? n["es-mx"] : n[lang];
  return pick ?? n.en ?? english ?? fallback;
}

/**
 * include=prices carries the index fields too (SPEC.md set cards rule 2: "the per-source
 * breakdown (index included)"): index_eur and last_price_at are present, null where there is
 * no index, and can be selected and sorted on, exactly as with include=index.
 */
export function withImpliedIndex<T extends string>(include: Set<T>): Set<T> {
  if (include.has("prices" as T)) include.add("index" as T);
  return include;
}

export type SetDbRow = {
  id: string; alt_id: string | null; ptcgo_code: string | null; name: string; names: Names; series_id: string;
  series_name: string; series_names: Names; print_region: string | null; printed_total: number | null; total: number | null;
  card_count: number; release_date: string | null; languages: string[]; images: Names | null;
  block_id: string | null; block_name: string | null; name_en_unofficial: string | null;
  created_at: string; updated_at: string;
};

// Timestamps arrive formatted as RFC 3339 by the queries (lib/db/sql.ts).

export function presentSet(r: SetDbRow, lang?: Lang) {
  return {
    id: r.id,
    code: r.id,
    slug: r.id.toLowerCase(),
    alt_id: r.alt_id,
    ptcgo_code: r.ptcgo_code,
    name: localName(r.names, r.name, lang, r.name_en_unofficial),
    name_en: r.names.en ?? r.name_en_unofficial ?? null,
    // The series in the language asked for, as GET /v1/series?lang= names it.
    series: { id: r.series_id, name: localName(r.series_names, r.series_name, lang) },
    block: r.block_id ? { id: r.block_id, name: r.block_name } : null,
    print_region: r.print_region,
    release_date: r.release_date,
    printed_total: r.printed_total,
    total: r.total,
    card_count: r.card_count,
    languages: r.languages,
    images: { logo: r.images?.logo ?? null, symbol: r.images?.symbol ?? null },
    updated_at: r.updated_at,
    created_at: r.created_at,
  };
}

export type SeriesDbRow = {
  id: string; name: string; names: Names; set_count: number; card_count: number;
  first_release_date: string | null; last_release_date: string | null; updated_at: string;
};

export function presentSeries(r: SeriesDbRow, lang?: Lang) {
  return {
    id: r.id,
    slug: r.id,
    name: localName(r.names, r.name, lang),
    set_count: r.set_count,
    card_count: r.card_count,
    first_release_date: r.first_release_date,
    last_release_date: r.last_release_date,
    updated_at: r.updated_at,
  };
}

export type ArtistDbRow = {
  slug: string; name: string; card_count: number; set_count: number;
  first_release_date: string | null; last_release_date: string | null; updated_at: string;
};

export function presentArtist(r: ArtistDbRow) {
  return {
    slug: r.slug,
    name: r.name,
    card_count: r.card_count,
    set_count: r.set_count,
    first_release_date: r.first_release_date,
    last_release_date: r.last_release_date,
    updated_at: r.updated_at,
  };
}

export type SealedDbRow = {
  slug: string; sku: string; name: string; names: Names; product_type: string; set_id: string | null;
  set_name: string | null; series_id: string | null; release_date: string | null; tcgplayer_product_id: number | null;
  attrs: Record<string, unknown>; index_eur: number | null; last_price_at: string | null; created_at: string; updated_at: string;
};

export function presentSealed(r: SealedDbRow, opts: { lang?: Lang; index: boolean }) {
  const a = r.attrs;
  const out: Record<string, unknown> = {
    id: r.slug,
    sku: r.sku,
    slug: r.slug,
    name: localName(r.names, r.name, opts.lang),
    names: r.names,
    product_type: r.product_type,
    set: r.set_id ? { id: r.set_id, name: r.set_name } : null,
    series_id: r.series_id,
    release_date: r.release_date,
    pack_count: a.pack_count ?? null,
    cards_per_pack: a.cards_per_pack ?? null,
    exclusive: a.exclusive ?? false,
    exclusive_retailer: a.exclusive_retailer ?? null,
    variants: a.variants ?? [],
    is_code_card: a.is_code_card ?? false,
    tcgplayer_product_id: r.tcgplayer_product_id,
    images: [],
    updated_at: r.updated_at,
    created_at: r.created_at,
  };
  if (opts.index) {
    out.index_eur = r.index_eur;
    out.last_price_at = r.last_price_at;
  }
  return out;
}
