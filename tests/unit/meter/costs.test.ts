import { describe, expect, it } from "vitest";
import { COSTS, type CostRule } from "@/lib/meter/costs";

const cost = (rule: CostRule, query: Record<string, unknown> = {}, params: Record<string, unknown> = {}) => rule.credits({ query, params });
const ids = (n: number, prefix = "c") => Array.from({ length: n }, (_, i) => `${prefix}${i}`).join(",");

describe("card lists (GET /v1/cards, GET /v1/sets/{code}/cards)", () => {
  const lists = [["cardsList", COSTS.cardsList], ["setCards", COSTS.setCards]] as const;

  it.each(lists)("%s costs 1 per 50 requested rows, rounded up", (_name, rule) => {
    expect(cost(rule, { limit: 1 })).toBe(1);
    expect(cost(rule, { limit: 12 })).toBe(1);
    expect(cost(rule, { limit: 50 })).toBe(1);
    expect(cost(rule, { limit: 51 })).toBe(2);
    expect(cost(rule, { limit: 100 })).toBe(2);
    expect(cost(rule, { limit: 101 })).toBe(3);
    expect(cost(rule, { limit: 250 })).toBe(5);
  });

  it.each(lists)("%s charges the default limit of 50 when none is given", (_name, rule) => {
    expect(cost(rule, {})).toBe(1);
  });

  it.each(lists)("%s adds nothing for include=index", (_name, rule) => {
    expect(cost(rule, { limit: 250, include: "index" })).toBe(5);
    expect(cost(rule, { limit: 51, include: "index,images" })).toBe(2);
  });

  it.each(lists)("%s costs 4 per 25 requested rows with include=prices", (_name, rule) => {
    expect(cost(rule, { limit: 1, include: "prices" })).toBe(4);
    expect(cost(rule, { limit: 25, include: "prices" })).toBe(4);
    expect(cost(rule, { limit: 26, include: "prices" })).toBe(8);
    expect(cost(rule, { limit: 50, include: "prices" })).toBe(8);
    expect(cost(rule, { limit: 250, include: "prices" })).toBe(40);
    expect(cost(rule, { limit: 250, include: "index, PRICES" })).toBe(40);
  });

  it("does not mistake a value that contains 'prices' for include=prices", () => {
    expect(cost(COSTS.cardsList, { limit: 250, include: "noprices" })).toBe(5);
  });
});

describe("sealed list (GET /v1/sealed)", () => {
  it("costs 1 per 50 requested rows, include=index adds nothing", () => {
    expect(cost(COSTS.sealedList, { limit: 12 })).toBe(1);
    expect(cost(COSTS.sealedList, { limit: 51 })).toBe(2);
    expect(cost(COSTS.sealedList, { limit: 250, include: "index" })).toBe(5);
    expect(cost(COSTS.sealedList, { limit: 250, include: "prices" })).toBe(40);
    expect(cost(COSTS.sealedGet, { include: "prices" })).toBe(2);
    expect(cost(COSTS.sealedList, {})).toBe(1);
  });
});

describe("one card (GET /v1/cards/{id})", () => {
  it("costs 2 with include=prices, the same as the prices route", () => {
    expect(cost(COSTS.cardGet, { include: "prices" })).toBe(2);
    expect(cost(COSTS.cardGet, { include: "prices" })).toBe(cost(COSTS.cardPrices));
    expect(cost(COSTS.cardGet, {})).toBe(1);
  });
});

describe("card batch (GET /v1/cards/batch)", () => {
  it("costs 1 per 25 requested ids, rounded up", () => {
    expect(cost(COSTS.cardsBatch, { ids: ids(1) })).toBe(1);
    expect(cost(COSTS.cardsBatch, { ids: ids(25) })).toBe(1);
    expect(cost(COSTS.cardsBatch, { ids: ids(26) })).toBe(2);
    expect(cost(COSTS.cardsBatch, { ids: ids(100) })).toBe(4);
  });

  it("counts repeated and unresolved ids", () => {
    const repeated = Array.from({ length: 26 }, () => "base1-4").join(",");
    expect(cost(COSTS.cardsBatch, { ids: repeated })).toBe(2);
    expect(cost(COSTS.cardsBatch, { ids: ids(26, "no-such-card-") })).toBe(2);
  });

  it("does not count empty entries or spaces as ids", () => {
    expect(cost(COSTS.cardsBatch, { ids: `${ids(25)},, ,` })).toBe(1);
  });

  it("adds 1 per 50 ids with include=index", () => {
    expect(cost(COSTS.cardsBatch, { ids: ids(25), include: "index" })).toBe(2);
    expect(cost(COSTS.cardsBatch, { ids: ids(51), include: "index" })).toBe(3 + 2);
    expect(cost(COSTS.cardsBatch, { ids: ids(100), include: "index" })).toBe(4 + 2);
  });

  it("costs 4 per 25 ids with include=prices", () => {
    expect(cost(COSTS.cardsBatch, { ids: ids(1), include: "prices" })).toBe(4);
    expect(cost(COSTS.cardsBatch, { ids: ids(26), include: "prices" })).toBe(8);
    expect(cost(COSTS.cardsBatch, { ids: ids(100), include: "prices" })).toBe(16);
  });
});

