import { describe, expect, it } from "vitest";
import { getJson } from "../helpers/api";
import { expectError } from "../helpers/expect";

// What a strict client tripped over: vocabulary values inside q, the index fields that
// include=prices carries, and identifiers that matched through Unicode case mapping.

const REGIONS = ["WEST", "JP", "CN", "KR"];
const Q_ROUTES = ["/v1/cards", "/v1/sets/base1/cards"];
const q = (route: string, value: string, extra = "") => `${route}?q=${encodeURIComponent(value)}${extra}`;

describe("q: a value outside its vocabulary is INVALID_PARAMETER, a broken q stays INVALID_QUERY", () => {
  it.each(Q_ROUTES)("%s: an unknown region names the valid regions and where it stands", async (route) => {
    const { error } = await expectError(q(route, "name:pikachu set.region:XX"), 400, "INVALID_PARAMETER");
    expect(error.details).toMatchObject({ parameter: "q", field: "set.region", value: "XX", valid_values: REGIONS, position: 13 });
    const alias = await expectError(q(route, "region:mars"), 400, "INVALID_PARAMETER");
    expect(alias.error.details).toMatchObject({ field: "set.region", valid_values: REGIONS });
  });

  it.each(Q_ROUTES)("%s: an unknown language is INVALID_PARAMETER; printed ones in any case are accepted", async (route) => {
    const { error } = await expectError(q(route, "lang:xx"), 400, "INVALID_PARAMETER");
    expect(error.details).toMatchObject({ parameter: "q", field: "languages", value: "xx" });
    expect(error.details!.valid_values).toEqual(expect.arrayContaining(["en", "ja", "zh", "fr", "ko", "zh-tw", "th"]));
    for (const v of ["en", "languages:EN", "languages:zh-TW", "lang:z*"]) {
      const { res } = await getJson(q(route, v.includes(":") ? v : `lang:${v}`, "&limit=1"));
      expect(res.status, v).toBe(200);
    }
  });

  it("a known region in any case still filters", async () => {
    const { res, body } = await getJson(q("/v1/cards", "set.region:jp", "&limit=5"));
    expect(res.status).toBe(200);
    for (const c of body.data) expect(c.set.print_region).toBe("JP");
  });

  it.each(Q_ROUTES)("%s: syntax errors and unknown fields stay INVALID_QUERY, also next to an unknown region", async (route) => {
    for (const bad of ["name:(", "zz:1", "set.region:XX (", "set.regio:JP"]) {
      const { error } = await expectError(q(route, bad), 400, "INVALID_QUERY");
      expect(typeof error.details?.position).toBe("number");
    }
  });
});

describe("include=prices carries the index fields, as include=index does", () => {
  const hasIndexFields = (row: Record<string, unknown>) => {
    expect(row).toHaveProperty("index_eur");
    expect(row).toHaveProperty("last_price_at");
    expect(row).toHaveProperty("prices");
    if (row.index_eur === null) expect(row.last_price_at).toBeNull();
  };

  it("on a set's cards, an unpriced card included (null, not absent)", async () => {
    const { res, body } = await getJson("/v1/sets/base1/cards?include=prices&limit=10");
    expect(res.status).toBe(200);
    expect(body.data.length).toBe(10);
    body.data.forEach(hasIndexFields);
    expect(body.data.some((r: any) => r.index_eur === null)).toBe(true);
  });

  it("on every card route", async () => {
    for (const path of ["/v1/cards?q=set.code:base1&include=prices&limit=5", "/v1/cards/batch?ids=base1-4,sv3pt5-6&include=prices"]) {
      const { res, body } = await getJson(path);
      expect(res.status, path).toBe(200);
      expect(body.data.length, path).toBeGreaterThan(0);
      body.data.forEach(hasIndexFields);
    }
    const one = await getJson("/v1/cards/base1-4?include=prices");
    expect(one.res.status).toBe(200);
    hasIndexFields(one.body.data);
  });

  it("a select of the index fields is not withheld, and they sort, with include=prices", async () => {
    const { body } = await getJson("/v1/sets/base1/cards?include=prices&select=index_eur,lastPriceAt&limit=3");
    expect(body.meta.withheld ?? []).not.toContain("index");
    for (const r of body.data) expect(Object.keys(r).sort()).toEqual(["id", "index_eur", "last_price_at"]);
    const sorted = await getJson("/v1/cards?include=prices&orderBy=-index_eur&limit=3");
    expect(sorted.res.status).toBe(200);
  });

  it("a sealed product's include=prices carries them too", async () => {
    const { body } = await getJson("/v1/sealed?include=prices&limit=3");
    for (const r of body.data) {
      expect(r).toHaveProperty("index_eur");
      expect(r).toHaveProperty("last_price_at");
    }
  });
});

