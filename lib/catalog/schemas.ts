import { z } from "zod";
import { IndexObject, QuoteObject } from "@/lib/prices/schemas";
import {
  cursorParam, includeParam, langParam, limitParam, orderByAlias, orderByParam, qParam, selectParam,
} from "@/lib/api/params";
import { CARD_FIELDS, CARD_INCLUDES } from "./cards/present";
import { CARD_LANGUAGES, PRINT_REGIONS } from "@/lib/query";
import { CARD_SORT } from "./cards/sort";
import { listedKeys } from "@/lib/api/paging";

// Request and response shapes of the catalogue routes. Route files pick these up; the
// OpenAPI document is generated from the same objects.

const ts = z.string().meta({ description: "RFC 3339 timestamp" });
const date = z.string().nullable().meta({ description: "YYYY-MM-DD" });
export const CARD_SORT_KEYS = listedKeys(CARD_SORT);
const CARD_EXTRA_SORT = "Also accepted with include=index (or include=prices): change_7d_pct and change_30d_pct, the index's move in percent, nulls first when descending.";

export const regionParam = z.enum(PRINT_REGIONS).optional().meta({ description: "Print region: WEST, JP, CN or KR." });

const Q_HELP = "Lucene-style search: field:value, \"phrases\", * and ? wildcards, !exact, [a TO b] and {a TO b} ranges, " +
  ">= <= > <, -/NOT, AND/OR, parentheses. Fields: name, number, rarity, supertype, subtypes, types, hp, artist, " +
  "national_pokedex_numbers, release_date, regulation_mark, languages, id, set.code, set.region, set.series, set.name, " +
  "index_eur (alias price: the composite index in EUR, e.g. price:>=10 or price:[5 TO 20]; price:* has an index; " +
  "amounts take at most 2 decimals; a card without an index matches no bound; on the trial, the index of the English, ungraded rows it is shown). " +
  "A bare word searches names in every language. set.region takes WEST, JP, CN or KR, and languages one of " +
  `${CARD_LANGUAGES.join(", ")}; another value is 400 INVALID_PARAMETER naming the valid ones. ` +
  "A q that does not parse or names an unknown field is 400 INVALID_QUERY.";

const PRICES_INCLUDE_INDEX = "include=prices includes the index: index_eur and last_price_at are present (null without an index), " +
  "change_7d_pct and change_30d_pct when a select names them, and all four can be sorted on, as with include=index. " +
  "A trial key is shown, sorted and paged by the index of the rows it sees (English, ungraded), null where it sees none.";

const cardListShape = {
  q: qParam(Q_HELP).meta({ example: "name:char* set.region:WEST" }),
  region: regionParam,
  orderBy: orderByParam(CARD_SORT_KEYS, "id", CARD_EXTRA_SORT),
  order_by: orderByAlias,
  limit: limitParam(),
  cursor: cursorParam,
  select: selectParam(CARD_FIELDS),
  include: includeParam(CARD_INCLUDES, PRICES_INCLUDE_INDEX),
  lang: langParam,
};

export const CardListQuery = z.strictObject(cardListShape);
export const SetCardsQuery = z.strictObject({
  ...cardListShape,
  q: qParam(`Further filter inside the set. ${Q_HELP}`).meta({ example: "number:4" }),
  orderBy: orderByParam(CARD_SORT_KEYS, "number", CARD_EXTRA_SORT),
});
export const CardGetQuery = z.strictObject({ select: cardListShape.select, include: cardListShape.include, lang: langParam });
export const CardBatchQuery = z.strictObject({
  ids: z.string().min(1).max(20000).meta({ description: "Comma-separated card ids or alternate ids, at most 100.", example: "base1-4,sv3pt5-6" }),
  select: cardListShape.select,
  include: cardListShape.include,
  lang: langParam,
});

export const CardIdParams = z.object({ id: z.string().min(1).max(200).meta({ description: "Card id or alternate id.", example: "base1-4" }) });
export const SealedIdParams = z.object({ id: z.string().min(1).max(300).meta({ description: "SKU or slug.", example: "SV9-623628" }) });
export const SetCodeParams = z.object({ code: z.string().min(1).max(200).meta({ description: "Set code, slug, alternate id or printed code.", example: "base1" }) });

const SetSummary = z.object({
  id: z.string().meta({ description: "The set's code (base1, sv3pt5, tcgdex-asia-SV2a): the prefix of its cards' ids." }),
  name: z.string().meta({ description: "In the set's own language: Japanese, Chinese, … for Asian sets (name_en gives an English one where there is one)." }),
  series: z.object({ id: z.string(), name: z.string() }),
  print_region: z.enum(PRINT_REGIONS).nullable().meta({ description: "Where the set was printed: WEST (international), JP (Japanese, and the Thai and Indonesian editions of Japanese sets), CN or KR. Null only before a catalogue import has classified the set." }),
  release_date: date,
  printed_total: z.number().int().nullable().meta({ description: "The total printed on its cards, the /165 of 4/165; secret rares are numbered past it. Null when unknown." }),
});

