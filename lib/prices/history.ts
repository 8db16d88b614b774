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

export type HistoryPoint = { date: string; amount: number; low?: number; high?: number; days: number };

/**
 * Daily points carry the latest known value up to the series' last observation (a source that
 * re-reads a card every 48 h still has a point every day); week and month points are the mean of
 * their days, with the low and high. Days still under the source's delay are left out.
 */
export function historyPoints(
  pairs: [string, number][],
  o: { from: string; to: string; interval: Interval; source: string; lastAsOf: string; now: number },
): HistoryPoint[] {
  const cutoff = new Date(o.now - delayHours(o.source) * 3_600_000 - DAY).toISOString().slice(0, 10);
  const known = new Map(pairs);
  const daily: [string, number][] = [];
  let carry: number | undefined;
  // Start a week early so that a carried value exists on the window's first day.
  for (let t = Date.parse(o.from) - 7 * DAY; t <= Date.parse(o.to); t += DAY) {
    const d = new Date(t).toISOString().slice(0, 10);
    if (d > o.lastAsOf || (delayHours(o.source) > 0 && d > cutoff)) break;
    const v = known.get(d);
    if (v !== undefined) carry = v;
    if (d >= o.from && carry !== undefined) daily.push([d, carry]);
  }
  if (o.interval === "day") return daily.map(([date, amount]) => ({ date, amount, days: 1 }));
  const buckets = new Map<string, number[]>();
  for (const [d, v] of daily) {
    const b = bucketOf(d, o.interval);
    buckets.set(b, [...(buckets.get(b) ?? []), v]);
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
