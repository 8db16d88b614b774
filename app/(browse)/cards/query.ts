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

/**
 * Sorts offered: the list's orderBy (the API's own keys), whether only priced cards take part,
 * and for the change sorts the window whose move a card needs to take part (and is shown).
 */
export const SORTS = {
  catalogue: { label: "Catalogue order", orderBy: "set,number", priced: false },
  number: { label: "Number", orderBy: "number,set", priced: false },
  name: { label: "Name", orderBy: "name,set,number", priced: false },
  price: { label: "Highest price first", orderBy: "-index_eur", priced: true },
  "price-asc": { label: "Lowest price first", orderBy: "index_eur", priced: true },
  "rise-7d": { label: "Biggest 7d rise", orderBy: "-change_7d_pct", priced: true, change: "7d" },
  "fall-7d": { label: "Biggest 7d fall", orderBy: "change_7d_pct", priced: true, change: "7d" },
  "rise-30d": { label: "Biggest 30d rise", orderBy: "-change_30d_pct", priced: true, change: "30d" },
  "fall-30d": { label: "Biggest 30d fall", orderBy: "change_30d_pct", priced: true, change: "30d" },
  release: { label: "Newest release first", orderBy: "-release_date,set,number", priced: false },
  "release-asc": { label: "Oldest release first", orderBy: "release_date,set,number", priced: false },
} as const satisfies Record<string, { label: string; orderBy: string; priced: boolean; change?: "7d" | "30d" }>;
export const changeOf = (s: SortName): "7d" | "30d" | undefined => ("change" in SORTS[s] ? (SORTS[s] as { change: "7d" | "30d" }).change : undefined);
export type SortName = keyof typeof SORTS;
// Own keys only: `constructor` or `__proto__` is in every object.
export const sortOf = (s: string | undefined): SortName => (s && Object.hasOwn(SORTS, s) ? (s as SortName) : "catalogue");

/** A value as one q term: quoted when it holds anything but letters, digits and . - _ */
export function qValue(v: string): string {
  const t = v.trim().replace(/["\\]/g, "");
  return /^[\p{L}\p{N}._-]+$/u.test(t) ? t : `"${t}"`;
}

/**
 * The price range's bounds (EUR) as one q term on the composite index: `price:[5 TO 20]`,
 * `price:>=5`, `price:<=20`. A bound that is not an amount (letters, a minus sign) is passed
 * through as typed, so the API's INVALID_QUERY names it instead of the page dropping it.
 */
export function priceTerm(min: string | undefined, max: string | undefined): string | undefined {
  const lo = amount(min);
  const hi = amount(max);
  if (lo && hi) return `price:[${lo} TO ${hi}]`;
  if (lo) return `price:>=${lo}`;
  if (hi) return `price:<=${hi}`;
  return undefined;
}

function amount(v: string | undefined): string | undefined {
  const t = v?.trim().replace(/^€\s*/, "").replace(",", ".");
  if (!t) return undefined;
  // 5.0 → 5, 2.50 → 2.5: what the q shows reads like a price.
  return /^\d{1,9}(\.\d{1,2})?$/.test(t) ? String(Number(t)) : qValue(t);
}

/** What was typed, ANDed with one term per filter set; a typed OR is kept whole in parentheses. */
export function composeQuery(
  typed: string | undefined, filters: Partial<Record<FilterParam, string | undefined>>, price: { min?: string; max?: string } = {},
): string {
  const parts: string[] = [];
  const own = typed?.trim();
  if (own) parts.push(/\bOR\b/.test(own) ? `(${own})` : own);
  for (const { param, field } of FILTERS) {
    const v = filters[param]?.trim();
    if (v) parts.push(`${field}:${qValue(v)}`);
  }
  const p = priceTerm(price.min, price.max);
  if (p) parts.push(p);
  return parts.join(" ");
}
