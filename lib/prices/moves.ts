import { WINDOWS, windowStart, type Window } from "./history";

// How a composite index moved over each window: from the last point on or before the window's
// first day to the newest point. A product that had no point by the window's start has no move.

const MAX_CARRY_DAYS = 7;

export type Move = { window: Window; from_date: string; from_eur: number; to_date: string; to_eur: number; change_pct: number };

export function movesOf(points: [string, number][]): Move[] {
  if (!points.length) return [];
  const sorted = [...points].sort((a, b) => (a[0] < b[0] ? -1 : 1));
  const [toDate, toEur] = sorted[sorted.length - 1]!;
  const out: Move[] = [];
  for (const window of WINDOWS) {
    const from = windowStart(window, toDate);
    let start: [string, number] | undefined;
    for (const p of sorted) {
      if (p[0] > from) break;
      start = p;
    }
    // A start point long before the window (a gap in the series) says nothing about the window.
    if (!start || start[1] <= 0 || start[0] === toDate || Date.parse(from) - Date.parse(start[0]) > MAX_CARRY_DAYS * 86_400_000) continue;
    out.push({
      window, from_date: start[0], from_eur: start[1], to_date: toDate, to_eur: toEur,
      change_pct: Math.round(((toEur - start[1]) / start[1]) * 10000) / 100,
    });
  }
  return out;
}

/** The months that hold every point movesOf needs for a series ending on `to`. */
export function monthsNeeded(to: string): Set<number> {
  const months = new Set<number>();
  const add = (day: string) => months.add(Number(day.slice(0, 4)) * 100 + Number(day.slice(5, 7)));
  add(to);
  for (const w of WINDOWS) {
    const from = windowStart(w, to);
    // The start point may lie before the window's first day: look a month further back.
    add(from);
    const before = new Date(Date.parse(from) - 31 * 86_400_000).toISOString().slice(0, 10);
    add(before);
  }
  return months;
}
