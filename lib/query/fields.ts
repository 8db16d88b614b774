import { snake } from "@/lib/util/text";

// The fields q knows, and how each compares. Names are canonical snake_case; aliases map
// the camelCase and shorter spellings a client may type.

export type FieldKind =
  | "name"      // words of the names in every language
  | "text"      // words of a related record's name (artist, set name)
  | "keyword"   // a printed value, matched whole and case-insensitively
  | "array"     // one of several printed values (types, subtypes, languages)
  | "int" | "float_array" | "date"
  | "price"     // the card's composite index in EUR (null until it has one)
  | "number"    // the printed collector number, with its own rules
  | "region";   // a print region from the reference vocabulary

export type FieldDef = { kind: FieldKind; ranges?: boolean };

export const FIELDS: Record<string, FieldDef> = {
  name: { kind: "name" },
  id: { kind: "keyword" },
  number: { kind: "number", ranges: true },
  rarity: { kind: "keyword" },
  supertype: { kind: "keyword" },
  subtypes: { kind: "array" },
  types: { kind: "array" },
  hp: { kind: "int", ranges: true },
  artist: { kind: "text" },
  national_pokedex_numbers: { kind: "float_array", ranges: true },
  release_date: { kind: "date", ranges: true },
  regulation_mark: { kind: "keyword" },
  languages: { kind: "array" },
  "set.code": { kind: "keyword" },
  "set.region": { kind: "region" },
  "set.series": { kind: "keyword" },
  "set.name": { kind: "text" },
  index_eur: { kind: "price", ranges: true },
};

const ALIASES: Record<string, string> = {
  "set.id": "set.code",
  "set.slug": "set.code",
  set: "set.code",
  "set.print_region": "set.region",
  region: "set.region",
  series: "set.series",
  subtype: "subtypes",
  type: "types",
  language: "languages",
  lang: "languages",
  dex: "national_pokedex_numbers",
  price: "index_eur",
  price_eur: "index_eur",
  national_dex_numbers: "national_pokedex_numbers",
  national_pokedex_number: "national_pokedex_numbers",
};

export const PRINT_REGIONS = ["WEST", "JP", "CN", "KR"] as const;

/**
 * What `languages:` accepts: the reference locales (zh meaning either Chinese script), and the
 * finer codes the catalogue prints on cards (the two Chinese scripts, Latin-American Spanish,
 * and the Thai and Indonesian sets). Anything else is INVALID_PARAMETER, never an empty page.
 */
export const CARD_LANGUAGES = ["en", "ja", "zh", "fr", "de", "es", "it", "pt", "ko", "zh-tw", "zh-cn", "es-mx", "th", "id"] as const;

/** Canonical field name, or undefined for a field q does not know. */
export function resolveField(raw: string): string | undefined {
  const name = raw.split(".").map(snake).join(".");
  const canonical = ALIASES[name] ?? name;
  return canonical in FIELDS ? canonical : undefined;
}

export const FIELD_NAMES = Object.keys(FIELDS);
