import type { Lang } from "@/lib/api/params";
import { project } from "@/lib/api/select";
import { localName, presentSet } from "@/lib/catalog/present";
import type { CardDbRow, CardImageRow } from "@/lib/catalog/queries/cards";
import type { Account } from "@/lib/accounts/types";
import { presentImages } from "@/lib/images/present";
import { planIndexFields } from "@/lib/prices/embed";

export const CARD_INCLUDES = ["index", "prices", "translations", "images", "set", "artist"] as const;
export type CardInclude = (typeof CARD_INCLUDES)[number];

/** Every field a card can carry, in answer order. `select` accepts exactly these. */
export const CARD_FIELDS = [
  "id", "alt_id", "name", "number", "printed_total", "supertype", "subtypes", "types", "hp", "rarity", "artist",
  "national_pokedex_numbers", "regulation_mark", "level", "evolves_from", "evolves_to", "abilities", "attacks",
  "weaknesses", "resistances", "retreat_cost", "converted_retreat_cost", "rules", "ancient_trait", "flavor_text",
  "text_language", "variants", "marketplace_ids", "languages", "release_date", "set", "updated_at", "created_at",
  "index_eur", "last_price_at", "change_7d_pct", "change_30d_pct", "translations", "images", "prices",
] as const;

/** Fields that exist only when their include is asked for. */
export const FIELD_INCLUDE: Partial<Record<string, CardInclude>> = {
  index_eur: "index", last_price_at: "index", change_7d_pct: "index", change_30d_pct: "index", translations: "translations", images: "images", prices: "prices",
};

/** Include groups whose data this deployment cannot serve yet; they are reported in meta.withheld. */
export const UNAVAILABLE_INCLUDES: ReadonlySet<CardInclude> = new Set([]);

export type CardView = {
  lang?: Lang; include: Set<CardInclude>; select?: Set<string>; images?: Map<string, CardImageRow[]>;
  /**
   * include=prices: the same rows as GET /v1/cards/{id}/prices, for the caller's plan; also read
   * with include=index alone on a plan that withholds rows (the trial), for its own index.
   */
  prices?: Map<string, { index: { eur: number; as_of: string } | null; quotes: unknown[] }>;
  account?: Account;
  /** The index's moves without a select naming them (the collector pages). */
  changes?: boolean;
};

export function setOfCard(r: CardDbRow, lang?: Lang) {
  return presentSet({
    id: r.set_id, alt_id: r.s_alt_id, ptcgo_code: r.s_ptcgo_code, name: r.s_name, names: r.s_names,
    series_id: r.s_series_id, series_name: r.s_series_name, series_names: r.s_series_names, print_region: r.s_print_region,
    printed_total: r.s_printed_total, total: r.s_total, card_count: r.s_card_count, release_date: r.s_release_date,
    languages: r.s_languages, images: r.s_images, block_id: r.s_block_id, block_name: r.s_block_name,
    name_en_unofficial: r.s_name_en_unofficial, created_at: r.s_created_at, updated_at: r.s_updated_at,
  }, lang);
}

export function presentCard(r: CardDbRow, view: CardView): Record<string, unknown> {
  const a = r.attrs;
  const inc = view.include;
  const fullSet = setOfCard(r, view.lang);
  const set = inc.has("set")
    ? fullSet
    : {
        id: fullSet.id, name: fullSet.name, series: fullSet.series,
        print_region: fullSet.print_region, release_date: fullSet.release_date, printed_total: fullSet.printed_total,
      };
  const artist = inc.has("artist") && r.artist
    ? {
        slug: r.artist_slug, name: r.a_name ?? r.artist, printed_as: r.artist, card_count: r.a_card_count,
        set_count: r.a_set_count, first_release_date: r.a_first_release_date, last_release_date: r.a_last_release_date,
        updated_at: r.a_updated_at,
      }
    : r.artist;
  const card: Record<string, unknown> = {
    id: r.id,
    alt_id: r.alt_id,
    name: localName(r.names, r.name, view.lang),
    number: r.number,
    printed_total: r.printed_total,
    supertype: r.supertype,
    subtypes: r.subtypes,
    types: r.types,
    hp: r.hp,
    rarity: r.rarity,
    artist,
    national_pokedex_numbers: r.national_pokedex_numbers,
    regulation_mark: r.regulation_mark,
    level: a.level ?? null,
    evolves_from: a.evolves_from ?? null,
    evolves_to: a.evolves_to ?? [],
    abilities: a.abilities ?? [],
    attacks: a.attacks ?? [],
    weaknesses: a.weaknesses ?? [],
    resistances: a.resistances ?? [],
    retreat_cost: a.retreat_cost ?? [],
    converted_retreat_cost: a.converted_retreat_cost ?? null,
    rules: a.rules ?? [],
    ancient_trait: a.ancient_trait ?? null,
    flavor_text: a.flavor_text ?? null,
    text_language: a.text_lang ?? null,
    variants: a.variants ?? null,
    marketplace_ids: {
      tcgplayer: a.tcgplayer_product_id ?? null,
      cardmarket: a.cardmarket_product_id ?? null,
      cardtrader: a.cardtrader_id ?? null,
    },
    languages: r.languages,
    release_date: r.release_date,
    set,
    updated_at: r.updated_at,
    created_at: r.created_at,
  };
  if (inc.has("index")) {
    // include=index adds index_eur and last_price_at (SPEC.md set cards rule 1); the moves
    // come only when a select names them, so an unselected row holds exactly what SPEC.md says.
    card.index_eur = r.index_eur;
    card.last_price_at = r.last_price_at;
    if (view.changes || view.select?.has("change_7d_pct")) card.change_7d_pct = r.change_7d_pct ?? null;
    if (view.changes || view.select?.has("change_30d_pct")) card.change_30d_pct = r.change_30d_pct ?? null;
    const own = view.prices?.get(r.id);
    if (own && view.account) planIndexFields(card, view.account, own.index);
  }
  if (inc.has("translations")) {
    card.translations = Object.fromEntries(Object.entries(r.names).map(([lang, name]) => [lang, { name }]));
  }
  if (inc.has("images")) {
    card.images = presentImages(r.id, view.images?.get(r.id) ?? []);
  }
  if (inc.has("prices")) {
    const p = view.prices?.get(r.id);
    card.prices = { index: p?.index ?? null, quotes: p?.quotes ?? [] };
  }
  return project(card, view.select);
}

/**
 * What a page held back: groups a `select` named without their include, and included
 * groups this deployment has no data for yet.
 */
export function withheldGroups(view: CardView): string[] {
  const out = new Set<string>();
  for (const f of view.select ?? []) {
    const group = FIELD_INCLUDE[f];
    if (group && !view.include.has(group)) out.add(group);
  }
  for (const g of view.include) if (UNAVAILABLE_INCLUDES.has(g)) out.add(g);
  return [...out];
}
