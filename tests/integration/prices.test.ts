import { beforeAll, describe, expect, it } from "vitest";
import { storeRates } from "@/lib/prices/fx";
import { refreshIndex } from "@/lib/prices/refresh-index";
import { refreshPrices } from "@/lib/prices/refresh";
import { keyHash } from "@/lib/prices/queries/recent";
import { getJson, walk } from "../helpers/api";
import { makeAccount } from "../helpers/accounts";
import { query } from "../helpers/db";
import { day, feeds, quiet } from "../helpers/feeds";

// refresh-prices and refresh-index on hand-made feeds, then the price routes over them.

const CARD = "base1-2";
const SEALED = "journey-together-journey-together-enhanced-booster-box-623628";

const j = JSON.stringify;
let first: Awaited<ReturnType<typeof refreshPrices>>;
let dir: string;

beforeAll(async () => {
  await query("delete from price_series where product_id = $1", [CARD]);
  await query("delete from price_docs where product_id = $1", [CARD]);
  // The same hand-made files as an earlier run: forget that they were applied.
  await query("delete from price_feeds");
  await query("delete from price_series where product_id = $1", [SEALED]);
  await query("delete from price_docs where product_id = $1", [SEALED]);
  await storeRates([day(-3), day(-2), day(-1), day(0)].map((d) => ({ day: d, currency: "USD", per_eur: 1.25 })));
  dir = feeds({
    "cardmarket/a.ndjson": [
      j({ product: `card:${CARD}`, date: day(-2), language: "en", printing: "HOLOFOIL", low: 8, trend: 10 }),
      j({ product: `card:${CARD}`, date: day(-2), language: "de", printing: "HOLOFOIL", trend: 9 }),
      "{not json",
      j({ product: "card:no-such-card", date: day(-2), language: "en", printing: "HOLOFOIL", trend: 1 }),
      j({ product: `card:${CARD}`, date: day(-2), language: "en", printing: "SHINY", trend: 1 }),
    ],
    "cardmarket/b.ndjson": [j({ product: "sealed:SV9-623628", date: day(-2), language: "en", printing: "NORMAL", trend: 150, low: 120 })],
    "tcgplayer/a.ndjson": [j({ product: `card:${CARD}`, date: day(-2), subTypeName: "Holofoil", lowPrice: 10, marketPrice: 15 })],
    "ebay/a.ndjson": [
      j({ product: `card:${CARD}`, date: day(-2), grade: null, median_usd: 20, sold_count: 4 }),
      j({ product: `card:${CARD}`, date: day(-2), grade: "PSA 10", median_usd: 400, sold_count: 2 }),
      j({ product: `card:${CARD}`, date: day(-2), grade: "PSA 10", median_usd: -4, sold_count: 2 }),
    ],
  });
  first = await refreshPrices(dir, quiet());
  await refreshIndex(quiet());
});

describe("refresh-prices", () => {
  it("applies good lines, counts and reports bad ones, and skips files it has applied", async () => {
    const cm = first.files.find((f) => f.source === "CARDMARKET")!;
    expect(cm).toMatchObject({ lines: 5, applied: 2, rejected: 3 });
    expect(cm.errors.join("\n")).toMatch(/line 3: not JSON[\s\S]*line 5: printing[\s\S]*line 4: unknown product card:no-such-card/);
    expect(first.files.find((f) => f.source === "EBAY")).toMatchObject({ applied: 2, rejected: 1 });
    const again = await refreshPrices(dir, quiet());
    expect(again.files.every((f) => f.skipped)).toBe(true);
    expect(again.observations).toBe(0);
  });

  it("series are found by the md5 of their key, as PostgreSQL computes it", async () => {
    const [row] = await query<{ h: string }>("select md5('card:x|CARDMARKET')::uuid::text as h");
    expect(keyHash("card:x|CARDMARKET")).toBe(row!.h);
  });

  it("re-applying a feed leaves the same rows (idempotent)", async () => {
    const before = await query("select key_hash, recent::text from price_series where product_id = $1 order by key_hash", [CARD]);
    await refreshPrices(dir, quiet(), { force: true });
    expect(await query("select key_hash, recent::text from price_series where product_id = $1 order by key_hash", [CARD])).toEqual(before);
  });
});

