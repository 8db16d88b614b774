import { sourceOf } from "./sources";

// Readable words for the API's codes (AVG_1D, FIRST_EDITION_HOLOFOIL, es-mx…) on the collector
// pages, and the thin-market rule: when too few observations stand behind a figure to trust it.
// Pure: no database, no React. An unknown code falls back to a tidied version of itself, never
// to the raw token.

export const VARIANT_LABELS: Record<string, string> = {
  LOW: "Lowest listing",
  MARKET: "Market price",
  TREND: "Trend price",
  AVG_1D: "1-day average",
  AVG_7D: "7-day average",
  AVG_30D: "30-day average",
  MEDIAN_GRADED: "Graded median",
  INDEX: "Composite index",
};

export const PRINTING_LABELS: Record<string, string> = {
  NORMAL: "Normal",
  HOLOFOIL: "Holofoil",
  REVERSE_HOLO: "Reverse holo",
  FIRST_EDITION: "1st edition",
  FIRST_EDITION_HOLOFOIL: "1st edition holofoil",
};

export const BASIS_LABELS: Record<string, string> = {
  SOLD: "Sold",
  ASKING: "Asking",
  GUIDE: "Price guide",
  DERIVED: "Derived",
};

export const CONDITION_LABELS: Record<string, string> = {
  MINT: "Mint",
  NEAR_MINT: "Near mint",
  EXCELLENT: "Excellent",
  GOOD: "Good",
  LIGHT_PLAYED: "Lightly played",
  PLAYED: "Played",
  POOR: "Poor",
};

/** Languages the catalogue and the price feeds name (reference locales plus the catalogue's finer codes). */
export const LANGUAGE_LABELS: Record<string, string> = {
  en: "English", fr: "French", de: "German", it: "Italian", es: "Spanish", "es-mx": "Spanish (Latin America)",
  pt: "Portuguese", ja: "Japanese", zh: "Chinese", "zh-tw": "Chinese (traditional)", "zh-cn": "Chinese (simplified)",
  ko: "Korean", th: "Thai", id: "Indonesian",
};

export const REGION_LABELS: Record<string, string> = { WEST: "Western", JP: "Japan", CN: "China", KR: "Korea" };

export const PRODUCT_TYPE_LABELS: Record<string, string> = {
  "booster-box": "Booster box", "booster-pack": "Booster pack", "elite-trainer-box": "Elite Trainer Box", bundle: "Bundle",
  tin: "Tin", blister: "Blister", "collection-box": "Collection box", "build-battle-box": "Build & Battle box",
  "theme-deck": "Theme deck", "battle-deck": "Battle deck", "trainer-kit": "Trainer kit", "starter-set": "Starter set",
  "prerelease-kit": "Prerelease kit", case: "Case", other: "Other",
};

export const RANGE_LABELS: Record<string, string> = { "7d": "7 days", "30d": "30 days", "90d": "90 days", "1y": "1 year", all: "All time" };

/** FIRST_EDITION_HOLOFOIL → "First edition holofoil": for a code no map knows. */
export function tidy(code: string): string {
  const words = code.replace(/[_-]+/g, " ").trim().toLowerCase();
  return words ? words[0]!.toUpperCase() + words.slice(1) : code;
}

const from = (map: Record<string, string>) => (code: string | null | undefined, none = "–") =>
  code == null || code === "" ? none : map[code] ?? tidy(code);

export const variantLabel = from(VARIANT_LABELS);
export const printingLabel = (code: string | null | undefined) => from(PRINTING_LABELS)(code, "Any printing");
export const basisLabel = from(BASIS_LABELS);
export const conditionLabel = (code: string | null | undefined) => from(CONDITION_LABELS)(code, "Not stated");
export const languageLabel = (code: string | null | undefined) => from(LANGUAGE_LABELS)(code, "Language not stated");
export const regionLabel = from(REGION_LABELS);
export const productTypeLabel = from(PRODUCT_TYPE_LABELS);
export const rangeLabel = from(RANGE_LABELS);

/** A source's printable label ("Cardmarket"); a demo feed's own provenance is shown beside figures separately. */
export const sourceLabel = (code: string) => sourceOf(code)?.label ?? tidy(code);

/** "PSA 10", or "Grade 9.5" when the source names no grading company. */
export function gradeLabel(grading: { company?: string; score: string } | null | undefined): string {
  if (!grading) return "Ungraded";
  return grading.company ? `${grading.company} ${grading.score}` : `Grade ${grading.score}`;
}

// The thin-market rule. The composite index is a median across sources: one source alone is not
// a market consensus. A quote's sample_n counts the sales or listings behind it: below five, one
// odd sale moves the figure. A quote that states no count is not flagged (unknown, not thin).

/** An index entry backed by fewer sources than this is flagged thin. */
export const THIN_INDEX_SOURCES = 2;
/** A quote resting on fewer observations than this is flagged thin. */
export const THIN_QUOTE_OBSERVATIONS = 5;

export const isThinIndex = (sampleN: number | null | undefined): boolean => sampleN != null && sampleN < THIN_INDEX_SOURCES;
export const isThinQuote = (sampleN: number | null | undefined): boolean => sampleN != null && sampleN < THIN_QUOTE_OBSERVATIONS;

export const THIN_MARKET_RULE =
  `Thin market: a composite index backed by fewer than ${THIN_INDEX_SOURCES} sources, or a quote resting on fewer than ` +
  `${THIN_QUOTE_OBSERVATIONS} observed sales or listings. Such a figure can move a lot on a single sale.`;

/** Money in a currency, as "€12.50", "$9.99", "¥1,200". */
export function money(amount: number, currency: string): string {
  return amount.toLocaleString("en", { style: "currency", currency, maximumFractionDigits: currency === "JPY" ? 0 : 2 });
}

export const eur = (v: number | null | undefined): string => (v == null ? "–" : money(v, "EUR"));

/** The class a change is shown in, with its leading space: " up", " down", or none for a missing figure (a dash or "being prepared" is no rise). */
export const trend = (v: number | null | undefined): string => (v == null ? "" : v >= 0 ? " up" : " down");

/** "+4.2 %", "−3.0 %" (a true minus sign), "0.0 %". */
export function percent(v: number | null | undefined): string {
  if (v == null) return "–";
  const abs = Math.abs(v).toFixed(1);
  return v > 0 ? `+${abs} %` : v < 0 ? `−${abs} %` : `${abs} %`;
}
