import { describe, expect, it } from "vitest";
import { parseHistoryLine } from "@/lib/prices/history-feed";
import { addDays, eachDay } from "@/lib/prices/pack";

const line = { product: "card:base1-4", variant: "MARKET", basis: "SOLD", currency: "USD", locale: "en", condition: null, printing: null, grading: null, provenance: "eBay" };

describe("eachDay", () => {
  it("counts across month ends, a leap day and a year end as the calendar does", () => {
    const seen: string[] = [];
    eachDay("2024-02-27", 340, (i, month, index) => {
      seen.push(`${Math.floor(month / 100)}-${String(month % 100).padStart(2, "0")}-${String(index + 1).padStart(2, "0")}`);
      expect(seen[i]).toBe(addDays("2024-02-27", i));
    });
    expect(seen.slice(0, 4)).toEqual(["2024-02-27", "2024-02-28", "2024-02-29", "2024-03-01"]);
    expect(seen).toContain("2024-12-31");
    expect(seen).toContain("2025-01-01");
    expect(seen).toHaveLength(340);
  });
});

describe("parseHistoryLine", () => {
  const today = "2026-11-22";
  const parse = (o: object) => parseHistoryLine("EBAY", JSON.stringify(o), today);

  it("takes the source from the file and keeps null days", () => {
    const r = parse({ ...line, from: "2026-11-20", amounts: [1.5, null, 2] });
    expect(r).toMatchObject({ ok: true, line: { source: "EBAY", amounts: [1.5, null, 2] } });
  });

  it("refuses a line whole: a bad figure by its index, days past today, another source, no figure", () => {
    expect(parse({ ...line, from: "2026-11-20", amounts: [1, 0] })).toEqual({ ok: false, error: "amounts.1: not a positive amount" });
    expect(parse({ ...line, from: "2026-11-20", amounts: [1, 2, 3, 4] })).toEqual({ ok: false, error: "amounts: runs past today" });
    expect(parse({ ...line, source: "TCGPLAYER", from: "2026-11-20", amounts: [1] })).toEqual({ ok: false, error: "source: this file belongs to EBAY" });
    expect(parse({ ...line, from: "2026-11-20", amounts: [null] })).toEqual({ ok: false, error: "no figure on the line" });
    expect(parse({ ...line, from: "2026-11-20", amounts: [] }).ok).toBe(false);
    expect(parse({ ...line, from: "20 Nov", amounts: [1] }).ok).toBe(false);
    expect(parseHistoryLine("EBAY", "{", today)).toEqual({ ok: false, error: "not JSON" });
  });
});