describe("GET /v1/cards/{id}/prices", () => {
  it("paid plans: every row; the index is the median in EUR across sources per locale and printing", async () => {
    const { res, body } = await getJson(`/v1/cards/${CARD}/prices`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, max-age=300");
    expect(res.headers.get("x-credits-cost")).toBe("2");
    // en HOLOFOIL: Cardmarket trend 10, TCGplayer market 15 USD = 12, eBay 20 USD = 16 → median 12.
    expect(body.data.index).toMatchObject({ eur: 12, sample_n: 3 });
    expect(body.data.index.by_locale).toEqual([
      { locale: "de", printing: "HOLOFOIL", eur: 9, as_of: day(-2), sample_n: 1 },
      { locale: "en", printing: "HOLOFOIL", eur: 12, as_of: day(-2), sample_n: 3 },
    ]);
    const graded = body.data.quotes.filter((q: any) => q.grading);
    expect(graded).toEqual([expect.objectContaining({ source: "EBAY", variant: "MEDIAN_GRADED", amount: 400, grading: { company: "PSA", score: "10" } })]);
    expect(body.meta).toMatchObject({ quotes: body.data.quotes.length, delayed_hours: 24, plan_notes: [] });
  });

  it("the trial: English ungraded rows, an index from them, and a note", async () => {
    const trial = await makeAccount({ confirmed: true });
    const { body } = await getJson(`/v1/cards/${CARD}/prices`, { "x-api-key": trial.key });
    expect(body.data.quotes.length).toBeGreaterThan(0);
    expect(body.data.quotes.every((q: any) => q.locale === "en" && q.grading === null)).toBe(true);
    expect(body.data.index.by_locale.map((e: any) => e.locale)).toEqual(["en"]);
    expect(body.meta.plan_notes[0]).toMatch(/withheld/);
  });

  it("filters never change the index; an unknown source is 400 with the valid list", async () => {
    const all = (await getJson(`/v1/cards/${CARD}/prices`)).body;
    const ebay = (await getJson(`/v1/cards/${CARD}/prices?source=EBAY&locale=en`)).body;
    expect(ebay.data.index).toEqual(all.data.index);
    expect(ebay.data.quotes.every((q: any) => q.source === "EBAY")).toBe(true);
    const bad = await getJson(`/v1/cards/${CARD}/prices?source=FOO`);
    expect(bad.res.status).toBe(400);
    expect(bad.body.error.details.valid_values).toHaveLength(7);
  });

  it("a card without observations: index null, no quotes", async () => {
    const { body } = await getJson("/v1/cards/base1-3/prices");
    expect(body.data).toEqual({ card_id: "base1-3", index: null, quotes: [] });
  });

  it("a figure still under its source's delay reaches neither the quotes nor the index", async () => {
    const id = "base1-5";
    await query("delete from price_series where product_id = $1", [id]);
    await query("delete from price_docs where product_id = $1", [id]);
    const line = (date: string, trend: number) => j({ product: `card:${id}`, date, language: "en", printing: "HOLOFOIL", trend });
    // Today's Cardmarket figure began less than 24 hours ago; the one of two days ago is served.
    await refreshPrices(feeds({ [`cardmarket/delay-${Date.now()}.ndjson`]: [line(day(-2), 10), line(day(0), 30)] }), quiet());
    await refreshIndex(quiet());
    const { body } = await getJson(`/v1/cards/${id}/prices`);
    expect(body.data.quotes.filter((q: any) => q.source === "CARDMARKET").map((q: any) => [q.amount, q.as_of])).toEqual([[10, day(-2)]]);
    expect(body.data.index).toMatchObject({ eur: 10, as_of: day(-2), sample_n: 1 });
  });
});

describe("the other price routes", () => {
  it("sources: seven, ordered, with count", async () => {
    const { body } = await getJson("/v1/prices/sources", {});
    expect(body.count).toBe(7);
    expect(body.data.map((s: any) => s.source)).toEqual(["CARDMARKET", "COMMUNITY", "EBAY", "INDEX", "PRICECHARTING", "SNKRDUNK", "TCGPLAYER"]);
  });

  it("current: in the order asked, unknown ids in meta.missing, 4 credits per 25 ids", async () => {
    const { res, body } = await getJson(`/v1/prices/current?ids=base1-3,${CARD},nope`);
    expect(res.headers.get("x-credits-cost")).toBe("4");
    expect(body.data.map((d: any) => d.card_id)).toEqual(["base1-3", CARD]);
    expect(body.meta.missing).toEqual(["nope"]);
  });

  it("history and stats of the index", async () => {
    const h = (await getJson(`/v1/cards/${CARD}/prices/history?window=7d&source=INDEX`)).body;
    expect(h.data.series.length).toBeGreaterThan(0);
    const s = (await getJson(`/v1/cards/${CARD}/prices/stats?window=7d`)).body;
    // The figures' label, as on every quote: '(demo data)' in it when the demo generator made the index.
    expect(s.data).toMatchObject({ card_id: CARD, source: "INDEX", last: 12, provenance: "Composite index" });
  });
});

describe("include=prices on card answers", () => {
  it("the same rows and index as the prices route, on one card, lists, set cards and batches", async () => {
    const own = (await getJson(`/v1/cards/${CARD}/prices`)).body.data;
    const one = await getJson(`/v1/cards/${CARD}?include=prices`);
    expect(one.res.headers.get("x-credits-cost")).toBe("2");
    expect(one.body.data.prices).toEqual({ index: own.index, quotes: own.quotes });
    const set = (await getJson("/v1/sets/base1/cards?q=number:2&include=prices&select=prices")).body;
    expect(set.data[0].prices).toEqual({ index: own.index, quotes: own.quotes });
    const batch = await getJson(`/v1/cards/batch?ids=${CARD},base1-3&include=prices`);
    expect(batch.res.headers.get("x-credits-cost")).toBe("4");
    expect(batch.body.data.map((c: any) => c.prices.quotes.length > 0)).toEqual([true, false]);
  });

  it("the trial's view: English ungraded rows, the note in X-Plan-Withheld, answers not shared with paid plans", async () => {
    const trial = await makeAccount({ confirmed: true });
    const paid = (await getJson(`/v1/cards/${CARD}?include=prices`)).body.data.prices;
    const t = await getJson(`/v1/cards/${CARD}?include=prices`, { "x-api-key": trial.key });
    expect(t.res.headers.get("x-plan-withheld")).toMatch(/withheld/);
    expect(t.body.data.prices.quotes.length).toBeLessThan(paid.quotes.length);
    expect(t.body.data.prices.quotes.every((q: any) => q.locale === "en" && !q.grading)).toBe(true);
    const list = (await getJson("/v1/sets/base1/cards?q=number:2&include=prices", { "x-api-key": trial.key })).body;
    expect(list.meta.plan_notes[0]).toMatch(/Trial/);
  });

  it("the trial's index fields come from its own rows: a card priced only in German has none on the trial", async () => {
    const german = "base1-6";
    await query("delete from price_series where product_id = $1", [german]);
    await refreshPrices(feeds({ "cardmarket/de.ndjson": [j({ product: `card:${german}`, date: day(-2), language: "de", printing: "HOLOFOIL", trend: 30 })] }), quiet());
    await refreshIndex(quiet());
    const paid = (await getJson(`/v1/cards/${german}?include=prices`)).body.data;
    expect(paid.index_eur).toBe(30);
    const trial = await makeAccount({ confirmed: true });
    const path = `/v1/sets/base1/cards?q=number:6&include=prices&select=index_eur,last_price_at,prices`;
    for (const url of [`/v1/cards/${german}?include=prices`, path, `/v1/cards/${german}?include=index`, `/v1/cards/batch?ids=${german}&include=index`]) {
      const { body } = await getJson(url, { "x-api-key": trial.key });
      const card = Array.isArray(body.data) ? body.data[0] : body.data;
      if (url.includes("prices")) expect(card.prices.index, url).toBeNull();
      expect([card.index_eur, card.last_price_at], url).toEqual([null, null]);
    }
    expect((await getJson(`/v1/cards/${german}?include=index`)).body.data.index_eur).toBe(30);
    // Its stats neither: they are the index's, and the trial's index of this card is none.
    expect((await getJson(`/v1/cards/${german}/prices/stats?window=7d`)).body.data).toMatchObject({ points: 1, last: 30 });
    expect((await getJson(`/v1/cards/${german}/prices/stats?window=7d`, { "x-api-key": trial.key })).body.data).toMatchObject({ points: 0, last: null });
    // A card priced in English and German: the trial's stats are its English index, as its prices route gives it.
    const own = (await getJson(`/v1/cards/${CARD}/prices`, { "x-api-key": trial.key })).body.data.index;
    const stats = (await getJson(`/v1/cards/${CARD}/prices/stats?window=7d`, { "x-api-key": trial.key })).body.data;
    expect(stats.last).toBe(own.eur);
  });

  it("the trial's lists sort, filter and page by the index it is shown, not by a figure it is not", async () => {
    // base1-6 priced only in German: the catalogue's index 30, the trial's none.
    const english = "base1-7";
    await query("delete from price_series where product_id = any($1)", [["base1-6", english]]);
    await refreshPrices(feeds({
      [`cardmarket/en${Date.now()}.ndjson`]: [
        j({ product: `card:${english}`, date: day(-2), language: "en", printing: "HOLOFOIL", trend: 50 }),
        j({ product: "card:base1-6", date: day(-2), language: "de", printing: "HOLOFOIL", trend: 30 }),
      ],
    }), quiet());
    await refreshIndex(quiet());
    const trial = { "x-api-key": (await makeAccount({ confirmed: true })).key };
    const q = encodeURIComponent(`id:${CARD} OR id:base1-6 OR id:${english}`);
    // Paged one row at a time once, to follow the cursors; the trial's burst holds ten calls.
    const list = async (order: string, h: Record<string, string> = trial, limit = 3) =>
      (await walk(`/v1/cards?q=${q}&include=index&orderBy=${order}&limit=${limit}&select=id,index_eur,last_price_at`, h)).rows;
    const own = (await getJson(`/v1/cards/${CARD}/prices`, trial)).body.data.index;
    expect(await list("index_eur", trial, 1)).toEqual([
      { id: CARD, index_eur: own.eur, last_price_at: `${own.as_of}T00:00:00.000Z` },
      { id: english, index_eur: 50, last_price_at: `${day(-2)}T00:00:00.000Z` },
      { id: "base1-6", index_eur: null, last_price_at: null },
    ]);
    expect((await list("-index_eur")).map((r: any) => r.id)).toEqual(["base1-6", english, CARD]);
    expect((await list("-last_price_at,index_eur")).map((r: any) => r.id)).toEqual(["base1-6", CARD, english]);
    // A paid plan sees the German figure, and sorts by it.
    expect((await list("index_eur", {})).map((r: any) => r.index_eur)).toEqual([own.eur, 30, 50]);
    const priced = async (term: string, h: Record<string, string> = trial) =>
      (await getJson(`/v1/cards?q=${encodeURIComponent(`(${decodeURIComponent(q)}) ${term}`)}&include=index&select=id,index_eur`, h)).body.data.map((r: any) => r.id).sort();
    expect(await priced("price:*")).toEqual([CARD, english].sort());
    expect(await priced("price:>=20")).toEqual([english]);
    expect(await priced("price:>=20", {})).toEqual(["base1-6", english].sort());
  });
});

describe("sealed products", () => {
  it("the trial's include=index on a sealed product priced only in German: none, as its prices route says", async () => {
    const slug = "prismatic-evolutions-prismatic-evolutions-booster-pack-593294";
    await query("delete from price_series where product_id = $1", [slug]);
    await refreshPrices(feeds({ "cardmarket/sealed-de.ndjson": [j({ product: "sealed:SV8PT5-593294", date: day(-2), language: "de", printing: "NORMAL", trend: 7 })] }), quiet());
    await refreshIndex(quiet());
    expect((await getJson(`/v1/sealed/${slug}?include=index`)).body.data.index_eur).toBe(7);
    const trial = await makeAccount({ confirmed: true });
    expect((await getJson(`/v1/sealed/${slug}/prices`, { "x-api-key": trial.key })).body.data.index).toBeNull();
    expect((await getJson(`/v1/sealed/${slug}?include=index`, { "x-api-key": trial.key })).body.data.index_eur).toBeNull();
    // The trial's list sorts it as a product without an index: among the nulls, in slug order.
    const rows = (await getJson("/v1/sealed?q=prismatic&include=index&orderBy=index_eur&limit=250", { "x-api-key": trial.key })).body.data;
    const unpriced = rows.filter((r: any) => r.index_eur === null).map((r: any) => r.slug);
    expect(unpriced).toContain(slug);
    expect(unpriced).toEqual([...unpriced].sort());
    expect(rows.slice(rows.length - unpriced.length).every((r: any) => r.index_eur === null)).toBe(true);
  });

  it("the sealed prices route, and include=prices on one product and on the list", async () => {
    const own = await getJson("/v1/sealed/SV9-623628/prices");
    expect(own.body.data).toMatchObject({ sealed_id: SEALED, index: { eur: 150, sample_n: 1 } });
    // The slug in any case, as GET /v1/sealed/{id} takes it.
    for (const id of [SEALED, SEALED.toUpperCase(), "sv9-623628"]) {
      expect((await getJson(`/v1/sealed/${id}/prices`)).body.data, id).toEqual(own.body.data);
    }
    expect(own.body.data.quotes.map((q: any) => q.variant)).toEqual(expect.arrayContaining(["LOW", "TREND"]));
    const one = await getJson("/v1/sealed/SV9-623628?include=prices");
    expect(one.res.headers.get("x-credits-cost")).toBe("2");
    expect(one.body.data.prices).toEqual({ index: own.body.data.index, quotes: own.body.data.quotes });
    const list = await getJson("/v1/sealed?q=journey&limit=25&include=prices");
    expect(list.res.headers.get("x-credits-cost")).toBe("4");
    expect(list.body.data.find((p: any) => p.slug === SEALED).prices.index.eur).toBe(150);
  });
});

describe("GET /v1/prices/movers", () => {
  it("ranks the index's moves over the window, with a price floor; Growth only", async () => {
    // Two daily runs of the jobs, 31 days apart: the index gains its history as it would in production.
    const rise = "base1-6";
    const fall = "base1-7";
    await query("delete from price_series where product_id = any($1)", [[rise, fall]]);
    await query("delete from price_docs where product_id = any($1)", [[rise, fall]]);
    const line = (id: string, date: string, trend: number) => j({ product: `card:${id}`, date, language: "en", printing: "HOLOFOIL", trend });
    const tag = Date.now();
    await refreshPrices(feeds({ [`cardmarket/m${tag}a.ndjson`]: [line(rise, day(-33), 10), line(fall, day(-33), 10)] }), quiet());
    await refreshIndex(quiet());
    await refreshPrices(feeds({ [`cardmarket/m${tag}b.ndjson`]: [line(rise, day(-2), 15), line(fall, day(-2), 6)] }), quiet());
    await refreshIndex(quiet());

    const growth = await makeAccount({ plan: "growth", confirmed: true });
    const { res, body } = await getJson("/v1/prices/movers?window=30d&set=base1&limit=100", { "x-api-key": growth.key });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-credits-cost")).toBe("3");
    expect(body.data.rose.find((m: any) => m.id === rise)).toMatchObject({ from: { eur: 10 }, to: { eur: 15 }, change_pct: 50, change_eur: 5 });
    expect(body.data.fell.find((m: any) => m.id === fall)).toMatchObject({ change_pct: -40, provenance: "Composite index" });
    // limit is 1 to 250 here as everywhere (SPEC.md Cost rules); above, LIMIT_EXCEEDED says so.
    expect((await getJson("/v1/prices/movers?window=30d&set=base1&limit=250", { "x-api-key": growth.key })).res.status).toBe(200);
    const over = await getJson("/v1/prices/movers?window=30d&limit=251", { "x-api-key": growth.key });
    expect([over.res.status, over.body.error.code, over.body.error.details]).toEqual([400, "LIMIT_EXCEEDED", { max: 250, requested: 251 }]);
    // The 7-day window has no point near its start: no move.
    const week = (await getJson("/v1/prices/movers?window=7d&set=base1", { "x-api-key": growth.key })).body;
    expect(week.data.rose.find((m: any) => m.id === rise)).toBeUndefined();
    // A floor above both prices leaves them out.
    const floor = (await getJson("/v1/prices/movers?window=30d&set=base1&min_eur=100", { "x-api-key": growth.key })).body;
    expect([...floor.data.rose, ...floor.data.fell].map((m: any) => m.id)).not.toContain(rise);

    const trial = await makeAccount({ confirmed: true });
    const refused = await getJson("/v1/prices/movers", { "x-api-key": trial.key });
    expect(refused.res.status).toBe(403);
    expect(refused.body.error.code).toBe("PLAN_REQUIRED");
  });
});

describe("24h movers, the cards' change sort keys and the price term of q", () => {
  // Three daily runs: the index gains a point on day -9, -3 and -2 as it would in production.
  const rise = "base1-8";
  const fall = "base1-9";
  let growth: Awaited<ReturnType<typeof makeAccount>>;

  beforeAll(async () => {
    await query("delete from price_series where product_id = any($1)", [[rise, fall]]);
    await query("delete from price_docs where product_id = any($1)", [[rise, fall]]);
    const line = (id: string, date: string, trend: number) => j({ product: `card:${id}`, date, language: "en", printing: "HOLOFOIL", trend });
    const tag = Date.now();
    for (const [i, [d, up, down]] of ([[-9, 10, 10], [-3, 11, 10], [-2, 12, 8]] as const).entries()) {
      await refreshPrices(feeds({ [`cardmarket/c${tag}${i}.ndjson`]: [line(rise, day(d), up), line(fall, day(d), down)] }), quiet());
      await refreshIndex(quiet());
    }
    growth = await makeAccount({ plan: "growth", confirmed: true });
  });

  it("window=24h ranks the newest day against the day before", async () => {
    const { res, body } = await getJson("/v1/prices/movers?window=24h&set=base1&limit=100", { "x-api-key": growth.key });
    expect(res.status).toBe(200);
    expect(body.meta.window).toBe("24h");
    expect(body.data.rose.find((m: any) => m.id === rise)).toMatchObject({ from: { date: day(-3), eur: 11 }, to: { date: day(-2), eur: 12 }, change_pct: 9.09 });
    expect(body.data.fell.find((m: any) => m.id === fall)).toMatchObject({ from: { eur: 10 }, to: { eur: 8 }, change_pct: -20 });
    const bad = await getJson("/v1/prices/movers?window=1d", { "x-api-key": growth.key });
    expect(bad.res.status).toBe(400);
    expect(bad.body.error.code).toBe("INVALID_PARAMETER");
  });

  it("include=index with a select naming them carries change_7d_pct and change_30d_pct, as the movers compute them", async () => {
    const { body } = await getJson(`/v1/cards/batch?ids=${rise},${fall}&include=index&select=index_eur,change_7d_pct,change30dPct`);
    const byId = Object.fromEntries(body.data.map((c: any) => [c.id, c]));
    expect(byId[rise]).toMatchObject({ index_eur: 12, change_7d_pct: 20, change_30d_pct: null });
    expect(byId[fall]).toMatchObject({ index_eur: 8, change_7d_pct: -20, change_30d_pct: null });
    const plain = await getJson(`/v1/cards/${rise}`);
    expect(plain.body.data).not.toHaveProperty("change_7d_pct");
  });

  it("orderBy=change_7d_pct pages by keyset, and needs include=index", async () => {
    const q = encodeURIComponent("set.code:base1 price:*");
    const { rows } = await walk(`/v1/cards?q=${q}&include=index&orderBy=change_7d_pct&limit=1&select=id,change_7d_pct`);
    const moved = rows.filter((r: any) => r.change_7d_pct !== null);
    expect(moved.map((r: any) => r.change_7d_pct)).toEqual([...moved.map((r: any) => r.change_7d_pct)].sort((a, b) => a - b));
    const ids = rows.map((r: any) => r.id);
    expect(ids.indexOf(fall)).toBeGreaterThanOrEqual(0);
    expect(ids.indexOf(fall)).toBeLessThan(ids.indexOf(rise));
    // Ascending puts the cards without a move last; descending first.
    expect(rows.slice(moved.length).every((r: any) => r.change_7d_pct === null)).toBe(true);
    const desc = (await walk(`/v1/cards?q=${q}&include=index&orderBy=-change_30d_pct&limit=2&select=id`)).rows.map((r: any) => r.id);
    expect(desc.sort()).toEqual([...ids].sort());
    const refused = await getJson("/v1/cards?orderBy=-change_7d_pct");
    expect(refused.res.status).toBe(400);
    expect(refused.body.error.code).toBe("INVALID_PARAMETER");
  });

  it("q's price term filters on the index in EUR; a bad amount is INVALID_QUERY", async () => {
    const ids = async (q: string) =>
      (await walk(`/v1/cards?q=${encodeURIComponent(q)}&include=index&limit=100&select=id,index_eur`)).rows;
    const band = await ids("set.code:base1 price:[11.5 TO 12.5]");
    expect(band.map((r: any) => r.id)).toContain(rise);
    expect(band.map((r: any) => r.id)).not.toContain(fall);
    expect(band.every((r: any) => r.index_eur >= 11.5 && r.index_eur <= 12.5)).toBe(true);
    const cheap = await ids("set.code:base1 price:<=8");
    expect(cheap.map((r: any) => r.id)).toContain(fall);
    expect(cheap.every((r: any) => r.index_eur <= 8)).toBe(true);
    const bad = await getJson(`/v1/cards?q=${encodeURIComponent("price:>cheap")}`);
    expect(bad.res.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: "INVALID_QUERY", details: { parameter: "q", position: 0 } });
    expect(bad.body.error.message).toMatch(/amount in EUR/);
  });
});
