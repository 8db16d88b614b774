import { z } from "zod";
import type { Db } from "@/lib/db/client";
import type { RecentPoint } from "@/lib/db/schema";
import { gradedRule, seriesKey, SeriesFields, validAmount } from "./feed";
import { addDays, eachDay } from "./pack";
import { mergeSeries, monthRow, RECENT_POINTS, seriesRowOf, writeDays, type MonthDays } from "./store";
import { loadSeries, upsertSeries } from "./queries/store";

// History files: a provider's back catalogue, one series per line with its daily figures
// (docs/price-feeds.md). A year of the whole catalogue is hundreds of millions of figures, far
// too many for one line each: a line here carries a series' descriptors once and its days as
// an array. It is validated whole like any feed line and merged day by day into the store.

const MAX_DAYS = 3660;

export const HistoryLine = SeriesFields.extend({
  from: z.iso.date(),
  /** One figure per day from `from`; null where the provider had none that day. */
  amounts: z.array(z.number().nullable()).min(1).max(MAX_DAYS),
  sample_n: z.number().int().min(0).nullable().optional(),
}).refine(...gradedRule);
export type HistoryLine = z.output<typeof HistoryLine>;

export type HistoryResult = { ok: true; line: HistoryLine } | { ok: false; error: string };

/** `name` starts with `history-`: the file carries history lines rather than the source's daily shape. */
export const isHistoryFile = (name: string): boolean => /^history-/.test(name);

export function parseHistoryLine(source: string, text: string, today: string): HistoryResult {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, error: "not JSON" };
  }
  if (raw && typeof raw === "object" && "source" in raw && (raw as { source: unknown }).source !== source) {
    return { ok: false, error: `source: this file belongs to ${source}` };
  }
  const r = HistoryLine.safeParse({ ...(raw as object), source });
  if (!r.success) return { ok: false, error: r.error.issues.slice(0, 3).map((i) => `${i.path.join(".") || "line"}: ${i.message}`).join("; ") };
  const line = r.data;
  // Element checks in a loop: a schema per figure costs more than the rest of the line.
  const bad = line.amounts.findIndex((a) => a !== null && !validAmount(a));
  if (bad >= 0) return { ok: false, error: `amounts.${bad}: not a positive amount` };
  if (!line.amounts.some((a) => a !== null)) return { ok: false, error: "no figure on the line" };
  if (addDays(line.from, line.amounts.length - 1) > today) return { ok: false, error: "amounts: runs past today" };
  return { ok: true, line };
}

export type ResolvedHistory = HistoryLine & { productKind: string; productId: string };

/** Merges history lines into their series; returns the products whose newest figure changed. */
export async function applyHistory(lines: ResolvedHistory[], db?: Db): Promise<{ series: number; points: number; changed: { kind: string; id: string }[] }> {
  const keyed = lines.map((l) => ({ l, key: seriesKey({ ...l, product: `${l.productKind}:${l.productId}` }) }));
  const stored = await loadSeries(keyed.map((k) => k.key), db);
  const changed = new Map<string, { kind: string; id: string }>();
  let points = 0;
  const rows = keyed.map(({ l, key }) => {
    const filled: number[] = [];
    l.amounts.forEach((a, i) => {
      if (a !== null) filled.push(i);
    });
    points += filled.length;
    const incoming: RecentPoint[] = filled.slice(-RECENT_POINTS).map((i) => {
      const day = addDays(l.from, i);
      return { as_of: day, amount: l.amounts[i]!, sample_n: l.sample_n ?? null, observed_at: `${day}T00:00:00Z` };
    });
    const m = mergeSeries(stored.get(key), incoming, addDays(l.from, filled[0]!), addDays(l.from, filled.at(-1)!));
    if (m.changed) changed.set(`${l.productKind}:${l.productId}`, { kind: l.productKind, id: l.productId });
    return { row: seriesRowOf({ ...l, amount: 0, as_of: "" }, m.recent, m.first, m.last), line: l };
  });
  const ids = await upsertSeries(rows.map((r) => r.row), db);
  const wanted: MonthDays = new Map();
  for (const { row, line } of rows) {
    const id = ids.get(row.key)!;
    // The month's entry is looked up once per month, not once per day: a year is 365 days a line.
    let current = -1;
    let days: [number, number][] = [];
    eachDay(line.from, line.amounts.length, (i, month, index) => {
      const a = line.amounts[i];
      if (a === null || a === undefined) return;
      if (month !== current) {
        current = month;
        days = monthRow(wanted, id, month).days;
      }
      days.push([index, a]);
    });
  }
  await writeDays(wanted, stored.size > 0, db);
  return { series: rows.length, points, changed: [...changed.values()] };
}
