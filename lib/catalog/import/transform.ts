import { createHash } from "node:crypto";
import { numberSort } from "@/lib/util/numbers";
import { fold, slugify, wordKey, words } from "@/lib/util/text";

export { numberSort } from "@/lib/util/numbers";
import { seriesLabels, type SeriesLabel } from "./series";
import type { Upstream, UpstreamCard, UpstreamSealed, UpstreamSet } from "./upstream";

// Pure functions from the upstream records to our rows. Everything derived (counts, alternate
// ids, regions) is computed here from the whole upstream at once, so a row's hash changes
// exactly when what the API serves for it changes.

export type PrintRegion = "WEST" | "JP" | "CN" | "KR";

export type SeriesRow = {
  id: string; name: string; nameFolded: string; names: Record<string, string>;
  setCount: number; cardCount: number; firstReleaseDate: string | null; lastReleaseDate: string | null;
};
export type SetRow = {
  id: string; idLower: string; altId: string | null; ptcgoCode: string | null; name: string; nameFolded: string;
  names: Record<string, string>; seriesId: string; printRegion: PrintRegion | null; printedTotal: number | null;
  total: number | null; cardCount: number; releaseDate: string | null; languages: string[];
  legalities: Record<string, string> | null; images: Record<string, string> | null; attrs: Record<string, unknown>;
};
export type CardRow = {
  id: string; idLower: string; altId: string | null; setId: string; seriesId: string; printRegion: PrintRegion | null;
  number: string; numberSort: number | null; localId: string | null; printedTotal: number | null; name: string;
  names: Record<string, string>; nameTerms: string[]; nameKeys: string[]; supertype: string | null;
  supertypeLc: string | null; subtypes: string[]; types: string[]; typesLc: string[]; subtypesLc: string[];
  hp: number | null; rarity: string | null; rarityLc: string | null; artist: string | null; artistSlug: string | null; nationalDex: number[];
  regulationMark: string | null; releaseDate: string | null; languages: string[]; attrs: Record<string, unknown>;
};
export type ArtistRow = {
  slug: string; name: string; nameFolded: string; cardCount: number; setCount: number;
  firstReleaseDate: string | null; lastReleaseDate: string | null;
};
export type SealedRow = {
  slug: string; sku: string; name: string; nameFolded: string; names: Record<string, string>; productType: string;
  setId: string | null; seriesId: string | null; releaseDate: string | null; tcgplayerProductId: number | null;
  attrs: Record<string, unknown>;
};
export type ImageRow = {
  ownerKind: "card" | "set" | "sealed"; ownerId: string; face: string; size: string; sourceUrl: string;
};

export type Catalog = {
  series: SeriesRow[]; sets: SetRow[]; cards: CardRow[]; artists: ArtistRow[]; sealed: SealedRow[]; images: ImageRow[];
};

/** Stable content hash: keys sorted, so field order upstream never registers as a change. */
export function contentHash(value: unknown): string {
  return createHash("sha1").update(stableJson(value)).digest("base64url");
}

