import { describe, expect, it } from "vitest";
import { movesOf } from "@/lib/prices/moves";

const series = (n: number, end: string, f: (i: number) => number): [string, number][] =>
  Array.from({ length: n }, (_, i) => [new Date(Date.parse(end) - (n - 1 - i) * 86_400_000).toISOString().slice(0, 10), f(i)]);

describe("index moves", () => {
  it("from the last point on or before each window's first day to the newest point", () => {
    const pts = series(400, "2026-11-21", (i) => 10 + i / 10);
    const m = Object.fromEntries(movesOf(pts, "2026-11-21").map((x) => [x.window, x]));
    expect(m["7d"]).toMatchObject({ from_date: "2026-11-15", to_date: "2026-11-21", from_eur: 49.3, to_eur: 49.9 });
    expect(m["7d"]!.change_pct).toBeCloseTo(1.22, 2);
    expect(m["1y"]).toMatchObject({ from_date: "2025-11-22" });
    // 24h: the newest day against the day before.
    expect(m["24h"]).toMatchObject({ from_date: "2026-11-20", to_date: "2026-11-21", from_eur: 49.8, to_eur: 49.9 });
    expect(m["24h"]!.change_pct).toBeCloseTo(0.2, 2);
  });

  it("a window ends today, not on the newest point: a series a day behind starts where stats and history start", () => {
    const behind = series(400, "2026-11-26", (i) => 10 + i / 10);
    const m = Object.fromEntries(movesOf(behind, "2026-11-27").map((x) => [x.window, x]));
    expect(m["7d"]).toMatchObject({ from_date: "2026-11-21", to_date: "2026-11-26" });
    expect(m["30d"]).toMatchObject({ from_date: "2026-10-29" });
    expect(m["1y"]).toMatchObject({ from_date: "2025-11-28" });
    // A series whose first point is the window's first day has a 1y move.
    const year = series(365, "2026-11-26", () => 3).slice(1);
    expect(year[0]![0]).toBe("2025-11-28");
    expect(movesOf(year, "2026-11-27").map((x) => x.window)).toContain("1y");
    // 24h still compares the newest day with the day before.
    expect(m["24h"]).toMatchObject({ from_date: "2026-11-25", to_date: "2026-11-26" });
  });

  it("24h carries a start point one day back at most", () => {
    const skipped: [string, number][] = [["2026-11-10", 8], ["2026-11-19", 10], ["2026-11-21", 11]];
    const m = Object.fromEntries(movesOf(skipped, "2026-11-21").map((x) => [x.window, x]));
    expect(m["24h"]).toMatchObject({ from_date: "2026-11-19", from_eur: 10, change_pct: 10 });
    const stale: [string, number][] = [["2026-11-10", 8], ["2026-11-18", 10], ["2026-11-21", 11]];
    expect(movesOf(stale, "2026-11-21").map((x) => x.window)).toEqual(["7d"]);
  });

  it("a series younger than the window, or with a long gap before it, has no move for it", () => {
    const young = movesOf(series(20, "2026-11-21", () => 5), "2026-11-21");
    expect(young.map((m) => m.window)).toEqual(["24h", "7d"]);
    const gap: [string, number][] = [["2026-10-01", 10], ["2026-11-21", 20]];
    expect(movesOf(gap, "2026-11-21")).toEqual([]);
  });
});
