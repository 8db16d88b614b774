import { describe, expect, it } from "vitest";
import { makeAccount } from "../helpers/accounts";
import { getJson, walk } from "../helpers/api";
import { count, query, queryOne } from "../helpers/db";
import { expectError } from "../helpers/expect";
import { day, feeds, quiet } from "../helpers/feeds";
import { refreshPrices } from "@/lib/prices/refresh";

// GET /v1/sets, /v1/sets/{code} and /v1/sets/{code}/cards (every rule of its SPEC.md section).

type Row = Record<string, any>;

describe("GET /v1/sets", () => {
  it("total_count is exact and equals the rows walked", async () => {
    const n = await count("select count(*)::int as n from sets where deleted_at is null");
    const first = await getJson("/v1/sets?limit=100");
    expect(first.body.meta.total_count).toBe(n);
    const { rows } = await walk<Row>("/v1/sets?limit=100");
    expect(rows).toHaveLength(n);
    expect(new Set(rows.map((r) => r.id)).size).toBe(n);
  });

  it("filters by series slug and by series name alike", async () => {
    const n = await count("select count(*)::int as n from sets where series_id = 'scarlet-violet' and deleted_at is null");
    expect(n).toBeGreaterThan(0);
    const bySlug = await walk<Row>("/v1/sets?series=scarlet-violet&limit=250");
    const byName = await walk<Row>(`/v1/sets?series=${encodeURIComponent("Scarlet & Violet")}&limit=250`);
    expect(bySlug.rows).toHaveLength(n);
    expect(byName.rows.map((r) => r.id)).toEqual(bySlug.rows.map((r) => r.id));
    for (const r of bySlug.rows) expect(r.series).toEqual({ id: "scarlet-violet", name: "Scarlet & Violet" });
    const head = await getJson("/v1/sets?series=scarlet-violet&limit=1");
    expect(head.body.meta.total_count).toBe(n);
  });

  it("an era's series holds its Western and its Japanese sets", async () => {
    const n = await count("select count(*)::int as n from sets where series_id = 'xy' and deleted_at is null");
    const { rows } = await walk<Row>("/v1/sets?series=xy&limit=250");
    expect(rows).toHaveLength(n);
    for (const r of rows) expect(r.series.id).toBe("xy");
    const regions = new Set(rows.map((r) => r.print_region));
    expect(regions.has("WEST") && regions.has("JP")).toBe(true);
    // The Japanese block stays visible on the set.
    expect(rows.find((r) => r.print_region === "JP")!.block.id).toMatch(/^asia-XY/);
  });

  it("series set_count agrees with the set list, and every set is in one series", async () => {
    const series = (await walk<Row>("/v1/series?limit=250")).rows;
    let total = 0;
    for (const s of series) {
      const { body } = await getJson(`/v1/sets?series=${s.id}&limit=1`);
      expect(body.meta.total_count, s.id).toBe(s.set_count);
      total += s.set_count;
    }
    expect(total).toBe(await count("select count(*)::int as n from sets where deleted_at is null"));
  });

  it("filters by region", async () => {
    const n = await count("select count(*)::int as n from sets where print_region = 'JP' and deleted_at is null");
    const { rows } = await walk<Row>("/v1/sets?region=JP&limit=250");
    expect(rows).toHaveLength(n);
    for (const r of rows) expect(r.print_region).toBe("JP");
    await expectError("/v1/sets?region=MARS", 400, "INVALID_PARAMETER");
  });

  it("every set has one of the reference's print regions: the Thai and Indonesian editions are JP", async () => {
    const { rows } = await walk<Row>("/v1/sets?limit=250");
    const { body } = await getJson("/v1/reference");
    for (const r of rows) expect(body.data.print_regions, r.id).toContain(r.print_region);
    expect((await getJson("/v1/sets/tcgdex-asia-SV3s")).body.data.print_region).toBe("JP");
  });

  it("an unknown series gives an empty list with total_count 0", async () => {
    const { res, body } = await getJson("/v1/sets?series=no-such-series");
    expect(res.status).toBe(200);
    expect(body.data).toEqual([]);
    expect(body.meta).toMatchObject({ count: 0, total_count: 0, has_more: false });
  });
});

