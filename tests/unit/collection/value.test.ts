import { describe, expect, it } from "vitest";
import { alertStep, itemValue, languagesOf, printingsOf, totals, valueByDay } from "@/lib/collection/model";

describe("collection value math", () => {
  it("values an item at quantity × index and compares with the price paid", () => {
    expect(itemValue({ quantity: 3, unitEur: 10.1, paidEur: 8 })).toEqual({ value: 30.3, cost: 24, gain: 6.3, gainPct: 26.25 });
    expect(itemValue({ quantity: 2, unitEur: null, paidEur: 8 })).toEqual({ value: null, cost: 16, gain: null, gainPct: null });
    expect(itemValue({ quantity: 2, unitEur: 5, paidEur: null })).toEqual({ value: 10, cost: null, gain: null, gainPct: null });
    expect(itemValue({ quantity: 1, unitEur: 5, paidEur: 0 })).toEqual({ value: 5, cost: 0, gain: 5, gainPct: null });
  });

  it("sums value over priced items and gain over items with both prices", () => {
    const t = totals([
      { quantity: 2, unitEur: 10, paidEur: 12 },   // value 20, cost 24
      { quantity: 1, unitEur: 100, paidEur: null }, // value 100, no cost
      { quantity: 5, unitEur: null, paidEur: 1 },   // no value
      { quantity: 1, unitEur: 0.1, paidEur: 0.05 }, // value 0.10, cost 0.05
    ]);
    expect(t).toEqual({ items: 4, copies: 9, value: 120.1, priced: 3, cost: 24.05, costValue: 20.1, gain: -3.95, gainPct: -16.42, compared: 2 });
    expect(totals([])).toMatchObject({ value: 0, gain: 0, gainPct: null, compared: 0 });
  });

  it("adds the items' daily values, leaving out days without any price", () => {
    expect(valueByDay([
      { quantity: 2, points: [{ date: "2026-01-02", amount: 1.1 }, { date: "2026-01-03", amount: 1.2 }] },
      { quantity: 1, points: [{ date: "2026-01-03", amount: 10 }, { date: "2026-01-01", amount: 9 }] },
    ])).toEqual([{ date: "2026-01-01", eur: 9 }, { date: "2026-01-02", eur: 2.2 }, { date: "2026-01-03", eur: 12.4 }]);
  });

  it("once per crossing: mail when armed and met, re-arm when back, nothing between", () => {
    const above = { direction: "above" as const, threshold: 100 };
    expect(alertStep({ ...above, armed: true }, 99.99)).toBe("none");
    expect(alertStep({ ...above, armed: true }, 100)).toBe("mail");
    expect(alertStep({ ...above, armed: false }, 150)).toBe("none");
    expect(alertStep({ ...above, armed: false }, 90)).toBe("rearm");
    expect(alertStep({ ...above, armed: true }, null)).toBe("none");
    const below = { direction: "below" as const, threshold: 50 };
    expect(alertStep({ ...below, armed: true }, 49)).toBe("mail");
    expect(alertStep({ ...below, armed: false }, 51)).toBe("rearm");
  });

  it("printings from the catalogue's variants, languages from the card's list", () => {
    expect(printingsOf({ holo: true, normal: false, reverse: false, first_edition: true })).toEqual(["HOLOFOIL", "FIRST_EDITION_HOLOFOIL"]);
    expect(printingsOf({ holo: false, normal: true, reverse: true, first_edition: false })).toEqual(["NORMAL", "REVERSE_HOLO"]);
    expect(printingsOf(null)).toEqual([]);
    expect(languagesOf(["JA"])).toEqual(["ja"]);
    expect(languagesOf([])).toHaveLength(9);
  });
});