export const SetObject = SetSummary.extend({
  block: z.object({ id: z.string(), name: z.string().nullable() }).nullable()
    .meta({ description: "The upstream's finer grouping (a Japanese block such as asia-SV, or a tcgdex series)." }),
  code: z.string().meta({ description: "Same value as id." }),
  slug: z.string().meta({ description: "The code in lower case; set routes accept either." }),
  alt_id: z.string().nullable().meta({ description: "The other upstream's id of the set (tcgdex: sv03.5, asia-SV2a); set routes accept it too." }),
  ptcgo_code: z.string().nullable().meta({ description: "The set code printed on cards or used online (MEW, BS); null when the set has none." }),
  name_en: z.string().nullable().meta({ description: "An English name: the name itself for Western sets, an unofficial translation for most Asian ones; null when there is none." }),
  total: z.number().int().nullable().meta({ description: "Every card of the set, secret rares included, as pokemontcg.io counts them; null for sets only tcgdex has." }),
  card_count: z.number().int().meta({ description: "The set's cards in this catalogue: print variants are rows of their own, so it can exceed printed_total." }),
  languages: z.array(z.string()).meta({ description: "The languages its cards exist in (en, fr, ja, zh-tw, …)." }),
  images: z.object({ logo: z.string().nullable(), symbol: z.string().nullable() }),
  updated_at: ts, created_at: ts,
}).meta({ id: "Set" });

export const ArtistObject = z.object({
  slug: z.string().meta({ description: "Identifier, from the name (ken-sugimori)." }), name: z.string().meta({ description: "As most of the artist's cards print it." }),
  card_count: z.number().int().meta({ description: "Cards credited to the artist." }), set_count: z.number().int().meta({ description: "Sets holding at least one of them." }),
  first_release_date: date, last_release_date: date, updated_at: ts,
}).meta({ id: "Artist" });

export const CardObject = z.object({
  id: z.string().meta({ description: "Primary id, mostly the set's code and the collector number (base1-4, tcgdex-asia-SV2D-017)." }),
  alt_id: z.string().nullable().meta({ description: "Alternate id, `<alt_set_code>-<number>`; resolves on card routes." }),
  name: z.string().meta({ description: "In English when the card has an English name, else in its first language (lang= picks another)." }),
  number: z.string().meta({ description: "Collector number as printed (4, TG01, 017)." }),
  printed_total: z.number().int().nullable().meta({ description: "The set's total printed beside the number, the /102; null when unknown." }),
  supertype: z.string().nullable().meta({ description: "Pokémon, Trainer or Energy." }),
  subtypes: z.array(z.string()).meta({ description: "Basic, Stage 2, V, ex, Item, Supporter, …" }),
  types: z.array(z.string()).meta({ description: "Energy types (Fire, Water, …)." }),
  hp: z.number().int().nullable().meta({ description: "Hit points; null on cards without any (most Trainers and Energy)." }),
  rarity: z.string().nullable().meta({ description: "In pokemontcg.io's words (Rare Holo, Double Rare, …); tcgdex's for cards only tcgdex has." }),
  artist: z.union([z.string(), ArtistObject.extend({ printed_as: z.string() })]).nullable()
    .meta({ description: "The illustrator as printed; an artist object with include=artist." }),
  national_pokedex_numbers: z.array(z.number()).meta({ description: "National Pokédex numbers of the Pokémon on the card." }),
  regulation_mark: z.string().nullable().meta({ description: "The letter printed on modern cards (D … J) that decides format legality; null on older cards." }),
  level: z.string().nullable().meta({ description: "The level printed on older cards (76); null on others." }),
  evolves_from: z.string().nullable().meta({ description: "The name of the Pokémon it evolves from." }),
  evolves_to: z.array(z.string()).meta({ description: "Names it evolves into (from pokemontcg.io only: empty on cards only tcgdex has)." }),
  abilities: z.array(z.record(z.string(), z.unknown())).meta({ description: "Each {name, text, type}." }),
  attacks: z.array(z.record(z.string(), z.unknown())).meta({ description: "Each {name, cost[], converted_energy_cost, damage, text}." }),
  weaknesses: z.array(z.record(z.string(), z.unknown())).meta({ description: "Each {type, value} (×2)." }),
  resistances: z.array(z.record(z.string(), z.unknown())).meta({ description: "Each {type, value} (-30)." }),
  retreat_cost: z.array(z.string()).meta({ description: "One energy type per symbol of the retreat cost." }),
  converted_retreat_cost: z.number().int().nullable().meta({ description: "How many symbols that is." }),
  rules: z.array(z.string()).meta({ description: "Rule boxes, or a Trainer's or Energy's effect text." }),
  ancient_trait: z.record(z.string(), z.unknown()).nullable().meta({ description: "{name, text} on the few cards that have one." }),
  flavor_text: z.string().nullable().meta({ description: "The Pokédex text printed at the foot." }),
  text_language: z.string().nullable().meta({ description: "Language of the gameplay texts." }),
  variants: z.record(z.string(), z.boolean()).nullable().meta({ description: "Which printings exist, as tcgdex reports them: {normal, reverse, holo, first_edition}; null when unknown." }),
  marketplace_ids: z.object({ tcgplayer: z.number().nullable(), cardmarket: z.number().nullable(), cardtrader: z.number().nullable() }).meta({ description: "The card's product ids at each marketplace, to join their data; null where the catalogue has none." }),
  languages: z.array(z.string()).meta({ description: "The languages the card exists in (en, fr, ja, …); translations has their names." }),
  release_date: date,
  set: z.union([SetSummary, SetObject]).meta({ description: "A summary of the set; the full set with include=set." }),
  updated_at: ts,
  created_at: ts,
  index_eur: z.number().nullable().optional()
    .meta({ description: "Composite price index in EUR; with include=index or include=prices, null when the card has none. On the trial, the index of the rows it sees (null for a card priced only in other languages), which its sorts and price terms use too." }),
  last_price_at: ts.nullable().optional()
    .meta({ description: "Newest observation behind the index; with include=index or include=prices, null when the card has none." }),
  change_7d_pct: z.number().nullable().optional()
    .meta({ description: "The index's change in percent over 7 days, as GET /v1/prices/movers?window=7d computes it (refreshed with the index); with include=index or include=prices when a select names it (select=change_7d_pct), null without an index point by the window's start. A sort key (orderBy=-change_7d_pct: nulls first)." }),
  change_30d_pct: z.number().nullable().optional()
    .meta({ description: "The same over 30 days (window=30d), also only when a select names it." }),
  translations: z.record(z.string(), z.object({ name: z.string() })).optional().meta({ description: "include=translations" }),
  images: z.array(z.object({
    face: z.string(), size: z.enum(["SMALL", "NORMAL", "LARGE"]), url: z.string(),
    origin: z.enum(["upstream", "scan", "rendered"]).meta({ description: "upstream: the catalogue's image (hosted elsewhere until the images job stores it); scan: an operator's scan; rendered: a synthetic face drawn from the card's data, not a photograph." }),
    width: z.number().int().nullable(), height: z.number().int().nullable(),
  })).optional()
    .meta({ description: "include=images: the front, once stored served by the app in SMALL (245 px wide), NORMAL (488) and LARGE (734); until then the catalogue's links in its sizes (often SMALL and LARGE, no width), or the app's links to a rendered face." }),
  prices: z.object({ index: IndexObject, quotes: z.array(QuoteObject) }).optional()
    .meta({ description: "include=prices: the rows and index of GET /v1/cards/{id}/prices for the caller's plan." }),
}).partial().required({ id: true }).meta({ id: "Card", description: "Fields absent from the answer were not selected or not included." });