describe("GET /v1/sets/{code}", () => {
  it("resolves code, lower-case slug, alternate id and printed code to the same set", async () => {
    const byCode = await getJson("/v1/sets/sv3pt5");
    expect(byCode.res.status).toBe(200);
    expect(byCode.body.data).toMatchObject({ id: "sv3pt5", alt_id: "sv03.5", ptcgo_code: "MEW" });
    const { card_count, printed_total, release_date } = await queryOne<Row>(
      "select card_count, printed_total, release_date::text from sets where id = 'sv3pt5'",
    );
    expect(byCode.body.data).toMatchObject({ card_count, printed_total, release_date, print_region: "WEST" });
    expect(byCode.body.data.series).toEqual({ id: "scarlet-violet", name: "Scarlet & Violet" });
    for (const code of ["SV3PT5", "sv03.5", "MEW", "mew"]) {
      const { res, body } = await getJson(`/v1/sets/${code}`);
      expect(res.status, code).toBe(200);
      expect(body.data).toEqual(byCode.body.data);
    }
  });

  it("a printed code shared by a main set and its subsets names the main set, with or without an alternate id", async () => {
    const shared = await query<{ ptcgo_code: string; main: string }>(`
      select distinct on (ptcgo_code) ptcgo_code, id as main from sets
      where deleted_at is null and ptcgo_code in (select ptcgo_code from sets where deleted_at is null group by 1 having count(*) > 1)
      order by ptcgo_code, length(name), id`);
    expect(shared.map((r) => `${r.ptcgo_code}:${r.main}`)).toEqual(expect.arrayContaining(["CEL:cel25", "HIF:sm115", "ASR:swsh10"]));
    for (const { ptcgo_code, main } of shared) {
      const { body } = await getJson(`/v1/sets/${ptcgo_code}`);
      expect([ptcgo_code, body.data.id]).toEqual([ptcgo_code, main]);
    }
  });

  it("takes the lower-case slug of a mixed-case code", async () => {
    const code = await getJson("/v1/sets/tcgdex-asia-SV2a");
    expect(code.res.status).toBe(200);
    expect(code.body.data.slug).toBe("tcgdex-asia-sv2a");
    for (const id of [code.body.data.slug, code.body.data.alt_id]) {
      const { body } = await getJson(`/v1/sets/${id}`);
      expect(body.data.id).toBe("tcgdex-asia-SV2a");
    }
  });

  it("answers 404 SET_NOT_FOUND for an unknown code", async () => {
    await expectError("/v1/sets/no-such-set", 404, "SET_NOT_FOUND");
  });

  it("lang without a translation falls back to English, an Asian set's English name included", async () => {
    // Its Japanese name came back for lang=fr and lang=en, though name_en holds its English one.
    const own = (await getJson("/v1/sets/tcgdex-asia-CP1")).body.data;
    expect(own.name).toBe("マグマ団VSアクア団 ダブルクライシス");
    expect(own.name_en).toBe("Team Magma VS Team Aqua Double Crisis");
    for (const lang of ["fr", "en"]) expect((await getJson(`/v1/sets/tcgdex-asia-CP1?lang=${lang}`)).body.data.name, lang).toBe(own.name_en);
    expect((await getJson("/v1/sets/tcgdex-asia-CP1?lang=ja")).body.data.name).toBe(own.name);
    const card = (await getJson("/v1/sets/tcgdex-asia-CP1/cards?limit=1&lang=de&include=set")).body.data[0];
    expect(card.set.name).toBe(own.name_en);
  });
});