function stableJson(v: unknown): string {
  if (v === null || typeof v !== "object") return JSON.stringify(v ?? null);
  if (Array.isArray(v)) return `[${v.map(stableJson).join(",")}]`;
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o).sort().filter((k) => o[k] !== undefined).map((k) => `${JSON.stringify(k)}:${stableJson(o[k])}`).join(",")}}`;
}

/**
 * Print region of a set, always one of the reference's four (SPEC.md: WEST, JP, CN, KR).
 * International sets print in the West. Asian sets take the first of their languages in the
 * order Japanese, Chinese, Korean; the Thai and Indonesian editions (27 sets) are JP: they are
 * the Japanese sets as The Pokémon Company's Asian office prints them (SV3s, AS1a…), in the
 * Japanese format and numbering.
 */
export function printRegion(s: Pick<UpstreamSet, "region" | "names" | "card_languages">): PrintRegion {
  if (s.region === "international") return "WEST";
  const langs = new Set([...Object.keys(s.names ?? {}), ...(s.card_languages ?? [])]);
  if (langs.has("ja")) return "JP";
  if ([...langs].some((l) => l.startsWith("zh"))) return "CN";
  if (langs.has("ko")) return "KR";
  return "JP";
}

/** Alternate set code: the tcgdex id, prefixed `asia-` for Asian sets so it never meets an international one. */
export function altSetCode(s: Pick<UpstreamSet, "region" | "tcgdex_id">): string | null {
  if (!s.tcgdex_id) return null;
  return s.region === "asia" ? `asia-${s.tcgdex_id}` : s.tcgdex_id;
}

export function artistSlug(name: string): string {
  return slugify(name) || `artist-${createHash("sha1").update(name).digest("hex").slice(0, 8)}`;
}

function compact<T extends Record<string, unknown>>(o: T): Partial<T> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined && v !== null) out[k] = v;
  return out as Partial<T>;
}

/** Keeps only identifiers that are unique and never equal any primary id (case-insensitive). */
function uniqueAlternates<T extends { id: string }>(rows: T[], alt: (r: T) => string | null): Map<string, string> {
  const primary = new Set(rows.map((r) => r.id.toLowerCase()));
  const count = new Map<string, number>();
  const proposed = new Map<string, string>();
  for (const r of rows) {
    const a = alt(r);
    if (!a || a.toLowerCase() === r.id.toLowerCase()) continue;
    proposed.set(r.id, a);
    count.set(a.toLowerCase(), (count.get(a.toLowerCase()) ?? 0) + 1);
  }
  const out = new Map<string, string>();
  for (const [id, a] of proposed) {
    if (count.get(a.toLowerCase()) === 1 && !primary.has(a.toLowerCase())) out.set(id, a);
  }
  return out;
}

function minMax(dates: (string | null | undefined)[]): [string | null, string | null] {
  const ds = dates.filter((d): d is string => !!d).sort();
  return [ds[0] ?? null, ds[ds.length - 1] ?? null];
}

export function transform(up: Upstream): Catalog {
  const setById = new Map(up.sets.map((s) => [s.id, s]));
  const cardsBySet = new Map<string, UpstreamCard[]>();
  for (const c of up.cards) {
    const list = cardsBySet.get(c.set_id);
    if (list) list.push(c);
    else cardsBySet.set(c.set_id, [c]);
  }

  const labels = seriesLabels(up);
  const blockName = new Map(up.series.map((s) => [s.id, s.name]));
  const setAlt = uniqueAlternates(up.sets, altSetCode);
  const regionOf = new Map(up.sets.map((s) => [s.id, printRegion(s)]));
  const sets = up.sets.map((s) =>
    toSetRow(s, setAlt.get(s.id) ?? null, cardsBySet.get(s.id)?.length ?? 0, labels.get(s.id)!, blockName.get(s.series_id)),
  );

  const altCode = new Map(up.sets.map((s) => [s.id, altSetCode(s)]));
  const cardAlt = uniqueAlternates(up.cards, (c) => {
    const code = altCode.get(c.set_id);
    return code && c.local_id ? `${code}-${c.local_id}` : null;
  });

  const artistGroups = new Map<string, { names: Map<string, number>; cards: UpstreamCard[] }>();
  for (const c of up.cards) {
    const name = c.artist?.trim();
    if (!name) continue;
    const slug = artistSlug(name);
    const g = artistGroups.get(slug) ?? { names: new Map<string, number>(), cards: [] as UpstreamCard[] };
    g.names.set(name, (g.names.get(name) ?? 0) + 1);
    g.cards.push(c);
    artistGroups.set(slug, g);
  }
  const artists: ArtistRow[] = [...artistGroups].map(([slug, g]) => {
    // Spellings that fold to one slug are one person; the most used spelling names them.
    const name = [...g.names].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]![0];
    // The card's served date: its own, else its set's (as in toCardRow).
    const [first, last] = minMax(g.cards.map((c) => c.release_date ?? setById.get(c.set_id)?.release_date));
    return {
      slug, name, nameFolded: wordKey(name), cardCount: g.cards.length,
      setCount: new Set(g.cards.map((c) => c.set_id)).size, firstReleaseDate: first, lastReleaseDate: last,
    };
  });

  const cards = up.cards.map((c) =>
    toCardRow(c, cardAlt.get(c.id) ?? null, regionOf.get(c.set_id) ?? null, setById.get(c.set_id), labels.get(c.set_id)!),
  );

  const series = toSeriesRows(up, labels, cardsBySet);

  const sealed = toSealedRows(up.sealed, setById, labels);

  const images: ImageRow[] = [];
  for (const c of up.cards) {
    if (c.images?.small) images.push({ ownerKind: "card", ownerId: c.id, face: "FRONT", size: "SMALL", sourceUrl: c.images.small });
    if (c.images?.large) images.push({ ownerKind: "card", ownerId: c.id, face: "FRONT", size: "LARGE", sourceUrl: c.images.large });
  }
  for (const s of up.sets) {
    if (s.images?.logo) images.push({ ownerKind: "set", ownerId: s.id, face: "LOGO", size: "NORMAL", sourceUrl: s.images.logo });
    if (s.images?.symbol) images.push({ ownerKind: "set", ownerId: s.id, face: "SYMBOL", size: "NORMAL", sourceUrl: s.images.symbol });
  }

  return { series, sets, cards, artists, sealed, images };
}

/** Every name of a set (all languages, the unofficial English one too), searchable as one string. */
function setSearchName(s: UpstreamSet): string {
  const all = [s.name, ...Object.values(s.names ?? {}), s.name_en_unofficial].filter((n): n is string => !!n);
  return [...new Set(all.map(wordKey))].join(" | ");
}

function toSeriesRows(up: Upstream, labels: Map<string, SeriesLabel>, cardsBySet: Map<string, UpstreamCard[]>): SeriesRow[] {
  // Translations come from the upstream series of the same English name, where one exists.
  const namesByName = new Map(up.series.filter((s) => s.region === "international").map((s) => [s.name, s.names ?? {}]));
  const groups = new Map<string, { label: SeriesLabel; sets: UpstreamSet[] }>();
  for (const s of up.sets) {
    const label = labels.get(s.id)!;
    const g = groups.get(label.id) ?? { label, sets: [] };
    g.sets.push(s);
    groups.set(label.id, g);
  }
  return [...groups.values()].map(({ label, sets }) => {
    const [first, last] = minMax(sets.map((x) => x.release_date));
    return {
      id: label.id, name: label.name, nameFolded: wordKey(label.name),
      names: { ...(namesByName.get(label.name) ?? {}), en: label.name },
      setCount: sets.length, cardCount: sets.reduce((n, x) => n + (cardsBySet.get(x.id)?.length ?? 0), 0),
      firstReleaseDate: first, lastReleaseDate: last,
    };
  });
}

function toSetRow(s: UpstreamSet, altId: string | null, cardCount: number, series: SeriesLabel, blockName: string | undefined): SetRow {
  return {
    id: s.id, idLower: s.id.toLowerCase(), altId, ptcgoCode: s.ptcgo_code?.toUpperCase() ?? null,
    name: s.name, nameFolded: setSearchName(s), names: s.names ?? {}, seriesId: series.id, printRegion: printRegion(s),
    printedTotal: s.printed_total ?? null, total: s.total ?? null, cardCount, releaseDate: s.release_date ?? null,
    languages: s.card_languages ?? Object.keys(s.names ?? {}), legalities: s.legalities ?? null,
    images: s.images ?? null,
    attrs: compact({
      source: s.source, ptcg_id: s.ptcg_id, tcgdex_id: s.tcgdex_id, block_id: s.series_id, block_name: blockName,
      name_en_unofficial: s.name_en_unofficial, release_dates: s.release_dates, tcg_online_code: s.tcg_online_code,
      abbreviations: s.abbreviations, tcgplayer_group_id: s.tcgplayer_group_id,
      cardmarket_expansion_id: s.cardmarket_expansion_id,
    }),
  };
}

function toCardRow(
  c: UpstreamCard, altId: string | null, region: PrintRegion | null, set: UpstreamSet | undefined, series: SeriesLabel,
): CardRow {
  const allNames = [c.name, ...Object.values(c.names)];
  // Some upstream rows credit an empty string: no artist.
  const artist = c.artist?.trim() || null;
  const extra = c as Record<string, unknown>;
  return {
    id: c.id, idLower: c.id.toLowerCase(), altId, setId: c.set_id, seriesId: series.id, printRegion: region,
    number: c.number, numberSort: numberSort(c.number), localId: c.local_id ?? null,
    printedTotal: c.printed_total ?? set?.printed_total ?? null, name: c.name, names: c.names,
    nameTerms: [...new Set(allNames.flatMap(words))],
    nameKeys: [...new Set(allNames.map(wordKey))],
    supertype: c.supertype ?? null, supertypeLc: c.supertype ? fold(c.supertype) : null,
    subtypes: c.subtypes ?? [], types: c.types ?? [],
    typesLc: (c.types ?? []).map(fold), subtypesLc: (c.subtypes ?? []).map(fold),
    hp: c.hp ?? null, rarity: c.rarity ?? null, rarityLc: c.rarity ? fold(c.rarity) : null, artist,
    artistSlug: artist ? artistSlug(artist) : null, nationalDex: c.national_pokedex_numbers ?? [],
    regulationMark: c.regulation_mark ?? null, releaseDate: c.release_date ?? set?.release_date ?? null,
    languages: c.languages ?? Object.keys(c.names),
    attrs: compact({
      source: c.source, ptcg_id: c.ptcg_id, tcgdex_id: c.tcgdex_id, level: c.level,
      evolves_from: c.evolves_from, evolves_to: c.evolves_to, flavor_text: c.flavor_text,
      // Gameplay text is English for international cards, the first Asian language otherwise.
      text_lang: c.region === "asia" ? (c.languages?.[0] ?? Object.keys(c.names)[0]) : "en",
      abilities: c.abilities, attacks: c.attacks, weaknesses: c.weaknesses, resistances: c.resistances,
      retreat_cost: c.retreat_cost, converted_retreat_cost: c.converted_retreat_cost, rules: c.rules,
      ancient_trait: extra.ancient_trait, legalities: c.legalities, variants: c.variants,
      variants_detailed: extra.variants_detailed, rarity_tcgdex: c.rarity_tcgdex,
      tcgplayer_product_id: extra.tcgplayer_product_id, cardmarket_product_id: extra.cardmarket_product_id,
      cardtrader_id: extra.cardtrader_id,
    }),
  };
}

/**
 * SKU: `<SET>-<TCGplayer product id>`. TCGplayer lists some products under two sets, so the
 * product id alone is not unique; the pair is. A pair seen twice falls back to the slug.
 */
function toSealedRows(list: UpstreamSealed[], setById: Map<string, UpstreamSet>, labels: Map<string, SeriesLabel>): SealedRow[] {
  const skuOf = (p: UpstreamSealed) =>
    p.tcgplayer_product_id ? `${(p.set_id ?? "misc").toUpperCase()}-${p.tcgplayer_product_id}` : p.id.toUpperCase();
  const seen = new Map<string, number>();
  for (const p of list) seen.set(skuOf(p).toLowerCase(), (seen.get(skuOf(p).toLowerCase()) ?? 0) + 1);
  return list.map((p) => {
    const sku = seen.get(skuOf(p).toLowerCase())! > 1 ? p.id.toUpperCase() : skuOf(p);
    const extra = p as Record<string, unknown>;
    const setId = p.set_id && setById.has(p.set_id) ? p.set_id : null;
    return {
      slug: p.id, sku, name: p.name, nameFolded: wordKey(p.name), names: p.names ?? { en: p.name },
      productType: p.product_type, setId, seriesId: setId ? labels.get(setId)!.id : null, releaseDate: p.set_release_date ?? null,
      tcgplayerProductId: p.tcgplayer_product_id ?? null,
      attrs: compact({
        set_name: p.set_name, pack_count: p.pack_count, cards_per_pack: p.cards_per_pack,
        exclusive: extra.exclusive, exclusive_retailer: extra.exclusive_retailer, variants: extra.variants,
        is_code_card: extra.is_code_card,
      }),
    };
  });
}
