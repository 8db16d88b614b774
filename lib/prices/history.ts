import { delayHours } from "./sources";

// History points and window stats, as pure functions over [day, amount] pairs.

export const WINDOWS = ["7d", "30d", "90d", "1y"] as const;
export type Window = (typeof WINDOWS)[number];
export const INTERVALS = ["day", "week", "month"] as const;
export type Interval = (typeof INTERVALS)[number];

const DAY = 86_400_000;
const WINDOW_DAYS: Record<Window, number> = { "7d": 7, "30d": 30, "90d": 90, "1y": 365 };

/** The first day of a window that ends (inclusively) on `to`. */
export function windowStart(w: Window, to: string): string {
  return new Date(Date.parse(to) - (WINDOW_DAYS[w] - 1) * DAY).toISOString().slice(0, 10);
}

/** Monday of the ISO week, or the first of the month: the label of a bucket. */
export function bucketOf(day: string, interval: Interval): string {
  if (interval === "day") return day;
  if (interval === "month") return `${day.slice(0, 7)}-01`;
  const t = Date.parse(day);
  const dow = (new Date(t).getUTCDay() + 6) % 7;
  return new Date(t - dow * DAY).toISOString().slice(0, 10);
}

export type HistoryPoint = { date: string; amount: number; low?: number; high?: number; days?: number };

/** The days from `from` (minus `before` days) to `to`, as YYYY-MM-DD: computed once per answer. */
export function dayRange(from: string, to: string, before = 0): string[] {
  const out: string[] = [];
  for (let t = Date.parse(from) - before * DAY, end = Date.parse(to); t <= end; t += DAY) out.push(new Date(t).toISOString().slice(0, 10));
  return out;
}

/**
 * Daily points carry the latest known value up to the series' last observation (a source that
 * re-reads a card every 48 h still has a point every day); week and month points are the mean of
 * their days, with the low, the high and how many days they cover. A third-party source's days
 * run to the last one that began longer ago than its delay, and its figures to `servableAsOf`,
 * the date of the newest figure the current-prices route serves (quotes.ts servablePoint):
 * between the two the served figure is carried, so history shows what the route shows. Without
 * it, figures stop a day earlier, which no figure observed late in its day outruns. `days` may
 * be passed in to share one dayRange among series.
 */
export function historyPoints(
  pairs: [string, number][],
  o: { from: string; to: string; interval: Interval; source: string; lastAsOf: string; now: number; days?: string[]; servableAsOf?: string },
): HistoryPoint[] {
  const delayMs = delayHours(o.source) * 3_600_000;
  const cutoff = delayMs > 0 ? new Date(o.now - delayMs - 1).toISOString().slice(0, 10) : "9999-12-31";
  const figures = delayMs > 0 ? (o.servableAsOf ?? new Date(o.now - delayMs - DAY).toISOString().slice(0, 10)) : cutoff;
  const last = o.lastAsOf < cutoff ? o.lastAsOf : cutoff;
  const known = new Map(pairs);
  const daily: HistoryPoint[] = [];
  let carry: number | undefined;
  // A week before the window, so that a carried value exists on the window's first day.
  for (const d of o.days ?? dayRange(o.from, o.to, 7)) {
    if (d > last) break;
    const v = d <= figures ? known.get(d) : undefined;
    if (v !== undefined) carry = v;
    if (d >= o.from && carry !== undefined) daily.push({ date: d, amount: carry });
  }
  if (o.interval === "day") return daily;
  const buckets = new Map<string, number[]>();
  for (const p of daily) {
    const b = bucketOf(p.date, o.interval);
    const list = buckets.get(b);
    if (list) list.push(p.amount);
    else buckets.set(b, [p.amount]);
  }
  return [...buckets].map(([date, vs]) => ({
    date, amount: round(vs.reduce((a, b) => a + b, 0) / vs.length), low: Math.min(...vs), high: Math.max(...vs), days: vs.length,
  }));
}

const round = (v: number) => Math.round(v * 100) / 100;

export function stats(pairs: [string, number][]) {
  if (!pairs.length) return { points: 0, low: null, high: null, median: null, first: null, last: null, change_pct: null, first_date: null, last_date: null };
  const sorted = [...pairs].sort((a, b) => (a[0] < b[0] ? -1 : 1));
  const values = sorted.map(([, v]) => v);
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  const median = s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
  const first = values[0]!;
  const last = values.at(-1)!;
  return {
    points: values.length, low: s[0]!, high: s.at(-1)!, median: round(median), first, last,
    change_pct: first > 0 ? Math.round(((last - first) / first) * 10000) / 100 : null,
    first_date: sorted[0]![0], last_date: sorted.at(-1)![0],
  };
}
