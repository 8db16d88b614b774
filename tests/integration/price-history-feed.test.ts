import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { refreshPrices } from "@/lib/prices/refresh";
import { unpack } from "@/lib/prices/pack";
import { getJson } from "../helpers/api";
import { query } from "../helpers/db";
import { day, feeds, quiet } from "../helpers/feeds";

// History files: a provider's back catalogue, one series per line, applied by refresh-prices
// before the source's daily files and merged day by day into the store.

const CARD = "base1-13";
const j = JSON.stringify;
const series = { product: `card:${CARD}`, variant: "TREND", basis: "SOLD", currency: "EUR", locale: "en", condition: "NEAR_MINT", printing: "HOLOFOIL", grading: null, provenance: "Cardmarket (test)" };

/** The stored days of the card's Cardmarket TREND series, oldest first. */
async function storedDays(): Promise<[string, number][]> {
  const months = await query<{ month: number; hex: string }>(`
    select m.month, encode(m.amounts, 'hex') as hex from price_months m join price_series s on s.id = m.series_id
    where s.product_id = $1 and s.source = 'CARDMARKET' and s.variant = 'TREND' order by m.month`, [CARD]);
  return months.flatMap((m) => unpack(m.month, Buffer.from(m.hex, "hex")));
}

let first: Awaited<ReturnType<typeof refreshPrices>>;

beforeAll(async () => {
  await query("delete from price_series where product_id = $1", [CARD]);
  await query("delete from price_docs where product_id = $1", [CARD]);
  first = await refreshPrices(feeds({
    // Named to sort after the history file: history is applied first all the same.
    "cardmarket/a-daily.ndjson": [j({ product: `card:${CARD}`, date: day(-3), language: "en", printing: "HOLOFOIL", trend: 30 })],
    "cardmarket/history-test.ndjson": [
      j({ ...series, from: day(-12), amounts: [10, 11, null, 13, 14, 15, 16, 17, 18], sample_n: 5 }),
      j({ ...series, from: day(-12), amounts: [10, -1] }),
      j({ ...series, from: day(-1), amounts: [1, 2, 3, 4] }),
      j({ ...series, product: "card:no-such-card", from: day(-12), amounts: [1] }),
      j({ ...series, variant: "MEDIAN_GRADED", from: day(-12), amounts: [1] }),
      j({ ...series, source: "TCGPLAYER", from: day(-12), amounts: [1] }),
      j({ ...series, from: day(-12), amounts: [null, null] }),
    ],
  }, "history-feeds-"), quiet());
});

// Other files' tests expect this card without prices.
afterAll(async () => {
  await query("delete from price_series where product_id = $1", [CARD]);
  await query("delete from price_docs where product_id = $1", [CARD]);
});

describe("history files", () => {
  it("are applied before the source's daily files, bad lines counted and reported with their numbers", () => {
    const files = first.files.filter((f) => f.source === "CARDMARKET");
    expect(files.map((f) => f.file)).toEqual(["cardmarket/history-test.ndjson", "cardmarket/a-daily.ndjson"]);
    expect(files[0]).toMatchObject({ lines: 7, applied: 1, rejected: 6 });
    expect(files[0]!.errors).toEqual([
      "line 2: amounts.1: not a positive amount",
      "line 3: amounts: runs past today",
      "line 5: line: graded rows are MEDIAN_GRADED, and MEDIAN_GRADED rows are graded",
      "line 6: source: this file belongs to CARDMARKET",
      "line 7: no figure on the line",
      "line 4: unknown product card:no-such-card",
    ]);
  });

  it("land day by day in the series, the daily file's figure merged into the same month rows", async () => {
    const expected: [string, number][] = [[day(-12), 10], [day(-11), 11], [day(-9), 13], [day(-8), 14], [day(-7), 15], [day(-6), 16], [day(-5), 17], [day(-4), 18], [day(-3), 30]];
    expect(await storedDays()).toEqual(expected);
    const [s] = await query<{ first: string; last: string; recent: string }>(
      "select first_as_of::text as first, last_as_of::text as last, recent::text from price_series where product_id = $1 and source = 'CARDMARKET' and variant = 'TREND'", [CARD]);
    expect(s).toMatchObject({ first: day(-12), last: day(-3) });
  });

  it("serve the history route and the newest figure as the quote", async () => {
    const h = (await getJson(`/v1/cards/${CARD}/prices/history?window=30d&source=CARDMARKET`)).body;
    const trend = h.data.series.find((x: { variant: string }) => x.variant === "TREND");
    expect(trend.points[0]).toEqual({ date: day(-12), amount: 10 });
    // A day without a figure carries the day before it.
    expect(trend.points.find((p: { date: string }) => p.date === day(-10))).toEqual({ date: day(-10), amount: 11 });
    const q = (await getJson(`/v1/cards/${CARD}/prices?source=CARDMARKET`)).body;
    expect(q.data.quotes.find((x: { variant: string }) => x.variant === "TREND")).toMatchObject({ amount: 30, as_of: day(-3) });
  });

  it("a later history file overwrites the days it names and keeps the others; applying it twice changes nothing", async () => {
    const dir = feeds({ "cardmarket/history-fix.ndjson": [j({ ...series, from: day(-8), amounts: [140, null, 160] })] }, "history-feeds-");
    await refreshPrices(dir, quiet());
    const once = await storedDays();
    expect(once).toEqual([[day(-12), 10], [day(-11), 11], [day(-9), 13], [day(-8), 140], [day(-7), 15], [day(-6), 160], [day(-5), 17], [day(-4), 18], [day(-3), 30]]);
    await refreshPrices(dir, quiet(), { force: true });
    expect(await storedDays()).toEqual(once);
  });
});