describe("GET /v1/sets/{code}/cards", () => {
  it("lists every card of the set exactly once, without total_count", async () => {
    const n = await count("select count(*)::int as n from cards where set_id = 'sv3pt5' and deleted_at is null");
    const { res, body } = await getJson("/v1/sets/sv3pt5/cards?limit=250&select=number");
    expect(res.status).toBe(200);
    expect(body.data).toHaveLength(n);
    expect(body.meta).toEqual({ limit: 250, count: n, has_more: false });
    expect(body.links.next).toBeUndefined();
    const byAlias = await getJson("/v1/sets/MEW/cards?limit=250&select=number");
    expect(byAlias.body.data).toEqual(body.data);
  });

  describe("rule 1: index fields only with include=index", () => {
    it("include=index adds index_eur and last_price_at", async () => {
      const { body } = await getJson("/v1/sets/sv3pt5/cards?include=index&limit=3");
      for (const r of body.data) {
        expect(r).toHaveProperty("index_eur");
        expect(r).toHaveProperty("last_price_at");
      }
      expect(body.meta.withheld).toBeUndefined();
    });

    it("without it they are absent", async () => {
      const { body } = await getJson("/v1/sets/sv3pt5/cards?limit=3");
      for (const r of body.data) {
        expect(r).not.toHaveProperty("index_eur");
        expect(r).not.toHaveProperty("last_price_at");
      }
      expect(body.meta.withheld).toBeUndefined();
    });

    it("a select naming them returns rows without them and meta.withheld ['index']", async () => {
      const { res, body } = await getJson("/v1/sets/sv3pt5/cards?limit=3&select=name,index_eur,lastPriceAt");
      expect(res.status).toBe(200);
      expect(body.meta.withheld).toEqual(["index"]);
      for (const r of body.data) expect(Object.keys(r).sort()).toEqual(["id", "name"]);
      const included = await getJson("/v1/sets/sv3pt5/cards?limit=3&select=name,index_eur&include=index");
      for (const r of included.body.data) expect(Object.keys(r).sort()).toEqual(["id", "index_eur", "name"]);
      expect(included.body.meta.withheld).toBeUndefined();
    });

    it("orderBy on them without include is INVALID_PARAMETER; with include it sorts", async () => {
      await expectError("/v1/sets/sv3pt5/cards?orderBy=index_eur", 400, "INVALID_PARAMETER");
      await expectError("/v1/sets/sv3pt5/cards?orderBy=-last_price_at", 400, "INVALID_PARAMETER");
      await expectError("/v1/sets/sv3pt5/cards?order_by=name,-index_eur", 400, "INVALID_PARAMETER");
      const { res } = await getJson("/v1/sets/sv3pt5/cards?orderBy=-index_eur&include=index");
      expect(res.status).toBe(200);
    });
  });

  it("rule 2: include=prices adds the prices; meta.withheld names what the plan held back", async () => {
    const paid = await getJson("/v1/sets/sv3pt5/cards?include=prices&limit=2");
    expect(paid.res.status).toBe(200);
    expect(paid.res.headers.get("x-credits-cost")).toBe("4");
    expect(paid.body.meta.withheld).toBeUndefined();
    for (const c of paid.body.data) expect(c).toHaveProperty("prices");
    // sv3pt5-2 is quoted in German and graded: the trial is held back both, and told so.
    await query("delete from price_series where product_id = 'sv3pt5-2'");
    const j = JSON.stringify;
    await refreshPrices(feeds({
      "cardmarket/held.ndjson": [j({ product: "card:sv3pt5-2", date: day(-2), language: "de", printing: "HOLOFOIL", trend: 9 })],
      "ebay/held.ndjson": [j({ product: "card:sv3pt5-2", date: day(-2), grade: "PSA 10", median_usd: 400, sold_count: 2 })],
    }), quiet());
    const trial = await makeAccount({ confirmed: true });
    const t = await getJson("/v1/sets/sv3pt5/cards?include=prices&limit=2", { "x-api-key": trial.key });
    expect(t.body.meta.withheld).toEqual(["prices.graded", "prices.non_english"]);
    expect(t.body.meta.plan_notes[0]).toMatch(/Trial/);
    // Nothing held back of a card without such rows: nothing named.
    await query("delete from price_series where product_id = 'sv3pt5-3'");
    const none = await getJson("/v1/sets/sv3pt5/cards?include=prices&q=number:3", { "x-api-key": trial.key });
    expect(none.body.data).toHaveLength(1);
    expect(none.body.meta.withheld).toBeUndefined();
  });

  it("rule 3: number sorts on the numeric part first, so a suffixed number sits next to its number", async () => {
    // A set whose printed numbers include letter suffixes next to plain ones (found in the data).
    const pairs = await query<{ set_id: string; plain: string; suffixed: string }>(`
      with p as (
        select c.set_id, d.number as plain, c.number as suffixed from cards c
        join cards d on d.set_id = c.set_id and d.deleted_at is null and d.number = substring(c.number from '^[0-9]+')
        where c.deleted_at is null and c.number ~ '^[0-9]+[A-Za-z]+$')
      select * from p where set_id = (select set_id from p group by set_id order by count(*) desc, set_id limit 1)
      order by suffixed`);
    expect(pairs.length).toBeGreaterThan(1);
    const setId = pairs[0]!.set_id;
    const { rows } = await walk<Row>(`/v1/sets/${setId}/cards?limit=250&select=number`);
    const numbers = rows.map((r) => r.number);
    for (const p of pairs) {
      const i = numbers.indexOf(p.plain);
      expect(i, p.plain).toBeGreaterThanOrEqual(0);
      // Only other cards with the same numeric part may stand between the two.
      const j = numbers.indexOf(p.suffixed);
      const between = numbers.slice(Math.min(i, j) + 1, Math.max(i, j));
      for (const b of between) expect(b.match(/\d+/)![0], `${p.plain}…${p.suffixed}`).toBe(p.plain);
      expect(j).toBeGreaterThan(i);
    }
    // 10 comes after 9, not after 1.
    const nums = numbers.map((n) => Number(/\d+/.exec(n)?.[0] ?? Infinity));
    for (let k = 1; k < nums.length; k++) expect(nums[k]!).toBeGreaterThanOrEqual(nums[k - 1]!);
  });

  it("rule 4: an unknown code is 404 SET_NOT_FOUND, never an empty page", async () => {
    await expectError("/v1/sets/no-such-set/cards", 404, "SET_NOT_FOUND");
    await expectError("/v1/sets/no-such-set/cards?q=number:1&limit=5", 404, "SET_NOT_FOUND");
  });

  describe("rule 5: number lookups", () => {
    it("number:22 matches the zero-padded 022 when the set prints no plain 22", async () => {
      const [row] = await query<Row>("select id, number from cards where set_id = 'tcgdex-asia-SV2a' and number_sort = 22");
      expect(row!.number).toBe("022");
      const { body } = await getJson("/v1/sets/tcgdex-asia-SV2a/cards?q=number:22&select=number");
      expect(body.data).toEqual([{ id: row!.id, number: "022" }]);
      const padded = await getJson("/v1/sets/tcgdex-asia-SV2a/cards?q=number:022&select=number");
      expect(padded.body.data).toEqual(body.data);
    });

    it("prefers the exact printed number where both spellings exist", async () => {
      // A set in the data that prints both 'N' and '0N' for one numeric part.
      const [pair] = await query<{ set_id: string; plain: string; padded: string; plain_id: string; padded_id: string }>(`
        select a.set_id, a.number as plain, b.number as padded, a.id as plain_id, b.id as padded_id
        from cards a join cards b on a.set_id = b.set_id and a.number_sort = b.number_sort
        where a.number ~ '^[1-9][0-9]*$' and b.number ~ '^0+[1-9][0-9]*$' and a.deleted_at is null and b.deleted_at is null
        order by a.set_id limit 1`);
      expect(pair).toBeDefined();
      const plain = await getJson(`/v1/sets/${pair!.set_id}/cards?q=number:${pair!.plain}&select=number`);
      expect(plain.body.data).toEqual([{ id: pair!.plain_id, number: pair!.plain }]);
      const padded = await getJson(`/v1/sets/${pair!.set_id}/cards?q=number:${pair!.padded}&select=number`);
      expect(padded.body.data).toEqual([{ id: pair!.padded_id, number: pair!.padded }]);
    });

    it("number:4/102 needs the set's printed total", async () => {
      const [set] = await query<{ printed_total: number }>("select printed_total from sets where id = 'base1'");
      expect(set!.printed_total).toBe(102);
      const match = await getJson("/v1/sets/base1/cards?q=number:4/102&select=name");
      expect(match.body.data).toEqual([{ id: "base1-4", name: "Charizard" }]);
      const miss = await getJson("/v1/sets/base1/cards?q=number:4/103&select=name");
      expect(miss.res.status).toBe(200);
      expect(miss.body.data).toEqual([]);
      expect(miss.body.meta.hint).toBeUndefined();
    });

    it("an empty lookup in a vintage Japanese set carries the TRY_POKEDEX_NUMBER hint", async () => {
      const [set] = await query<Row>("select print_region, release_date::text from sets where id = 'tcgdex-asia-PMCG1'");
      expect(set).toMatchObject({ print_region: "JP" });
      expect(set!.release_date < "2001").toBe(true);
      expect(await count("select count(*)::int as n from cards where set_id = 'tcgdex-asia-PMCG1' and number_sort = 150")).toBe(0);
      const withDex = await count(
        "select count(*)::int as n from cards where set_id = 'tcgdex-asia-PMCG1' and deleted_at is null and 150 = any(national_pokedex_numbers)",
      );
      expect(withDex).toBeGreaterThan(0);

      const { res, body } = await getJson("/v1/sets/tcgdex-asia-PMCG1/cards?q=number:150&select=name");
      expect(res.status).toBe(200);
      expect(body.data).toEqual([]);
      expect(body.meta.hint.code).toBe("TRY_POKEDEX_NUMBER");
      expect(body.meta.hint.q).toMatch(/^national_pokedex_numbers:150$/);
      // The hint's query finds the card.
      const hinted = await getJson(body.meta.hint.href);
      expect(hinted.res.status).toBe(200);
      expect(hinted.body.data).toHaveLength(withDex);
      expect(hinted.body.meta.hint).toBeUndefined();
    });

    it("no hint on a modern set", async () => {
      const { body } = await getJson("/v1/sets/sv3pt5/cards?q=number:9999&select=name");
      expect(body.data).toEqual([]);
      expect(body.meta.hint).toBeUndefined();
    });
  });

  it("q filters inside the set only", async () => {
    const { rows } = await walk<Row>("/v1/sets/sv3pt5/cards?q=types:fire&limit=250&select=types,set");
    const n = await count("select count(*)::int as n from cards where set_id = 'sv3pt5' and deleted_at is null and 'Fire' = any(types)");
    expect(rows).toHaveLength(n);
    for (const r of rows) {
      expect(r.set.id).toBe("sv3pt5");
      expect(r.types).toContain("Fire");
    }
  });

  it("select, include and lang behave as on the card search", async () => {
    await expectError("/v1/sets/sv3pt5/cards?select=bogus", 400, "INVALID_SELECT_FIELD");
    await expectError("/v1/sets/sv3pt5/cards?include=legalities", 400, "INVALID_INCLUDE");
    await expectError("/v1/sets/sv3pt5/cards?lang=xx", 400, "INVALID_PARAMETER");
    await expectError("/v1/sets/sv3pt5/cards?q=name:(", 400, "INVALID_QUERY");
    const fr = await getJson("/v1/sets/base1/cards?q=number:4&lang=fr&select=nationalPokedexNumbers,name");
    expect(fr.body.data).toEqual([{ id: "base1-4", name: "Dracaufeu", national_pokedex_numbers: [6] }]);
  });
});
