import { z } from "zod";
import { IndexObject, QuoteObject } from "@/lib/prices/schemas";
import {
  cursorParam, includeParam, langParam, limitParam, orderByAlias, orderByParam, qParam, selectParam,
} from "@/lib/api/params";
import { CARD_FIELDS, CARD_INCLUDES } from "./cards/present";
import { CARD_LANGUAGES, PRINT_REGIONS } from "@/lib/query";
import { CARD_SORT } from "./cards/sort";

// Request and response shapes of the catalogue routes. Route files pick these up; the
// OpenAPI document is generated from the same objects.

const ts = z.string().meta({ description: "RFC 3339 timestamp" });
const date = z.string().nullable().meta({ description: "YYYY-MM-DD" });
export const CARD_SORT_KEYS = Object.keys(CARD_SORT.keys);

export const regionParam = z.enum(PRINT_REGIONS).optional().meta({ description: "Print region: WEST, JP, CN or KR." });

const Q_HELP = "Lucene-style search: field:value, \"phrases\", * and ? wildcards, !exact, [a TO b] and {a TO b} ranges, " +
  ">= <= > <, -/NOT, AND/OR, parentheses. Fields: name, number, rarity, supertype, subtypes, types, hp, artist, " +
  "national_pokedex_numbers, release_date, regulation_mark, languages, id, set.code, set.region, set.series, set.name, " +
  "index_eur (alias price: the composite index in EUR, e.g. price:>=10 or price:[5 TO 20]; price:* has an index; " +
  "amounts take at most 2 decimals; a card without an index matches no bound). " +
  "A bare word searches names in every language. set.region takes WEST, JP, CN or KR, and languages one of " +
  `${CARD_LANGUAGES.join(", ")}; another value is 400 INVALID_PARAMETER naming the valid ones. ` +
  "A q that does not parse or names an unknown field is 400 INVALID_QUERY.";

const PRICES_INCLUDE_INDEX = "include=prices includes the index: index_eur, last_price_at, change_7d_pct and change_30d_pct are present (null without an index) " +
  "and can be selected and sorted on, as with include=index.";

const cardListShape = {
  q: qParam(Q_HELP).meta({ example: "name:char* set.region:WEST" }),
  region: regionParam,
  orderBy: orderByParam(CARD_SORT_KEYS, "id"),
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
  orderBy: orderByParam(CARD_SORT_KEYS, "number"),
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
  id: z.string(), name: z.string(), series: z.object({ id: z.string(), name: z.string() }),
  print_region: z.enum(PRINT_REGIONS).nullable(), release_date: date, printed_total: z.number().int().nullable(),
});

export const SetObject = SetSummary.extend({
  block: z.object({ id: z.string(), name: z.string().nullable() }).nullable()
    .meta({ description: "The upstream's finer grouping (a Japanese block such as asia-SV, or a tcgdex series)." }),
  code: z.string(), slug: z.string(), alt_id: z.string().nullable(), ptcgo_code: z.string().nullable(),
  name_en: z.string().nullable(), total: z.number().int().nullable(), card_count: z.number().int(),
  languages: z.array(z.string()), images: z.object({ logo: z.string().nullable(), symbol: z.string().nullable() }),
  updated_at: ts, created_at: ts,
}).meta({ id: "Set" });

export const ArtistObject = z.object({
  slug: z.string(), name: z.string(), card_count: z.number().int(), set_count: z.number().int(),
  first_release_date: date, last_release_date: date, updated_at: ts,
}).meta({ id: "Artist" });

