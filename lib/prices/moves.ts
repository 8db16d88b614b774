import { WINDOWS, windowStart } from "./history";

// How a composite index moved over each window ending today: from the last point on or before
// the window's first day (as stats and history count it) to the newest point. A product that had
// no point by the window's start has no move. The movers also rank 24h: the index is daily, so
// that is the newest day's figure against the day before's (history and stats keep their windows
// from 7d up).

/** The movers' windows: 24h, then the history windows. */
export const MOVE_WINDOWS = ["24h", ...WINDOWS] as const;
export type MoveWindow = (typeof MOVE_WINDOWS)[number];

const MAX_CARRY_DAYS = 7;
/** 24h carries a start point at most one day further back (a feed that skipped a day), never a week. */
const MAX_CARRY_DAYS_24H = 1;
const DAY = 86_400_000;

/**
 * The day a window's move starts from (its start point is the last point on or before it): a
 * window ends today, not on the newest point (a delayed source's figures end a day or two
 * earlier, and the window would start as early); 24h is the newest point's day before.
 */
export function moveStart(w: MoveWindow, newest: string, today: string): string {
  return w === "24h" ? new Date(Date.parse(newest) - DAY).toISOString().slice(0, 10) : windowStart(w, today);
}

const utcToday = () => new Date().toISOString().slice(0, 10);

export type Move = { window: MoveWindow; from_date: string; from_eur: number; to_date: string; to_eur: number; change_pct: number };

export function movesOf(points: [string, number][], today = utcToday()): Move[] {
  if (!points.length) return [];
  const sorted = [...points].sort((a, b) => (a[0] < b[0] ? -1 : 1));
  const [toDate, toEur] = sorted[sorted.length - 1]!;
  const out: Move[] = [];
  for (const window of MOVE_WINDOWS) {
    const from = moveStart(window, toDate, today < toDate ? toDate : today);
    const carry = window === "24h" ? MAX_CARRY_DAYS_24H : MAX_CARRY_DAYS;
    let start: [string, number] | undefined;
    for (const p of sorted) {
      if (p[0] > from) break;
      start = p;
    }
    // A start point long before the window (a gap in the series) says nothing about the window.
    if (!start || start[1] <= 0 || start[0] === toDate || Date.parse(from) - Date.parse(start[0]) > carry * DAY) continue;
    out.push({
      window, from_date: start[0], from_eur: start[1], to_date: toDate, to_eur: toEur,
      change_pct: Math.round(((toEur - start[1]) / start[1]) * 10000) / 100,
    });
  }
  return out;
}

/** The months that hold every point movesOf needs for a series ending on `to`. */
export function monthsNeeded(to: string, today = utcToday()): Set<number> {
  const months = new Set<number>();
  const add = (day: string) => months.add(Number(day.slice(0, 4)) * 100 + Number(day.slice(5, 7)));
  add(to);
  for (const w of MOVE_WINDOWS) {
    const from = moveStart(w, to, today < to ? to : today);
    // The start point may lie before the window's first day: look a month further back.
    add(from);
    const before = new Date(Date.parse(from) - 31 * DAY).toISOString().slice(0, 10);
    add(before);
  }
  return months;
}
