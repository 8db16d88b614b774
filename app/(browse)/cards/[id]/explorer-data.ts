import type { Account } from "@/lib/accounts/types";
import { contributors, primaryLocaleOf, toEur, type CompositeIndex, type FxLookup } from "@/lib/prices/composite";
import { loadFx } from "@/lib/prices/fx";
import { historyPoints, stats } from "@/lib/prices/history";
import { monthKey, unpack } from "@/lib/prices/pack";
import { monthsOf, seriesOfProducts, type SeriesRead } from "@/lib/prices/queries/read";
import { servablePoint, type Quote } from "@/lib/prices/quotes";
import { sourceLabel, variantLabel } from "@/lib/prices/labels";
import { isDemoProvenance, isHeadlineIndex } from "../demo";
import type { ChartData, ChartLine, Range } from "./explorer-types";
import { RANGES } from "./explorer-types";

// What the price explorer shows of one product (a card or a sealed product), read through the
// price store's own functions (lib/prices): the series, their month rows, the history rule
// (historyPoints: carried days, source delays), the composite's rule (contributors) and the
// ECB rates (loadFx). The page renders it; the chart's route handler serves it as JSON.

/** The collector pages show every row the store holds: every language, graded and raw. */
export const FULL_VIEW = { plan: "growth" } as Account;

export const parseRange = (v: string | undefined): Range => ((RANGES as readonly string[]).includes(v ?? "") ? (v as Range) : "1y");

const DAY = 86_400_000;
const RANGE_DAYS: Record<Exclude<Range, "all">, number> = { "7d": 7, "30d": 30, "90d": 90, "1y": 365 };
const VARIANT_RANK = ["MARKET", "TREND", "AVG_7D", "AVG_1D", "AVG_30D", "LOW"];
const RAW_CONDITIONS = new Set([null, "NEAR_MINT", "MINT"]);

let fxCache: { at: number; fx: Promise<FxLookup> } | undefined;
/** The ECB rates, read at most once a minute (a few thousand rows a year; import-fx adds a day's). */
export function fxRates(): Promise<FxLookup> {
  if (!fxCache || Date.now() - fxCache.at > 60_000) {
    const fx = loadFx().catch((err) => {
      fxCache = undefined;
      throw err;
    });
    fxCache = { at: Date.now(), fx };
  }
  return fxCache.fx;
}

/** The printings the index or the raw quotes name, in the reference order of lib/prices/composite. */
export function printingsOf(series: SeriesRead[]): string[] {
  const order = ["NORMAL", "HOLOFOIL", "REVERSE_HOLO", "FIRST_EDITION", "FIRST_EDITION_HOLOFOIL"];
  const found = new Set(series.filter((s) => s.printing).map((s) => s.printing!));
  return order.filter((p) => found.has(p));
}

/**
 * The lines of the chart: the composite index (of the printing, else the headline) and one line
 * per third-party source, the series the composite itself would take from it (ungraded, near mint,
 * the primary language, the printing, its market figure first), converted to EUR day by day.
 */
function pickLines(series: SeriesRead[], printRegion: string | null, chosen: string | null) {
  const primary = primaryLocaleOf(printRegion);
  const headline = series.find(isHeadlineIndex);
  // The headline stands for one entry of the primary language: the one whose newest figure it carries.
  const entries = series.filter((s) => s.source === "INDEX" && s.locale === primary && s.printing !== null);
  const headlineEntry = entries.find((s) => s.recent[0]?.amount === headline?.recent[0]?.amount) ?? entries[0];
  const printing = chosen ?? headlineEntry?.printing ?? null;
  // A printing the reader chose has its own index line; otherwise the headline's (its full history).
  const index = (chosen && entries.find((s) => s.printing === chosen)) || headline;
  const bySource = new Map<string, SeriesRead>();
  const score = (s: SeriesRead) =>
    (s.locale === primary ? 0 : 10) + (s.printing === printing ? 0 : s.printing === null ? 20 : 1000) + VARIANT_RANK.indexOf(s.variant);
  for (const s of series) {
    if (s.source === "INDEX" || s.grading_score || !RAW_CONDITIONS.has(s.condition) || !VARIANT_RANK.includes(s.variant)) continue;
    if (s.locale !== primary && s.locale !== null) continue;
    if (printing && s.printing && s.printing !== printing) continue;
    const cur = bySource.get(s.source);
    if (!cur || score(s) < score(cur)) bySource.set(s.source, s);
  }
  return { index, printing, sources: [...bySource.values()].sort((a, b) => (a.source < b.source ? -1 : 1)) };
}

