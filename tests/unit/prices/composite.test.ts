import { describe, expect, it } from "vitest";
import { compositeIndex, median, type IndexInput } from "@/lib/prices/composite";

const fig = (o: Partial<IndexInput>): IndexInput => ({
  source: "CARDMARKET", variant: "TREND", currency: "EUR", locale: "en", condition: "NEAR_MINT", printing: "NORMAL", graded: false,
  amount: 10, as_of: "2026-11-20", ...o,
});
const fx = (rates: Record<string, number>) => (c: string) => rates[c];

describe("composite index", () => {
  it("median: odd and even counts", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it("one figure per source, converted to EUR; the median of an even count is the mean of the middle two", () => {
    const { index } = compositeIndex([
      fig({ source: "CARDMARKET", amount: 10 }),
      fig({ source: "CARDMARKET", variant: "LOW", amount: 1 }), // a source's asking price yields to its trend
      fig({ source: "TCGPLAYER", variant: "MARKET", currency: "USD", amount: 22 }), // 20 EUR at 1.1
      fig({ source: "SNKRDUNK", variant: "MARKET", currency: "JPY", amount: 2400 }), // 15 EUR at 160
      fig({ source: "EBAY", variant: "MARKET", currency: "GBP", amount: 10.8, printing: null, condition: null }), // 12 EUR at 0.9, joins NORMAL
    ], fx({ USD: 1.1, JPY: 160, GBP: 0.9 }), "en");
    expect(index).toMatchObject({ eur: 13.5, sample_n: 4, as_of: "2026-11-20" });
    expect(index!.by_locale).toEqual([{ locale: "en", printing: "NORMAL", eur: 13.5, as_of: "2026-11-20", sample_n: 4 }]);
  });

  it("graded medians and the INDEX itself never feed the index", () => {
    const { index } = compositeIndex([
      fig({ amount: 10 }), fig({ source: "EBAY", variant: "MEDIAN_GRADED", graded: true, amount: 900 }), fig({ source: "INDEX", variant: "INDEX", amount: 500 }),
    ], fx({}), "en");
    expect(index).toMatchObject({ eur: 10, sample_n: 1 });
  });

  it("a figure without an exchange rate is left out and counted", () => {
    const r = compositeIndex([fig({ amount: 10 }), fig({ source: "TCGPLAYER", variant: "MARKET", currency: "USD", amount: 30 })], fx({}), "en");
    expect(r.missingRates).toBe(1);
    expect(r.index).toMatchObject({ eur: 10, sample_n: 1 });
    expect(compositeIndex([fig({ currency: "USD" })], fx({}), "en").index).toBeNull();
  });

  it("per locale and printing; the headline is the primary locale's best-sampled entry", () => {
    const { index } = compositeIndex([
      fig({ locale: "ja", amount: 5 }), fig({ source: "SNKRDUNK", variant: "MARKET", locale: "ja", amount: 7, printing: null }),
      fig({ locale: "en", amount: 50 }),
    ], fx({}), "ja");
    expect(index!.by_locale.map((e) => [e.locale, e.printing, e.eur, e.sample_n])).toEqual([["en", "NORMAL", 50, 1], ["ja", "NORMAL", 6, 2]]);
    expect(index!.eur).toBe(6);
  });
});
