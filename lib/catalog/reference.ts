// The reference vocabularies (SPEC.md "Reference vocabularies"). Filters built from these
// values are never rejected as unsupported.
export const REFERENCE = {
  locales: ["en", "ja", "zh", "fr", "de", "es", "it", "pt", "ko"],
  currencies: ["EUR", "USD", "GBP", "JPY"],
  print_regions: ["WEST", "JP", "CN", "KR"],
  conditions: ["MINT", "NEAR_MINT", "EXCELLENT", "GOOD", "LIGHT_PLAYED", "PLAYED", "POOR"],
  printings: ["NORMAL", "HOLOFOIL", "REVERSE_HOLO", "FIRST_EDITION", "FIRST_EDITION_HOLOFOIL"],
  grading_companies: ["PSA", "BGS", "CGC", "SGC", "TAG", "ACE"],
  price_variants: ["LOW", "MARKET", "TREND", "AVG_1D", "AVG_7D", "AVG_30D", "MEDIAN_GRADED", "INDEX"],
  price_bases: ["SOLD", "ASKING", "GUIDE", "DERIVED"],
  change_kinds: ["CARD", "SET", "SEALED", "PRICE", "IMAGE"],
  image_faces: ["FRONT", "BACK", "ART", "LOGO", "SYMBOL"],
  image_sizes: ["SMALL", "NORMAL", "LARGE"],
} as const;

export function getReference() {
  return { body: { data: REFERENCE } };
}
