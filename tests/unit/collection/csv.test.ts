import { describe, expect, it } from "vitest";
import {
  CSV_COLUMNS, csvRecords, describeErrors, formatCollectionCsv, MAX_CSV_BYTES, MAX_CSV_LINES, parseAddedAt, parseCollectionCsv,
} from "@/lib/collection/csv";

const HEADER = CSV_COLUMNS.join(",");
const NOW = Date.parse("2026-11-23T12:00:00Z");

describe("collection CSV: parse", () => {
  it("reads a file with the header, empty optional fields and quoted fields", () => {
    const r = parseCollectionCsv([
      HEADER,
      "base1-4,2,NM,HOLOFOIL,en,120.50,EUR,2026-01-31T09:30:00.000Z",
      '"base1-2",1,lp,holofoil,DE,,,2026-02-01',
      "base1-3,3,MP,FIRST_EDITION_HOLOFOIL,ja,5,usd,",
      "",
    ].join("\r\n"), NOW);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.lines).toEqual([
      { line: 2, item: { cardId: "base1-4", quantity: 2, condition: "NM", printing: "HOLOFOIL", language: "en", pricePaid: 120.5, currency: "EUR", addedAt: "2026-01-31T09:30:00.000Z" } },
      { line: 3, item: { cardId: "base1-2", quantity: 1, condition: "LP", printing: "HOLOFOIL", language: "de", pricePaid: null, currency: "EUR", addedAt: "2026-02-01T00:00:00.000Z" } },
      { line: 4, item: { cardId: "base1-3", quantity: 3, condition: "MP", printing: "FIRST_EDITION_HOLOFOIL", language: "ja", pricePaid: 5, currency: "USD", addedAt: null } },
    ]);
  });

  it("reports every bad line with its number and keeps none", () => {
    const r = parseCollectionCsv([
      HEADER,
      "base1-4,2,NM,HOLOFOIL,en,1,EUR,",
      "base1-4,0,NM,HOLOFOIL,en,1,EUR,",
      "base1-4,1,MINT,HOLOFOIL,en,1,EUR,",
      "",
      "base1-4,1,NM,SHINY,en,1,EUR,",
      "base1-4,1,NM,HOLOFOIL,xx,1,EUR,",
      "base1-4,1,NM,HOLOFOIL,en,1.234,EUR,",
      "base1-4,1,NM,HOLOFOIL,en,1,CHF,",
      "base1-4,1,NM,HOLOFOIL,en,1,EUR,yesterday",
      "base1-4,1,NM,HOLOFOIL,en,1,EUR",
      ",1,NM,HOLOFOIL,en,1,EUR,",
      "base1-4,1,NM,HOLOFOIL,en,1,EUR,2099-01-01",
    ].join("\n"), NOW);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors.map((e) => e.line)).toEqual([3, 4, 6, 7, 8, 9, 10, 11, 12, 13]);
    const text = describeErrors(r.errors).join("\n");
    expect(text).toMatch(/^line 3: quantity must be a whole number/m);
    expect(text).toMatch(/^line 4: condition must be one of NM, LP, MP, HP, DMG/m);
    expect(text).toMatch(/^line 6: printing must be one of/m);
    expect(text).toMatch(/^line 7: language must be one of/m);
    expect(text).toMatch(/^line 8: price_paid must be an amount/m);
    expect(text).toMatch(/^line 9: currency must be one of EUR, USD, GBP, JPY/m);
    expect(text).toMatch(/^line 10: added_at must be a date/m);
    expect(text).toMatch(/^line 11: expected 8 fields, found 7/m);
    expect(text).toMatch(/^line 12: card_id is empty/m);
    expect(text).toMatch(/^line 13: added_at 2099-01-01 is in the future/m);
  });

  it("requires the exact header", () => {
    const r = parseCollectionCsv("card,quantity\nbase1-4,1\n", NOW);
    expect(r).toMatchObject({ ok: false, errors: [{ line: 1, message: expect.stringContaining(`the header must be exactly ${HEADER}`) }] });
    expect(parseCollectionCsv("", NOW)).toMatchObject({ ok: false, fatal: expect.stringContaining("empty") });
    expect(parseCollectionCsv(`${HEADER}\n`, NOW)).toMatchObject({ ok: false, fatal: expect.stringContaining("no cards") });
    // A byte-order mark and an upper-case header are accepted.
    expect(parseCollectionCsv(`\uFEFF${HEADER.toUpperCase()}\nbase1-4,1,NM,HOLOFOIL,en,,,\n`, NOW).ok).toBe(true);
  });

  it("refuses a file over 1 MB or 5,000 lines with a clear message", () => {
    const big = `${HEADER}\n` + "x".repeat(MAX_CSV_BYTES);
    expect(parseCollectionCsv(big, NOW)).toMatchObject({ ok: false, fatal: expect.stringMatching(/at most 1,000,000 bytes \(1 MB\)/) });
    const many = [HEADER, ...Array.from({ length: MAX_CSV_LINES + 1 }, () => "base1-4,1,NM,HOLOFOIL,en,,,")].join("\n");
    expect(parseCollectionCsv(many, NOW)).toMatchObject({ ok: false, fatal: expect.stringMatching(/5,001 lines of cards; an import takes at most 5,000/) });
    const enough = [HEADER, ...Array.from({ length: MAX_CSV_LINES }, () => "base1-4,1,NM,HOLOFOIL,en,,,")].join("\n");
    expect(parseCollectionCsv(enough, NOW).ok).toBe(true);
  });

  it("numbers records by the line they start on, across quoted line breaks", () => {
    expect(csvRecords('a,"b\nc",d\ne,f\n')).toEqual([{ line: 1, cells: ["a", "b\nc", "d"] }, { line: 3, cells: ["e", "f"] }]);
    expect(csvRecords('a,"b""c"\n')).toEqual([{ line: 1, cells: ["a", 'b"c'] }]);
    expect(csvRecords('a,"open\n')).toEqual({ line: 1, message: "a quoted field is not closed" });
    expect(csvRecords('a,b"c\n')).toMatchObject({ line: 1 });
  });

  it("added_at: empty, a date, or a time with its zone", () => {
    expect(parseAddedAt("", NOW)).toBeNull();
    expect(parseAddedAt("2026-03-04", NOW)).toBe("2026-03-04T00:00:00.000Z");
    expect(parseAddedAt("2026-03-04T10:00:00+02:00", NOW)).toBe("2026-03-04T08:00:00.000Z");
    expect(parseAddedAt("2026-03-04T10:00:00", NOW)).toMatchObject({ error: expect.any(String) });
    expect(parseAddedAt("2026-02-30", NOW)).toMatchObject({ error: expect.any(String) });
    // With a time it was stored as 2 March.
    expect(parseAddedAt("2026-02-30T00:00:00Z", NOW)).toMatchObject({ error: expect.any(String) });
    expect(parseAddedAt("2024-02-29T23:30:00-01:00", NOW)).toBe("2024-03-01T00:30:00.000Z");
  });
});