export const CardObject = z.object({
  id: z.string(),
  alt_id: z.string().nullable().meta({ description: "Alternate id, `<alt_set_code>-<number>`; resolves on card routes." }),
  name: z.string(),
  number: z.string(),
  printed_total: z.number().int().nullable(),
  supertype: z.string().nullable(),
  subtypes: z.array(z.string()),
  types: z.array(z.string()),
  hp: z.number().int().nullable(),
  rarity: z.string().nullable(),
  artist: z.union([z.string(), ArtistObject.extend({ printed_as: z.string() })]).nullable()
    .meta({ description: "The illustrator as printed; an artist object with include=artist." }),
  national_pokedex_numbers: z.array(z.number()),
  regulation_mark: z.string().nullable(),
  level: z.string().nullable(),
  evolves_from: z.string().nullable(),
  evolves_to: z.array(z.string()),
  abilities: z.array(z.record(z.string(), z.unknown())),
  attacks: z.array(z.record(z.string(), z.unknown())),
  weaknesses: z.array(z.record(z.string(), z.unknown())),
  resistances: z.array(z.record(z.string(), z.unknown())),
  retreat_cost: z.array(z.string()),
  converted_retreat_cost: z.number().int().nullable(),
  rules: z.array(z.string()),
  ancient_trait: z.record(z.string(), z.unknown()).nullable(),
  flavor_text: z.string().nullable(),
  text_language: z.string().nullable().meta({ description: "Language of the gameplay texts." }),
  variants: z.record(z.string(), z.boolean()).nullable(),
  marketplace_ids: z.object({ tcgplayer: z.number().nullable(), cardmarket: z.number().nullable(), cardtrader: z.number().nullable() }),
  languages: z.array(z.string()),
  release_date: date,
  set: z.union([SetSummary, SetObject]).meta({ description: "A summary of the set; the full set with include=set." }),
  updated_at: ts,
  created_at: ts,
  index_eur: z.number().nullable().optional()
    .meta({ description: "Composite price index in EUR; with include=index or include=prices, null when the card has none." }),
  last_price_at: ts.nullable().optional()
    .meta({ description: "Newest observation behind the index; with include=index or include=prices, null when the card has none." }),
  change_7d_pct: z.number().nullable().optional()
    .meta({ description: "The index's change in percent over 7 days, as GET /v1/prices/movers?window=7d computes it (refreshed with the index); with include=index or include=prices, null without an index point by the window's start. A sort key (orderBy=-change_7d_pct: nulls first)." }),
  change_30d_pct: z.number().nullable().optional()
    .meta({ description: "The same over 30 days (window=30d)." }),
  translations: z.record(z.string(), z.object({ name: z.string() })).optional().meta({ description: "include=translations" }),
  images: z.array(z.object({
    face: z.string(), size: z.enum(["SMALL", "NORMAL", "LARGE"]), url: z.string(),
    origin: z.enum(["upstream", "scan", "rendered"]).meta({ description: "upstream: the catalogue's image (hosted elsewhere until the images job stores it); scan: an operator's scan; rendered: a synthetic face drawn from the card's data, not a photograph." }),
    width: z.number().int().nullable(), height: z.number().int().nullable(),
  })).optional()
    .meta({ description: "include=images: the front in SMALL (245 px wide), NORMAL (488) and LARGE (734), served by the app once stored." }),
  prices: z.object({ index: IndexObject, quotes: z.array(QuoteObject) }).optional()
    .meta({ description: "include=prices: the rows and index of GET /v1/cards/{id}/prices for the caller's plan." }),
}).partial().required({ id: true }).meta({ id: "Card", description: "Fields absent from the answer were not selected or not included." });

export const SeriesObject = z.object({
  id: z.string(), slug: z.string(), name: z.string(), set_count: z.number().int(),
  card_count: z.number().int(), first_release_date: date, last_release_date: date, updated_at: ts,
}).meta({ id: "Series" });

export const SealedObject = z.object({
  id: z.string(), sku: z.string(), slug: z.string(), name: z.string(), names: z.record(z.string(), z.string()),
  product_type: z.string(), set: z.object({ id: z.string(), name: z.string().nullable() }).nullable(),
  series_id: z.string().nullable(), release_date: date, pack_count: z.number().nullable(), cards_per_pack: z.number().nullable(),
  exclusive: z.boolean(), exclusive_retailer: z.string().nullable(), variants: z.array(z.string()), is_code_card: z.boolean(),
  tcgplayer_product_id: z.number().nullable(), images: z.array(z.unknown()), updated_at: ts, created_at: ts,
  index_eur: z.number().nullable().optional().meta({ description: "Composite price index in EUR; with include=index or include=prices." }),
  last_price_at: ts.nullable().optional().meta({ description: "Newest observation behind the index; with include=index or include=prices." }),
  prices: z.object({ index: IndexObject, quotes: z.array(QuoteObject) }).optional()
    .meta({ description: "include=prices (which also adds index_eur and last_price_at)" }),
}).meta({ id: "SealedProduct" });