describe("current prices (GET /v1/prices/current)", () => {
  it("costs 4 per 25 ids, 8 for a full batch of 50", () => {
    expect(cost(COSTS.pricesCurrent, { ids: ids(1) })).toBe(4);
    expect(cost(COSTS.pricesCurrent, { ids: ids(25) })).toBe(4);
    expect(cost(COSTS.pricesCurrent, { ids: ids(26) })).toBe(8);
    expect(cost(COSTS.pricesCurrent, { ids: ids(50) })).toBe(8);
    expect(cost(COSTS.pricesCurrent, { ids: Array.from({ length: 50 }, () => "x").join(",") })).toBe(8);
  });
});

describe("photo identification (POST /v1/vision/identify)", () => {
  it.each([1, 5, 10])("costs 25, 26, 29 or 30 for top_k %i", (topK) => {
    expect(cost(COSTS.identify, { top_k: topK })).toBe(25);
    expect(cost(COSTS.identify, { top_k: topK, include: "index" })).toBe(26);
    expect(cost(COSTS.identify, { top_k: topK, include: "prices" })).toBe(29);
    expect(cost(COSTS.identify, { top_k: topK, include: "index,prices" })).toBe(30);
  });

  it("uses the default top_k of 5 and grows with larger top_k", () => {
    expect(cost(COSTS.identify, { include: "index,prices" })).toBe(30);
    expect(cost(COSTS.identify, { top_k: 26, include: "prices" })).toBe(25 + 8);
    expect(cost(COSTS.identify, { top_k: 50, include: "index,prices" })).toBe(25 + 1 + 8);
  });

  it("needs Growth", () => {
    expect(COSTS.identify.minPlan).toBe("growth");
  });
});

describe("fixed costs", () => {
  it.each([
    ["setsList", COSTS.setsList, 1],
    ["setGet", COSTS.setGet, 1],
    ["artistsList", COSTS.artistsList, 1],
    ["artistGet", COSTS.artistGet, 1],
    ["seriesList", COSTS.seriesList, 1],
    ["cardPrices", COSTS.cardPrices, 2],
    ["sealedPrices", COSTS.sealedPrices, 2],
    ["priceHistory", COSTS.priceHistory, 5],
    ["priceStats", COSTS.priceStats, 2],
    ["movers", COSTS.movers, 3],
    ["changes", COSTS.changes, 1],
    ["bulk", COSTS.bulk, 1],
    ["centeringMeasure", COSTS.centeringMeasure, 25],
    ["centeringConfirm", COSTS.centeringConfirm, 5],
    ["centeringGrade", COSTS.centeringGrade, 1],
    ["centeringStandards", COSTS.centeringStandards, 1],
  ] as const)("%s costs %i whatever the query", (_name, rule, credits) => {
    expect(cost(rule)).toBe(credits);
    expect(cost(rule, { limit: 250, include: "prices", ids: ids(50) })).toBe(credits);
  });

  it("makes set, series and artist lists cost 1 per page whatever the limit", () => {
    for (const rule of [COSTS.setsList, COSTS.seriesList, COSTS.artistsList]) expect(cost(rule, { limit: 250 })).toBe(1);
  });

  it("needs Growth for movers and centering only", () => {
    const growth = Object.entries(COSTS).filter(([, r]) => (r as CostRule).minPlan === "growth").map(([k]) => k).sort();
    expect(growth).toEqual(["centeringConfirm", "centeringGrade", "centeringMeasure", "centeringStandards", "identify", "movers"]);
  });
});

describe("free routes", () => {
  it.each(["accountsFree", "reference", "status", "pricesSources", "account"] as const)("%s costs nothing", (name) => {
    const rule: CostRule = COSTS[name];
    expect(cost(rule)).toBe(0);
  });
});
