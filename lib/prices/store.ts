import type { Db } from "@/lib/db/client";
import type { RecentPoint } from "@/lib/db/schema";
import { seriesKey, type Observation } from "./feed";
import { dayIndex, emptyMonth, monthKey, setDay } from "./pack";
import { loadMonths, loadSeries, upsertSeries, writeMonths, type SeriesRow, type StoredSeries } from "./queries/store";

// Applying observations to the store: each lands in its series' month row (history) and,
// when it is among the newest, in the series' recent points (current quotes). Applying the
// same observations twice leaves the same state.

// Three newest points: enough for a 24 h delay on a source read every 48 h.
export const RECENT_POINTS = 3;

export type Resolved = Observation & { productKind: string; productId: string };

const startOfDay = (day: string) => `${day}T00:00:00Z`;

export function mergeRecent(existing: RecentPoint[], incoming: RecentPoint[]): RecentPoint[] {
  const byDay = new Map(existing.map((p) => [p.as_of, p]));
  for (const p of incoming) byDay.set(p.as_of, p);
  return [...byDay.values()].sort((a, b) => (a.as_of < b.as_of ? 1 : -1)).slice(0, RECENT_POINTS);
}

export function seriesRowOf(o: Resolved, recent: RecentPoint[], first: string, last: string): SeriesRow {
  return {
    key: seriesKey({ ...o, product: `${o.productKind}:${o.productId}` }), product_kind: o.productKind, product_id: o.productId,
    source: o.source, variant: o.variant, basis: o.basis, currency: o.currency, locale: o.locale, condition: o.condition, printing: o.printing,
    grading_company: o.grading?.company ?? null, grading_score: o.grading?.score ?? null, provenance: o.provenance, recent,
    first_as_of: first, last_as_of: last,
  };
}

/** A series' state after `incoming`: its newest points, first and last day, and whether its newest figure moved. */
export function mergeSeries(before: StoredSeries | undefined, incoming: RecentPoint[], firstDay: string, lastDay: string) {
  const recent = mergeRecent(before?.recent ?? [], incoming);
  const first = before && before.first_as_of < firstDay ? before.first_as_of : firstDay;
  const last = before && before.last_as_of > lastDay ? before.last_as_of : lastDay;
  const newest = before?.recent[0];
  const changed = !newest || newest.as_of !== recent[0]!.as_of || newest.amount !== recent[0]!.amount;
  return { recent, first, last, changed };
}

/** Days to write, gathered by month row: "series_id:month" → the row's days as [index in month, amount]. */
export type MonthDays = Map<string, { series_id: number; month: number; days: [number, number][] }>;

/** The month row's entry in `wanted`, created when new; callers push its days. */
export function monthRow(wanted: MonthDays, seriesId: number, month: number): { days: [number, number][] } {
  const mk = `${seriesId}:${month}`;
  let w = wanted.get(mk);
  if (!w) wanted.set(mk, (w = { series_id: seriesId, month, days: [] }));
  return w;
}

/**
 * Writes the gathered days. Month rows the store already holds keep the days not named; when
 * none of the series existed before (`anyStored` false) there are none to read.
 */
export async function writeDays(wanted: MonthDays, anyStored: boolean, db?: Db): Promise<void> {
  const existing = anyStored ? await loadMonths([...wanted.values()], db) : new Map<string, Buffer>();
  await writeMonths([...wanted.entries()].map(([mk, w]) => {
    const buf = existing.get(mk) ?? emptyMonth(w.month);
    for (const [i, amount] of w.days) setDay(buf, i, amount);
    return { series_id: w.series_id, month: w.month, amounts: buf };
  }), db);
}

/** Returns the products whose newest figure changed (one PRICE change each). */
export async function applyObservations(obs: Resolved[], db?: Db): Promise<{ series: number; points: number; changed: { kind: string; id: string }[] }> {
  const groups = new Map<string, Resolved[]>();
  for (const o of obs) {
    const k = seriesKey({ ...o, product: `${o.productKind}:${o.productId}` });
    const g = groups.get(k);
    if (g) g.push(o);
    else groups.set(k, [o]);
  }
  const stored = await loadSeries([...groups.keys()], db);
  const rows: SeriesRow[] = [];
  const changed = new Map<string, { kind: string; id: string }>();
  for (const [k, g] of groups) {
    const incoming = g.map((o) => ({ as_of: o.as_of, amount: o.amount, sample_n: o.sample_n ?? null, observed_at: o.observed_at ?? startOfDay(o.as_of) }));
    const days = g.map((o) => o.as_of).sort();
    const m = mergeSeries(stored.get(k), incoming, days[0]!, days.at(-1)!);
    if (m.changed) changed.set(`${g[0]!.productKind}:${g[0]!.productId}`, { kind: g[0]!.productKind, id: g[0]!.productId });
    rows.push(seriesRowOf(g[0]!, m.recent, m.first, m.last));
  }
  const ids = await upsertSeries(rows, db);
  const wanted: MonthDays = new Map();
  for (const [k, g] of groups) {
    const id = ids.get(k)!;
    for (const o of g) monthRow(wanted, id, monthKey(o.as_of)).days.push([dayIndex(o.as_of), o.amount]);
  }
  await writeDays(wanted, stored.size > 0, db);
  return { series: groups.size, points: obs.length, changed: [...changed.values()] };
}