describe("collection CSV: format", () => {
  it("writes the header and two-decimal prices, and reads back to the same items", () => {
    const rows = [
      { cardId: "base1-4", quantity: 2, condition: "NM", printing: "HOLOFOIL", language: "en", pricePaid: 120.5, currency: "EUR", addedAt: "2026-01-31T09:30:00.000Z" },
      { cardId: "sv3pt5-199", quantity: 1, condition: "LP", printing: "NORMAL", language: "ja", pricePaid: null, currency: "USD", addedAt: "2026-02-01T00:00:00.000Z" },
    ];
    const text = formatCollectionCsv(rows);
    expect(text).toBe(`${HEADER}\nbase1-4,2,NM,HOLOFOIL,en,120.50,EUR,2026-01-31T09:30:00.000Z\nsv3pt5-199,1,LP,NORMAL,ja,,USD,2026-02-01T00:00:00.000Z\n`);
    const back = parseCollectionCsv(text, NOW);
    expect(back.ok).toBe(true);
    if (!back.ok) return;
    const again = formatCollectionCsv(back.lines.map(({ item }) => ({ ...item, addedAt: item.addedAt! })));
    expect(again).toBe(text);
  });

  it("quotes a field that holds a comma or a quote", () => {
    const text = formatCollectionCsv([{ cardId: 'odd,"id"', quantity: 1, condition: "NM", printing: "NORMAL", language: "en", pricePaid: 1, currency: "EUR", addedAt: "2026-01-01T00:00:00.000Z" }]);
    expect(text.split("\n")[1]).toBe('"odd,""id""",1,NM,NORMAL,en,1.00,EUR,2026-01-01T00:00:00.000Z');
    const back = parseCollectionCsv(text, NOW);
    expect(back.ok && back.lines[0]!.item.cardId).toBe('odd,"id"');
  });
});

describe("collection CSV: a NUL", () => {
  it("is refused with its line number (the import answered 500: PostgreSQL's text cannot hold one)", () => {
    const r = parseCollectionCsv([HEADER, "base1-4,1,NM,HOLOFOIL,en,,EUR,", "base1-4\u0000,1,NM,HOLOFOIL,en,,EUR,"].join("\n"), NOW);
    expect(r.ok).toBe(false);
    expect(!r.ok && (r.errors[0] ?? { line: 0, message: r.fatal })).toMatchObject({ line: 3, message: expect.stringMatching(/NUL/) });
  });
});