describe("identifiers match without Unicode case mapping", () => {
  // Each spelling used to resolve through toUpperCase/toLowerCase (or PostgreSQL's upper/lower).
  it.each([
    ["ß", "ex2, printed SS"],
    ["F\uFB01", "xy3, printed FFI"],
    ["SV\u0131", "sv1, printed SVI (dotless i)"],
  ])("/v1/sets/%s is 404 SET_NOT_FOUND (not %s), and so are its cards", async (code) => {
    await expectError(`/v1/sets/${encodeURIComponent(code)}`, 404, "SET_NOT_FOUND");
    await expectError(`/v1/sets/${encodeURIComponent(code)}/cards`, 404, "SET_NOT_FOUND");
  });

  it("ASCII identifiers keep resolving in any case", async () => {
    for (const [code, id] of [["SS", "ex2"], ["ss", "ex2"], ["ffi", "xy3"], ["SVI", "sv1"], ["TK1A", "tk1a"], ["tcgdex-asia-s6k", "tcgdex-asia-S6K"]]) {
      const { res, body } = await getJson(`/v1/sets/${code}`);
      expect(res.status, code).toBe(200);
      expect(body.data.id, code).toBe(id);
    }
    expect((await getJson("/v1/cards/TK1A-1")).body.data.id).toBe("tk1a-1");
    expect((await getJson("/v1/cards/ASIA-s6k-090")).body.data.id).toBe("tcgdex-asia-S6K-090");
    expect((await getJson("/v1/artists/KEN-SUGIMORI")).res.status).toBe(200);
    expect((await getJson("/v1/sealed/xy7-100493")).res.status).toBe(200);
  });

  it("cards, batches and artists refuse spellings that differ once normalised", async () => {
    await expectError(`/v1/cards/${encodeURIComponent("\u0130ase1-4")}`, 404, "CARD_NOT_FOUND");
    await expectError(`/v1/cards/${encodeURIComponent("\u0131ase1-4")}`, 404, "CARD_NOT_FOUND");
    const batch = await getJson(`/v1/cards/batch?ids=${encodeURIComponent("\u0130ase1-4,tk1a-2")}`);
    expect(batch.body.data.map((c: any) => c.id)).toEqual(["tk1a-2"]);
    expect(batch.body.meta.missing.map((m: any) => m.id)).toEqual(["\u0130ase1-4"]);
    await expectError(`/v1/artists/${encodeURIComponent("\u0130en-sugimori")}`, 404, "ARTIST_NOT_FOUND");
  });

  it("compares the NFC form: the Kelvin sign is canonically K, so it names the same identifier as K", async () => {
    expect((await getJson(`/v1/sets/${encodeURIComponent("t\u212A1a")}`)).body.data.id).toBe("tk1a");
    expect((await getJson(`/v1/cards/${encodeURIComponent("asia-S6\u212A-090")}`)).body.data.id).toBe("tcgdex-asia-S6K-090");
  });

  it("q's identifier fields refuse them too", async () => {
    for (const term of ["set.code:ß", "set.code:F\uFB01", "id:\u0130ase1-4", "set.code:SV\u0131"]) {
      const { res, body } = await getJson(q("/v1/cards", term, "&limit=1"));
      expect(res.status, term).toBe(200);
      expect(body.data, term).toEqual([]);
    }
    const { body } = await getJson(q("/v1/cards", "set.code:SS", "&limit=1"));
    expect(body.data[0].set.id).toBe("ex2");
  });
});
