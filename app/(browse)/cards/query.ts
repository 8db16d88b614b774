import { CARD_LANGUAGES, PRINT_REGIONS } from "@/lib/query";

// The collector search's form: the filters a collector picks are written as terms of the API's
// own q language, ANDed with what they typed. The page shows that q, so what a filter does can
// be read, copied into an API call, and edited by hand.

export const REGIONS = PRINT_REGIONS;
export const LANGUAGES = CARD_LANGUAGES;
export const TYPES = ["Grass", "Fire", "Water", "Lightning", "Psychic", "Fighting", "Darkness", "Metal", "Fairy", "Dragon", "Colorless"] as const;
export const RARITIES = [
  "Common", "Uncommon", "Rare", "Rare Holo", "Double Rare", "Ultra Rare", "Illustration Rare", "Special Illustration Rare",
  "Hyper Rare", "Rare Holo EX", "Rare Holo GX", "Rare Holo V", "Rare Secret", "Promo",
] as const;

/** The filter fields of the form, and the q field each writes. */
export const FILTERS = [
  { param: "set", field: "set.code" },
  { param: "series", field: "set.series" },
  { param: "region", field: "set.region" },
  { param: "lang", field: "languages" },
  { param: "rarity", field: "rarity" },
  { param: "type", field: "types" },
] as const;
export type FilterParam = (typeof FILTERS)[number]["param"];

/** Sorts offered: the list's orderBy, and whether only priced cards take part. */
export const SORTS = {
  catalogue: { label: "Catalogue order", orderBy: "set,number", priced: false },
  number: { label: "Number", orderBy: "number,set", priced: false },
  name: { label: "Name", orderBy: "name,set,number", priced: false },
  price: { label: "Highest price first", orderBy: "-index_eur", priced: true },
  "price-asc": { label: "Lowest price first", orderBy: "index_eur", priced: true },
  release: { label: "Newest release first", orderBy: "-release_date,set,number", priced: false },
  "release-asc": { label: "Oldest release first", orderBy: "release_date,set,number", priced: false },
} as const;
export type SortName = keyof typeof SORTS;
export const sortOf = (s: string | undefined): SortName => (s && s in SORTS ? (s as SortName) : "catalogue");

/** A value as one q term: quoted when it holds anything but letters, digits and . - _ */
export function qValue(v: string): string {
  const t = v.trim().replace(/["\\]/g, "");
  return /^[\p{L}\p{N}._-]+$/u.test(t) ? t : `"${t}"`;
}

/** What was typed, ANDed with one term per filter set; a typed OR is kept whole in parentheses. */
export function composeQuery(typed: string | undefined, filters: Partial<Record<FilterParam, string | undefined>>): string {
  const parts: string[] = [];
  const own = typed?.trim();
  if (own) parts.push(/\bOR\b/.test(own) ? `(${own})` : own);
  for (const { param, field } of FILTERS) {
    const v = filters[param]?.trim();
    if (v) parts.push(`${field}:${qValue(v)}`);
  }
  return parts.join(" ");
}
