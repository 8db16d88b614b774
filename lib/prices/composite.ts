import { REFERENCE } from "@/lib/catalog/reference";
import { roundAmount } from "./pack";

// The composite index (SPEC.md "Composite index"), as pure functions: refresh-index and the
// routes compute it alike. Per locale and printing, each third-party source contributes one
// ungraded figure; the entry is their median in EUR, and sample_n is how many sources agreed.

export type IndexInput = {
  source: string;
  variant: string;
  currency: string;
  locale: string | null;
  condition: string | null;
  printing: string | null;
  graded: boolean;
  amount: number;
  as_of: string;
};

export type IndexEntry = { locale: string | null; printing: string | null; eur: number; as_of: string; sample_n: number };
export type CompositeIndex = { eur: number; as_of: string; sample_n: number; by_locale: IndexEntry[] };

/** Units of `currency` per 1 EUR on `day` (the latest rate at most a week before), or undefined. */
export type FxLookup = (currency: string, day: string) => number | undefined;

/** Which figure of a source stands for it: the market price first, an asking price last. */
const VARIANT_RANK = ["MARKET", "TREND", "AVG_7D", "AVG_1D", "AVG_30D", "LOW"];
const PRINTING_RANK: readonly string[] = REFERENCE.printings;
const CONDITIONS_USED = new Set([null, "NEAR_MINT", "MINT"]);

export function median(values: number[]): number {
  if (!values.length) throw new Error("median of nothing");
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export function toEur(amount: number, currency: string, day: string, fx: FxLookup): number | undefined {
  if (currency === "EUR") return amount;
  const rate = fx(currency, day);
  return rate && rate > 0 ? amount / rate : undefined;
}

export type IndexResult = { index: CompositeIndex | null; missingRates: number };

export type Group = { locale: string | null; printing: string | null; members: number[] };

/**
 * Which figures make the index: per locale and printing, one per source (its best-ranked
 * variant). Figures that name no printing join the locale's leading printing. Returns
 * indices into `rows`.
 */
export function contributors(rows: IndexInput[]): Group[] {
  const usable = rows.map((r, i) => [r, i] as const)
    .filter(([r]) => !r.graded && r.source !== "INDEX" && CONDITIONS_USED.has(r.condition) && VARIANT_RANK.includes(r.variant));
  const leading = new Map<string | null, string>();
  for (const [r] of usable) {
    if (!r.printing) continue;
    const cur = leading.get(r.locale);
    if (!cur || PRINTING_RANK.indexOf(r.printing) < PRINTING_RANK.indexOf(cur)) leading.set(r.locale, r.printing);
  }
  const pick = new Map<string, { i: number; locale: string | null; printing: string | null; variant: string }>();
  for (const [r, i] of usable) {
    const printing = r.printing ?? leading.get(r.locale) ?? null;
    const k = `${r.locale ?? ""}|${printing ?? ""}|${r.source}`;
    const cur = pick.get(k);
    if (!cur || VARIANT_RANK.indexOf(r.variant) < VARIANT_RANK.indexOf(cur.variant)) pick.set(k, { i, locale: r.locale, printing, variant: r.variant });
  }
  const groups = new Map<string, Group>();
  for (const p of pick.values()) {
    const k = `${p.locale ?? ""}|${p.printing ?? ""}`;
    const g = groups.get(k) ?? { locale: p.locale, printing: p.printing, members: [] };
    g.members.push(p.i);
    groups.set(k, g);
  }
  return [...groups.values()];
}

/**
 * The index of one product from its current figures. `primaryLocale` decides the headline
 * figure (en for Western cards, ja for Japanese ones): its best-sampled entry.
 */
export function compositeIndex(rows: IndexInput[], fx: FxLookup, primaryLocale: string): IndexResult {
  let missingRates = 0;
  const by_locale: IndexEntry[] = [];
  for (const g of contributors(rows)) {
    const eur: number[] = [];
    let as_of = "";
    for (const i of g.members) {
      const r = rows[i]!;
      const v = toEur(r.amount, r.currency, r.as_of, fx);
      if (v === undefined) {
        missingRates++;
        continue;
      }
      eur.push(v);
      if (r.as_of > as_of) as_of = r.as_of;
    }
    if (eur.length) by_locale.push({ locale: g.locale, printing: g.printing, eur: roundAmount(median(eur)), as_of, sample_n: eur.length });
  }
  by_locale.sort(entryOrder);
  return { index: headline(by_locale, primaryLocale), missingRates };
}

function entryOrder(a: IndexEntry, b: IndexEntry): number {
  return (a.locale ?? "~").localeCompare(b.locale ?? "~") || PRINTING_RANK.indexOf(a.printing ?? "") - PRINTING_RANK.indexOf(b.printing ?? "");
}

/** The headline of a set of entries: the primary locale's best-sampled entry, else the best-sampled of all. */
export function headline(entries: IndexEntry[], primaryLocale: string): CompositeIndex | null {
  if (!entries.length) return null;
  const pool = entries.some((e) => e.locale === primaryLocale) ? entries.filter((e) => e.locale === primaryLocale) : entries;
  const best = [...pool].sort((a, b) => b.sample_n - a.sample_n || PRINTING_RANK.indexOf(a.printing ?? "") - PRINTING_RANK.indexOf(b.printing ?? ""))[0]!;
  const as_of = entries.reduce((m, e) => (e.as_of > m ? e.as_of : m), entries[0]!.as_of);
  return { eur: best.eur, as_of, sample_n: best.sample_n, by_locale: [...entries].sort(entryOrder) };
}

/**
 * The index the trial is shown, from a product's entries: the headline of the English ones
 * alone, as the price routes compute it from the rows the trial sees (SPEC.md prices rule 2;
 * quotes.ts productPrices).
 */
export function trialIndex(entries: IndexEntry[]): CompositeIndex | null {
  return headline(entries.filter((e) => e.locale === "en"), "en");
}

export const primaryLocaleOf = (printRegion: string | null | undefined): string =>
  printRegion === "JP" ? "ja" : printRegion === "CN" ? "zh" : printRegion === "KR" ? "ko" : "en";
