import { describe, expect, it } from "vitest";
import { bucketOf, historyPoints, stats, windowStart } from "@/lib/prices/history";

const NOW = Date.parse("2026-11-22T12:00:00Z");
const days = (from: string, n: number, f: (i: number) => number): [string, number][] =>
  Array.from({ length: n }, (_, i) => [new Date(Date.parse(from) + i * 86_400_000).toISOString().slice(0, 10), f(i)]);

describe("history", () => {
  it("windows end today, inclusive", () => {
    expect(windowStart("7d", "2026-11-22")).toBe("2026-11-16");
    expect(windowStart("1y", "2026-11-22")).toBe("2025-11-23");
  });

  it("weeks start on Monday, months on the first", () => {
    expect(bucketOf("2026-11-22", "week")).toBe("2026-11-16");
    expect(bucketOf("2026-11-16", "week")).toBe("2026-11-16");
    expect(bucketOf("2026-11-22", "month")).toBe("2026-11-01");
  });

  it("week and month points are the means of their days, and their days add up to the daily points", () => {
    const pairs = days("2026-08-01", 113, (i) => 10 + i);
    const o = { from: "2026-08-25", to: "2026-11-22", source: "INDEX", lastAsOf: "2026-11-21", now: NOW };
    const daily = historyPoints(pairs, { ...o, interval: "day" });
    for (const interval of ["week", "month"] as const) {
      const pts = historyPoints(pairs, { ...o, interval });
      expect(pts.reduce((n, p) => n + p.days!, 0)).toBe(daily.length);
      const total = pts.reduce((n, p) => n + p.amount * p.days!, 0);
      expect(total).toBeCloseTo(daily.reduce((n, p) => n + p.amount, 0), 0);
    }
  });

  it("a series read every 48 h has a point every day, carrying the last value, and stops at its last observation", () => {
    const pairs: [string, number][] = [["2026-11-10", 5], ["2026-11-12", 7], ["2026-11-14", 9]];
    const pts = historyPoints(pairs, { from: "2026-11-10", to: "2026-11-22", interval: "day", source: "INDEX", lastAsOf: "2026-11-14", now: NOW });
    expect(pts.map((p) => p.amount)).toEqual([5, 5, 7, 7, 9]);
  });

  it("third-party days still under their delay are left out; the figure the quotes serve is carried to the last day past it", () => {
    const pairs = days("2026-11-15", 8, (i) => 3 + i);
    const o = { from: "2026-11-15", to: "2026-11-22", interval: "day" as const, source: "CARDMARKET", lastAsOf: "2026-11-22", now: NOW };
    // At 12:00 on the 22nd, the 21st began 36 h ago (past Cardmarket's 24 h), the 22nd 12 h ago.
    const served = historyPoints(pairs, { ...o, servableAsOf: "2026-11-21" });
    expect(served.at(-1)).toEqual({ date: "2026-11-21", amount: 9 });
    // A source read every 48 h: the figure served (the 20th's) is the 21st's point too, not the 22nd's unserved one.
    const sparse: [string, number][] = [["2026-11-18", 4], ["2026-11-20", 6], ["2026-11-22", 8]];
    expect(historyPoints(sparse, { ...o, servableAsOf: "2026-11-20" }).slice(-2)).toEqual([{ date: "2026-11-20", amount: 6 }, { date: "2026-11-21", amount: 6 }]);
    // Without the served figure's date, figures stop a day earlier.
    expect(historyPoints(pairs, o).at(-1)).toEqual({ date: "2026-11-21", amount: 8 });
  });

  it("stats: low, high, median, first, last and change", () => {
    expect(stats([["2026-11-01", 10], ["2026-11-03", 14], ["2026-11-02", 8], ["2026-11-04", 12.5]])).toMatchObject({
      points: 4, low: 8, high: 14, median: 11.25, first: 10, last: 12.5, change_pct: 25, first_date: "2026-11-01", last_date: "2026-11-04",
    });
    expect(stats([]).change_pct).toBeNull();
  });
});