export const SeriesObject = z.object({
  id: z.string().meta({ description: "The slug; the set list's series filter takes it." }), slug: z.string().meta({ description: "Same value as id." }), name: z.string(), set_count: z.number().int(),
  card_count: z.number().int().meta({ description: "Cards of all its sets." }), first_release_date: date, last_release_date: date, updated_at: ts,
}).meta({ id: "Series" });

export const SealedObject = z.object({
  id: z.string().meta({ description: "Same value as slug." }), sku: z.string().meta({ description: "The set's id in capitals (MISC without a set) and the TCGplayer product id: SV9-623628; the slug in capitals where that pair is not unique. The routes accept it or the slug." }),
  slug: z.string(), name: z.string(), names: z.record(z.string(), z.string()).meta({ description: "The name by locale." }),
  product_type: z.string().meta({ description: "booster-box, booster-pack, elite-trainer-box, … (GET /v1/sealed lists them under product_type); inferred from the name upstream." }),
  set: z.object({ id: z.string(), name: z.string().nullable() }).nullable(),
  series_id: z.string().nullable(), release_date: date,
  pack_count: z.number().nullable().meta({ description: "Booster packs inside, inferred from the name upstream (every booster box is given 36): check before relying on it." }),
  cards_per_pack: z.number().nullable().meta({ description: "Inferred the same way." }),
  exclusive: z.boolean().meta({ description: "A retailer exclusive, as the upstream listing says (exclusive_retailer names the retailer when known)." }), exclusive_retailer: z.string().nullable(),
  variants: z.array(z.string()).meta({ description: "The bracketed variants in the product's name." }),
  is_code_card: z.boolean().meta({ description: "A listing of digital code cards, not a physical product." }),
  tcgplayer_product_id: z.number().nullable().meta({ description: "TCGplayer's product id, to join its data." }), images: z.array(z.unknown()), updated_at: ts, created_at: ts,
  index_eur: z.number().nullable().optional().meta({ description: "Composite price index in EUR; with include=index or include=prices." }),
  last_price_at: ts.nullable().optional().meta({ description: "Newest observation behind the index; with include=index or include=prices." }),
  prices: z.object({ index: IndexObject, quotes: z.array(QuoteObject) }).optional()
    .meta({ description: "include=prices (which also adds index_eur and last_price_at)" }),
}).meta({ id: "SealedProduct" });
