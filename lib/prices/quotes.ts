import type { Account } from "@/lib/accounts/types";
import { headline, primaryLocaleOf, type CompositeIndex, type IndexEntry } from "./composite";
import type { SeriesRead } from "./queries/read";
import { delayHours } from "./sources";

// Current quotes of one product as a plan may see them (SPEC.md GET /v1/cards/{id}/prices,
// rules 1-6). The index comes from everything the plan allows, before the filters.

export type Quote = {
  source: string; variant: string; basis: string; amount: number; currency: string; locale: string | null; condition: string | null;
  printing: string | null; grading: { company?: string; score: string } | null; as_of: string; sample_n: number | null; provenance: string;
};

export type QuoteFilters = { source?: string; variant?: string; locale?: string };
/** What a plan held back of a product's rows, as meta.withheld names it (SPEC.md set cards rule 2). */
export type HeldBack = "prices.graded" | "prices.non_english";
export type ProductPrices = { index: CompositeIndex | null; quotes: Quote[]; withheld: number; held: Set<HeldBack>; delayedHours: number };

/**
 * Whether a plan is shown only some price rows (the trial: English, ungraded), and so an index
 * of its own: in prices, in the index fields, and in what its lists sort and filter by.
 */
export const withholdsRows = (account: Account | undefined): account is Account => account?.plan === "trial";

/** The trial sees English, ungraded rows; paid plans everything. */
export function planAllows(account: Account, s: Pick<SeriesRead, "locale" | "grading_company" | "grading_score">): boolean {
  if (!withholdsRows(account)) return true;
  return s.locale === "en" && s.grading_company === null && s.grading_score === null;
}

/** The newest point old enough to serve: a third-party figure waits out its source's delay. */
export function servablePoint(s: Pick<SeriesRead, "source" | "recent">, now: number) {
  const delayMs = delayHours(s.source) * 3_600_000;
  return s.recent.find((p) => now - timeOf(p.observed_at) > delayMs) ?? (delayMs === 0 ? s.recent[0] : undefined);
}

// Codes are ASCII: a plain comparison orders them, without the cost of locale collation.
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const ORDER = (a: Quote, b: Quote) =>
  cmp(a.source, b.source) || cmp(a.variant, b.variant) || cmp(a.locale ?? "~", b.locale ?? "~")
  || cmp(a.printing ?? "~", b.printing ?? "~") || cmp(a.grading?.company ?? "", b.grading?.company ?? "")
  || Number(b.grading?.score ?? 0) - Number(a.grading?.score ?? 0);

const parsedTimes = new Map<string, number>();
/** observed_at values repeat (mostly the start of a day): parse each once. */
function timeOf(iso: string): number {
  let t = parsedTimes.get(iso);
  if (t === undefined) {
    t = Date.parse(iso);
    if (parsedTimes.size > 10_000) parsedTimes.clear();
    parsedTimes.set(iso, t);
  }
  return t;
}

export function productPrices(series: SeriesRead[], account: Account, filters: QuoteFilters, printRegion: string | null, now = Date.now()): ProductPrices {
  let withheld = 0;
  const held = new Set<HeldBack>();
  const allowed: Quote[] = [];
  const entries: IndexEntry[] = [];
  let head: IndexEntry | undefined;
  for (const s of series) {
    // The headline INDEX series is the index object itself, not a quote row. It is also the one
    // entry of a product whose figures name neither locale nor printing (a community report):
    // refresh-index writes that entry as the headline.
    if (s.source === "INDEX" && s.locale === null && s.printing === null) {
      const p = planAllows(account, s) ? servablePoint(s, now) : undefined;
      if (p) head = { locale: null, printing: null, eur: p.amount, as_of: p.as_of, sample_n: p.sample_n ?? 0 };
      continue;
    }
    if (!planAllows(account, s)) {
      withheld++;
      if (s.grading_company !== null || s.grading_score !== null) held.add("prices.graded");
      if (s.locale !== "en") held.add("prices.non_english");
      continue;
    }
    const p = servablePoint(s, now);
    if (!p) continue;
    const q: Quote = {
      source: s.source, variant: s.variant, basis: s.basis, amount: p.amount, currency: s.currency, locale: s.locale, condition: s.condition,
      printing: s.printing, grading: s.grading_score ? { ...(s.grading_company ? { company: s.grading_company } : {}), score: s.grading_score } : null,
      as_of: p.as_of, sample_n: p.sample_n, provenance: s.provenance,
    };
    allowed.push(q);
    if (s.source === "INDEX") entries.push({ locale: s.locale, printing: s.printing, eur: p.amount, as_of: p.as_of, sample_n: p.sample_n ?? 0 });
  }
  const index = headline(entries.length || !head ? entries : [head], primaryLocaleOf(printRegion));
  const quotes = allowed.filter((q) =>
    (!filters.source || q.source === filters.source) && (!filters.variant || q.variant === filters.variant) && (!filters.locale || q.locale === filters.locale));
  quotes.sort(ORDER);
  // The longest delay among the rows served, as the OpenAPI document says (not among those the filters left out).
  const delayedHours = quotes.reduce((m, q) => Math.max(m, delayHours(q.source)), 0);
  return { index, quotes, withheld, held, delayedHours };
}

export function planNotes(account: Account, withheld: number): string[] {
  if (!withholdsRows(account)) return [];
  const base = "Trial keys see English-language, ungraded rows only; paid plans return every locale and the graded medians.";
  return [withheld ? `${base} ${withheld} row${withheld === 1 ? "" : "s"} withheld.` : base];
}
