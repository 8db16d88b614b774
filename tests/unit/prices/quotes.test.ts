import { describe, expect, it } from "vitest";
import type { Account } from "@/lib/accounts/types";
import type { SeriesRead } from "@/lib/prices/queries/read";
import { productPrices, servablePoint } from "@/lib/prices/quotes";

const NOW = Date.parse("2026-11-22T12:00:00Z");
let id = 0;
const series = (o: Partial<SeriesRead> & { points?: [string, number][] }): SeriesRead => ({
  id: ++id, product_id: "c1", source: "CARDMARKET", variant: "TREND", basis: "SOLD", currency: "EUR", locale: "en",
  condition: "NEAR_MINT", printing: "NORMAL", grading_company: null, grading_score: null, provenance: "Cardmarket (test)",
  last_as_of: "2026-11-22",
  recent: (o.points ?? [["2026-11-22", 12], ["2026-11-21", 11]]).map(([as_of, amount]) => ({ as_of, amount, sample_n: 3, observed_at: `${as_of}T00:00:00Z` })),
  ...o,
});
const trial = { plan: "trial" } as Account;
const paid = { plan: "growth" } as Account;

describe("current quotes", () => {
  it("a third-party figure is served only once older than its delay", () => {
    const s = series({ points: [["2026-11-22", 12], ["2026-11-21", 11]] });
    // 2026-11-21 00:00 is 36 h old at NOW: served; 2026-11-22 00:00 is 12 h old: not yet.
    expect(servablePoint(s, NOW)!.amount).toBe(11);
    // At exactly 24 h it is not older than its delay; a millisecond later it is.
    const day21 = Date.parse("2026-11-21T00:00:00Z");
    expect(servablePoint(series({ points: [["2026-11-21", 11]] }), day21 + 24 * 3_600_000)).toBeUndefined();
    expect(servablePoint(series({ points: [["2026-11-21", 11]] }), day21 + 24 * 3_600_000 + 1)!.amount).toBe(11);
    // Sources without a delay serve their newest figure.
    expect(servablePoint(series({ source: "COMMUNITY" }), NOW)!.amount).toBe(12);
  });

  const all = [
    series({}), series({ locale: "de", points: [["2026-11-21", 9]] }),
    series({ source: "EBAY", variant: "MEDIAN_GRADED", grading_company: "PSA", grading_score: "10", locale: "en", points: [["2026-11-21", 99]] }),
    series({ source: "INDEX", variant: "INDEX", basis: "DERIVED", locale: "en", points: [["2026-11-22", 11.5]] }),
    series({ source: "INDEX", variant: "INDEX", basis: "DERIVED", locale: "de", points: [["2026-11-22", 9]] }),
    series({ source: "INDEX", variant: "INDEX", basis: "DERIVED", locale: null, printing: null, points: [["2026-11-22", 11.5]] }),
  ];

  it("the trial sees English, ungraded rows; paid plans everything", () => {
    const t = productPrices(all, trial, {}, "WEST", NOW);
    expect(t.quotes.every((q) => q.locale === "en" && q.grading === null)).toBe(true);
    expect(t.withheld).toBe(3);
    expect(t.index!.by_locale.map((e) => e.locale)).toEqual(["en"]);
    const p = productPrices(all, paid, {}, "WEST", NOW);
    expect(p.quotes).toHaveLength(5);
    expect(p.withheld).toBe(0);
    expect(p.delayedHours).toBe(24);
  });

  it("filters change the quotes, never the index", () => {
    const none = productPrices(all, paid, {}, "WEST", NOW);
    for (const f of [{ source: "EBAY" }, { locale: "de" }, { variant: "LOW" }]) {
      const r = productPrices(all, paid, f, "WEST", NOW);
      expect(r.index).toEqual(none.index);
      expect(r.quotes.length).toBeLessThan(none.quotes.length);
    }
    expect(productPrices([], paid, {}, "WEST", NOW)).toMatchObject({ index: null, quotes: [] });
  });

  it("meta.delayed_hours is the longest delay among the rows served", () => {
    expect(productPrices(all, paid, { source: "INDEX" }, "WEST", NOW).delayedHours).toBe(0);
    expect(productPrices(all, paid, { source: "CARDMARKET" }, "WEST", NOW).delayedHours).toBe(24);
    expect(productPrices(all, trial, { locale: "de" }, "WEST", NOW)).toMatchObject({ quotes: [], delayedHours: 0 });
  });

  it("a product whose only figures name no language has an index: the headline series is its one entry", () => {
    const community = [
      series({ source: "COMMUNITY", variant: "MARKET", locale: null, printing: null, condition: null, points: [["2026-11-22", 0.21]] }),
      series({ source: "INDEX", variant: "INDEX", basis: "DERIVED", locale: null, printing: null, points: [["2026-11-22", 0.21]] }),
    ];
    const p = productPrices(community, paid, {}, "JP", NOW);
    expect(p.index).toMatchObject({ eur: 0.21, as_of: "2026-11-22", by_locale: [{ locale: null, printing: null, eur: 0.21 }] });
    expect(p.quotes.map((q) => q.source)).toEqual(["COMMUNITY"]);
    // The trial sees English rows only: a figure of no stated language is not one.
    expect(productPrices(community, trial, {}, "JP", NOW).index).toBeNull();
    // Beside entries of their own, the headline is not an entry again.
    expect(productPrices(all, paid, {}, "WEST", NOW).index!.by_locale.map((e) => e.locale)).toEqual(["de", "en"]);
  });
});
