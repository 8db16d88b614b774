import { z } from "zod";

// The upstream catalogue's contract (../shared/data/catalog/README.md). Unknown extra fields
// are allowed so the upstream can grow; a missing or mistyped field we rely on breaks the
// contract, and the import then changes nothing.
const names = z.record(z.string(), z.string());
const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "expected YYYY-MM-DD");
const region = z.enum(["international", "asia"]);

export const UpstreamSeries = z.looseObject({
  id: z.string().min(1),
  region,
  name: z.string().min(1),
  names: names.optional(),
});

export const UpstreamSet = z.looseObject({
  id: z.string().min(1),
  source: z.string(),
  region,
  tcgdex_id: z.string().min(1).optional(),
  ptcg_id: z.string().optional(),
  name: z.string().min(1),
  names: names.optional(),
  name_en_unofficial: z.string().optional(),
  series: z.string().optional(),
  series_id: z.string().min(1),
  tcgdex_series_id: z.string().optional(),
  printed_total: z.number().int().nonnegative().optional(),
  total: z.number().int().nonnegative().optional(),
  release_date: date.optional(),
  release_dates: z.record(z.string(), z.string()).optional(),
  ptcgo_code: z.string().optional(),
  tcg_online_code: z.string().optional(),
  abbreviations: z.record(z.string(), z.string()).optional(),
  legalities: z.record(z.string(), z.string()).optional(),
  images: z.record(z.string(), z.string()).optional(),
  card_languages: z.array(z.string()).optional(),
  tcgplayer_group_id: z.number().int().optional(),
  cardmarket_expansion_id: z.number().int().optional(),
});

const cost = z.array(z.string());
export const UpstreamCard = z.looseObject({
  id: z.string().min(1),
  source: z.string(),
  region,
  ptcg_id: z.string().optional(),
  tcgdex_id: z.string().optional(),
  set_id: z.string().min(1),
  series_id: z.string().min(1),
  number: z.string().min(1),
  local_id: z.string().optional(),
  printed_total: z.number().int().optional(),
  name: z.string().min(1),
  names: names,
  languages: z.array(z.string()).optional(),
  supertype: z.string().optional(),
  subtypes: z.array(z.string()).optional(),
  level: z.string().optional(),
  hp: z.number().int().optional(),
  types: z.array(z.string()).optional(),
  evolves_from: z.string().optional(),
  evolves_to: z.array(z.string()).optional(),
  rarity: z.string().optional(),
  rarity_tcgdex: z.string().optional(),
  artist: z.string().optional(),
  // Mostly integers; a few forms carry a decimal (384.1), kept as printed upstream.
  national_pokedex_numbers: z.array(z.number()).optional(),
  regulation_mark: z.string().optional(),
  release_date: date.optional(),
  flavor_text: z.string().optional(),
  abilities: z.array(z.looseObject({ name: z.string().optional(), text: z.string().optional() })).optional(),
  attacks: z.array(z.looseObject({ name: z.string().optional(), cost: cost.optional() })).optional(),
  weaknesses: z.array(z.looseObject({ type: z.string() })).optional(),
  resistances: z.array(z.looseObject({ type: z.string() })).optional(),
  retreat_cost: cost.optional(),
  converted_retreat_cost: z.number().int().optional(),
  rules: z.array(z.string()).optional(),
  legalities: z.record(z.string(), z.string()).optional(),
  variants: z.record(z.string(), z.boolean()).optional(),
  images: z.record(z.string(), z.string()).optional(),
});

export const UpstreamSealed = z.looseObject({
  id: z.string().min(1),
  name: z.string().min(1),
  names: names.optional(),
  product_type: z.string().min(1),
  tcgplayer_product_id: z.number().int().optional(),
  set_id: z.string().optional(),
  series_id: z.string().optional(),
  set_name: z.string().optional(),
  set_release_date: date.optional(),
  pack_count: z.number().int().optional(),
  cards_per_pack: z.number().int().optional(),
});

export type UpstreamSeries = z.infer<typeof UpstreamSeries>;
export type UpstreamSet = z.infer<typeof UpstreamSet>;
export type UpstreamCard = z.infer<typeof UpstreamCard>;
export type UpstreamSealed = z.infer<typeof UpstreamSealed>;

export type Upstream = {
  series: UpstreamSeries[];
  sets: UpstreamSet[];
  cards: UpstreamCard[];
  sealed: UpstreamSealed[];
};