export async function chartData(
  kind: "card" | "sealed", productId: string, printRegion: string | null, range: Range, chosenPrinting: string | null, now = Date.now(),
): Promise<ChartData> {
  const series = await seriesOfProducts(kind, [productId]);
  const { index, sources, printing } = pickLines(series, printRegion, chosenPrinting);
  const chosen = [...(index ? [index] : []), ...sources];
  const to = new Date(now).toISOString().slice(0, 10);
  const fromWanted = range === "all" ? "1990-01-01" : new Date(Date.parse(to) - (RANGE_DAYS[range] - 1) * DAY).toISOString().slice(0, 10);
  const before = new Date(Date.parse(fromWanted) - 8 * DAY).toISOString().slice(0, 10);
  const months = await monthsOf(chosen.map((s) => s.id), range === "all" ? 0 : monthKey(before), monthKey(to));
  const pairs = new Map<number, [string, number][]>();
  for (const m of months) {
    const list = pairs.get(m.series_id) ?? [];
    list.push(...unpack(m.month, m.amounts));
    pairs.set(m.series_id, list);
  }
  let from = fromWanted;
  if (range === "all") {
    const first = [...pairs.values()].flat().reduce((min, [d]) => (d < min ? d : min), to);
    from = first;
  }
  const spanDays = (Date.parse(to) - Date.parse(from)) / DAY;
  const interval = spanDays > 400 ? "week" : "day";
  const fx = await fxRates();
  const byDate = new Map<string, Record<string, number | string>>();
  const lines: ChartLine[] = [];
  let indexPairs: [string, number][] = [];
  for (const s of chosen) {
    const isIndex = s.source === "INDEX";
    const key = isIndex ? "INDEX" : s.source;
    const pts = historyPoints(pairs.get(s.id) ?? [], { from, to, interval, source: s.source, lastAsOf: s.last_as_of, now, servableAsOf: servablePoint(s, now)?.as_of });
    let n = 0;
    for (const p of pts) {
      const v = toEur(p.amount, s.currency, p.date, fx);
      if (v === undefined) continue;
      const row = byDate.get(p.date) ?? { date: p.date };
      row[key] = Math.round(v * 100) / 100;
      byDate.set(p.date, row);
      n++;
    }
    if (isIndex) indexPairs = (pairs.get(s.id) ?? []).filter(([d]) => d >= from && d <= to);
    if (!n) continue;
    const demo = isDemoProvenance(s.provenance);
    lines.push({
      key, source: s.source, demo, currency: s.currency, printing: s.printing, variant: s.variant,
      label: isIndex ? `Composite index${demo ? " (demo data)" : ""}` : `${sourceLabel(s.source)} ${variantLabel(s.variant).toLowerCase()}${demo ? " (demo data)" : ""}`,
      provenance: s.provenance,
    });
  }
  const rows = [...byDate.values()].sort((a, b) => (String(a.date) < String(b.date) ? -1 : 1));
  const s = stats(indexPairs);
  return {
    range, from, to, interval, printing, chosenPrinting,
    lines, rows,
    index: { low: s.low, high: s.high, change_pct: s.change_pct, points: s.points, demo: lines.some((l) => l.key === "INDEX" && l.demo) },
    summary: lines.map((l) => {
      const vals = rows.filter((r) => typeof r[l.key] === "number").map((r) => [String(r.date), r[l.key] as number] as [string, number]);
      const st = stats(vals);
      return { key: l.key, first: st.first, last: st.last, low: st.low, high: st.high, change_pct: st.change_pct, first_date: st.first_date, last_date: st.last_date };
    }),
  };
}

export type Agreement = {
  locale: string | null; printing: string | null; eur: number; as_of: string; sample_n: number;
  members: { source: string; variant: string; amount: number; currency: string; eur: number | null; as_of: string; provenance: string }[];
};

/**
 * Which sources stand behind each index entry: the composite's own rule (contributors) over the
 * current quotes, each member with its figure in its own currency and in EUR.
 */
export async function indexAgreement(index: CompositeIndex | null, quotes: Quote[]): Promise<Agreement[]> {
  if (!index) return [];
  const fx = await fxRates();
  const rows = quotes.map((q) => ({
    source: q.source, variant: q.variant, currency: q.currency, locale: q.locale, condition: q.condition, printing: q.printing,
    graded: !!q.grading, amount: q.amount, as_of: q.as_of,
  }));
  const groups = contributors(rows);
  return index.by_locale.map((e) => {
    const g = groups.find((x) => x.locale === e.locale && x.printing === e.printing);
    const members = (g?.members ?? []).map((i) => {
      const q = quotes[i]!;
      return { source: q.source, variant: q.variant, amount: q.amount, currency: q.currency, eur: toEur(q.amount, q.currency, q.as_of, fx) ?? null, as_of: q.as_of, provenance: q.provenance };
    }).sort((a, b) => (a.source < b.source ? -1 : 1));
    return { ...e, members };
  });
}

/** EUR beside a figure in another currency, at the ECB rate of its day (null without a rate). */
export async function eurOf(quotes: Quote[]): Promise<(number | null)[]> {
  const fx = await fxRates();
  return quotes.map((q) => toEur(q.amount, q.currency, q.as_of, fx) ?? null);
}
