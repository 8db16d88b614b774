import { describe, expect, it } from "vitest";
import { getJson, walk } from "../helpers/api";
import { count, query, queryOne } from "../helpers/db";
import { expectError, expectStrictOrder } from "../helpers/expect";
import { fold } from "@/lib/util/text";

// GET /v1/cards, /v1/cards/{id}, /v1/cards/batch and the q language end to end, against the
// full imported catalogue. Expected values come from the data (queried), never typed in.

type Card = Record<string, any>;

describe("GET /v1/cards/{id}", () => {
  it("resolves the primary id", async () => {
    const { res, body } = await getJson("/v1/cards/sv3pt5-6");
    expect(res.status).toBe(200);
    expect(body.data.id).toBe("sv3pt5-6");
    expect(body.data.name).toBe("Charizard ex");
    expect(body.data.number).toBe("6");
    expect(body.data.set.id).toBe("sv3pt5");
    // Fields SPEC.md names on every card.
    for (const f of ["id", "name", "number", "rarity", "supertype", "types", "hp", "updated_at", "created_at", "release_date", "set", "artist", "national_pokedex_numbers"]) {
      expect(body.data, f).toHaveProperty(f);
    }
    expect(Number.isNaN(Date.parse(body.data.updated_at))).toBe(false);
    // index fields exist only with include=index.
    expect(body.data).not.toHaveProperty("index_eur");
    expect(body.data).not.toHaveProperty("last_price_at");
  });

  it("resolves the alternate id to the same card, case-insensitively", async () => {
    const [row] = await query<{ alt_id: string }>("select alt_id from cards where id = 'sv3pt5-6'");
    expect(row!.alt_id).toBe("sv03.5-006");
    const primary = await getJson("/v1/cards/sv3pt5-6");
    for (const id of ["sv03.5-006", "SV03.5-006", "SV3PT5-6", "Sv3Pt5-6"]) {
      const { res, body } = await getJson(`/v1/cards/${encodeURIComponent(id)}`);
      expect(res.status, id).toBe(200);
      expect(body.data).toEqual(primary.body.data);
    }
  });

  it("answers 404 CARD_NOT_FOUND for an unknown id", async () => {
    const { error } = await expectError("/v1/cards/sv3pt5-99999", 404, "CARD_NOT_FOUND");
    expect(error.message).toContain("sv3pt5-99999");
  });

  it("select keeps id and the named fields, snake_case out for camelCase in", async () => {
    const { body } = await getJson("/v1/cards/base1-4?select=nationalPokedexNumbers,name");
    expect(body.data).toEqual({ id: "base1-4", name: "Charizard", national_pokedex_numbers: [6] });
    const snake = await getJson("/v1/cards/base1-4?select=national_pokedex_numbers");
    expect(snake.body.data).toEqual({ id: "base1-4", national_pokedex_numbers: [6] });
    // A digit starting a word: change7dPct is change_7d_pct, in select as in orderBy.
    const digits = await getJson("/v1/cards/base1-4?include=index&select=change7dPct,change30dPct");
    expect(Object.keys(digits.body.data)).toEqual(["id", "change_7d_pct", "change_30d_pct"]);
    expect((await getJson("/v1/cards?include=index&orderBy=-change7dPct&limit=1&select=name")).res.status).toBe(200);
  });

  it("include=index adds index_eur and last_price_at, and nothing else (SPEC.md set cards rule 1)", async () => {
    const plain = (await getJson("/v1/cards/base1-4")).body.data;
    const { body } = await getJson("/v1/cards/base1-4?include=index");
    expect(body.data).toHaveProperty("index_eur");
    expect(body.data).toHaveProperty("last_price_at");
    expect(Object.keys(body.data).filter((k) => !(k in plain)).sort()).toEqual(["index_eur", "last_price_at"]);
    const row = (await getJson("/v1/sets/base1/cards?include=index&limit=1")).body.data[0];
    expect(Object.keys(row).filter((k) => !(k in plain)).sort()).toEqual(["index_eur", "last_price_at"]);
  });
});

describe("GET /v1/cards/batch", () => {
  it("keeps the order asked and lists each card once", async () => {
    const ids = ["base1-4", "sv3pt5-6", "base1-2", "sv3pt5-6", "SV03.5-006", "BASE1-4"];
    const { res, body } = await getJson(`/v1/cards/batch?ids=${ids.join(",")}&select=name`);
    expect(res.status).toBe(200);
    expect(body.data.map((c: Card) => c.id)).toEqual(["base1-4", "sv3pt5-6", "base1-2"]);
    expect(body.meta.requested).toBe(ids.length);
    expect(body.meta.count).toBe(3);
    expect(body.meta.missing).toEqual([]);
  });

  it("reports missing ids with their historical alternatives", async () => {
    const { body } = await getJson("/v1/cards/batch?ids=sv3pt5-06,base1-4,nope-1&select=name");
    expect(body.data.map((c: Card) => c.id)).toEqual(["base1-4"]);
    const missing = Object.fromEntries(body.meta.missing.map((m: any) => [m.id, m.alternatives]));
    expect(Object.keys(missing).sort()).toEqual(["nope-1", "sv3pt5-06"]);
    expect(missing["sv3pt5-06"].map((a: any) => a.id)).toContain("sv3pt5-6");
    expect(missing["sv3pt5-06"][0]).toMatchObject({ id: "sv3pt5-6", name: "Charizard ex" });
    expect(missing["nope-1"]).toEqual([]);
  });

  it("takes 100 ids and refuses 101 with LIMIT_EXCEEDED", async () => {
    const ids = (await query<{ id: string }>("select id from cards where set_id = 'sv3pt5' and deleted_at is null order by id limit 101")).map((r) => r.id);
    expect(ids).toHaveLength(101);
    const ok = await getJson(`/v1/cards/batch?ids=${ids.slice(0, 100).join(",")}&select=name`);
    expect(ok.res.status).toBe(200);
    expect(ok.body.data).toHaveLength(100);
    const { error } = await expectError(`/v1/cards/batch?ids=${ids.join(",")}`, 400, "LIMIT_EXCEEDED");
    expect(error.details).toMatchObject({ max: 100, requested: 101 });
  });

  it("counts repeated ids toward the 100", async () => {
    const ids = Array.from({ length: 101 }, () => "base1-4");
    const { error } = await expectError(`/v1/cards/batch?ids=${ids.join(",")}`, 400, "LIMIT_EXCEEDED");
    expect(error.details).toMatchObject({ max: 100, requested: 101 });
  });

  it("needs ids", async () => {
    await expectError("/v1/cards/batch", 400, "INVALID_PARAMETER");
    await expectError("/v1/cards/batch?ids=,,", 400, "INVALID_PARAMETER");
  });
});

describe("GET /v1/cards", () => {
  it("is a card list: no total_count, links.next exactly when has_more", async () => {
    const { res, body } = await getJson("/v1/cards?limit=3&select=name");
    expect(res.status).toBe(200);
    expect(body.meta).toEqual({ limit: 3, count: 3, has_more: true });
    expect(body.links.next).toMatch(/^http:\/\/api\.test\/v1\/cards\?/);
    expect(body.data).toHaveLength(3);
  });

  it("defaults to 50 rows", async () => {
    const { body } = await getJson("/v1/cards?select=name");
    expect(body.meta.limit).toBe(50);
    expect(body.data).toHaveLength(50);
  });

  it("name:char* matches a word starting with char in some language", async () => {
    const { rows } = await walk<Card>("/v1/cards?q=name:char*&limit=250&include=translations&select=name,translations");
    const n = await count(
      "select count(*)::int as n from cards where deleted_at is null and exists (select 1 from unnest(name_terms) t where t like 'char%')",
    );
    expect(rows.length).toBe(n);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.map((r) => r.id)).toContain("base1-4");
    for (const r of rows) {
      const names = [r.name, ...Object.values<{ name: string }>(r.translations).map((t) => t.name)];
      const words = names.flatMap((x) => fold(x).split(/[^\p{L}\p{N}]+/u));
      expect(words.some((w) => w.startsWith("char")), `${r.id} ${names.join(" / ")}`).toBe(true);
    }
  });

  it("set.region:JP types:fire keeps Japanese fire cards only", async () => {
    const { rows } = await walk<Card>("/v1/cards?q=set.region:JP%20types:fire&limit=250&select=types,set");
    const n = await count(
      "select count(*)::int as n from cards where deleted_at is null and print_region = 'JP' and 'Fire' = any(types)",
    );
    expect(rows.length).toBe(n);
    for (const r of rows) {
      expect(r.set.print_region).toBe("JP");
      expect(r.types.map((t: string) => t.toLowerCase())).toContain("fire");
    }
  });

  it("region=CN filters by print region (the parameter and the q field agree)", async () => {
    const param = await walk<Card>("/v1/cards?region=CN&limit=250&select=set");
    const q = await walk<Card>("/v1/cards?q=set.region:CN&limit=250&select=set");
    const n = await count("select count(*)::int as n from cards where deleted_at is null and print_region = 'CN'");
    expect(param.rows.length).toBe(n);
    expect(q.rows.map((r) => r.id)).toEqual(param.rows.map((r) => r.id));
    for (const r of param.rows) expect(r.set.print_region).toBe("CN");
  });

  it("hp:[100 TO *] keeps cards with at least 100 HP", async () => {
    const { body } = await getJson("/v1/cards?q=hp:[100%20TO%20*]&limit=250&orderBy=hp&select=hp");
    expect(body.data.length).toBe(250);
    for (const r of body.data) {
      expect(r.hp).not.toBeNull();
      expect(r.hp).toBeGreaterThanOrEqual(100);
    }
    const { min } = await queryOne<{ min: number }>("select min(hp)::int as min from cards where hp >= 100");
    expect(body.data[0].hp).toBe(min);
  });

  it("name:dracaufeu finds Charizard through its French name", async () => {
    const { rows } = await walk<Card>("/v1/cards?q=name:dracaufeu&limit=250&select=name");
    expect(rows.map((r) => r.id)).toContain("base1-4");
    expect(rows.find((r) => r.id === "base1-4")!.name).toBe("Charizard");
    const n = await count("select count(*)::int as n from cards where deleted_at is null and names->>'fr' ilike '%dracaufeu%'");
    expect(rows.length).toBeGreaterThanOrEqual(n);
  });

  it("set.series takes the series slug or name and spans the era's regions", async () => {
    const n = await count("select count(*)::int as n from cards where series_id = 'xy' and print_region = 'JP' and deleted_at is null");
    expect(n).toBeGreaterThan(0);
    const bySlug = await walk("/v1/cards?q=set.series:xy%20set.region:JP&select=id&limit=250");
    expect(bySlug.rows).toHaveLength(n);
    const byName = await getJson(`/v1/cards?q=${encodeURIComponent('set.series:"Sword & Shield"')}&select=id&limit=1`);
    expect(byName.body.data).toHaveLength(1);
  });

  it("a q that does not parse is INVALID_QUERY with the position", async () => {
    const { error } = await expectError("/v1/cards?q=name:(", 400, "INVALID_QUERY");
    expect(typeof error.details!.position).toBe("number");
    await expectError("/v1/cards?q=nosuchfield:1", 400, "INVALID_QUERY");
    await expectError("/v1/cards?q=hp:abc", 400, "INVALID_QUERY");
  });

  it("unknown select is INVALID_SELECT_FIELD with the valid fields", async () => {
    const { error } = await expectError("/v1/cards?select=name,bogus", 400, "INVALID_SELECT_FIELD");
    expect(error.details!.valid_fields).toEqual(expect.arrayContaining(["id", "name", "number", "national_pokedex_numbers"]));
  });

  it("include=legalities is INVALID_INCLUDE; the listed includes are accepted", async () => {
    await expectError("/v1/cards?include=legalities", 400, "INVALID_INCLUDE");
    const { res, body } = await getJson("/v1/cards?include=index,translations,images,set,artist&limit=2");
    expect(res.status).toBe(200);
    expect(body.data[0]).toHaveProperty("index_eur");
    expect(body.data[0]).toHaveProperty("translations");
    expect(body.data[0]).toHaveProperty("images");
  });

  it("include=prices gives every card its prices object (empty without observations), nothing withheld", async () => {
    const { res, body } = await getJson("/v1/cards?include=prices&limit=2&select=name,prices");
    expect(res.status).toBe(200);
    expect(body.meta.withheld).toBeUndefined();
    for (const c of body.data) {
      expect(c.prices).toHaveProperty("index");
      expect(Array.isArray(c.prices.quotes)).toBe(true);
    }
  });

  it("lang=fr gives French names and keeps the English name where no French one exists", async () => {
    const [noFr] = await query<{ id: string; name: string }>(
      "select id, name from cards where set_id = 'sm1' and deleted_at is null and not names ? 'fr' and names ? 'en' order by id limit 1",
    );
    expect(noFr).toBeDefined();
    const { body } = await getJson(`/v1/cards/batch?ids=base1-4,${noFr!.id}&lang=fr&select=name`);
    expect(body.data).toEqual([
      { id: "base1-4", name: "Dracaufeu" },
      { id: noFr!.id, name: noFr!.name },
    ]);
    // The same on a list page: no name is ever null.
    const page = await getJson("/v1/sets/sm1/cards?lang=fr&limit=250&select=name");
    expect(page.body.data.length).toBeGreaterThan(0);
    for (const r of page.body.data) expect(typeof r.name).toBe("string");
    expect(page.body.data.find((r: Card) => r.id === noFr!.id).name).toBe(noFr!.name);
  });

  it("under lang, orderBy=name sorts by the name shown, in a set's list and the card list, and pages in that order", async () => {
    type Named = { id: string; name: string };
    const set = (await getJson("/v1/sets/base1/cards?lang=fr&orderBy=name&limit=250&select=name")).body.data as Named[];
    await expectStrictOrder(set, [
      { get: (r) => r.name, desc: false, text: true },
      { get: (r) => r.id, desc: false, text: true },
    ], (r) => `${r.id}(${r.name})`);
    // Carabaffe (Wartortle) before Dracaufeu (Charizard): French order, not English.
    const at = (id: string) => set.findIndex((r) => r.id === id);
    expect(at("base1-42")).toBeLessThan(at("base1-4"));
    const paged = await walk<Named>("/v1/cards?q=set.id:base1&lang=fr&orderBy=-name&limit=40&select=name");
    expect(paged.rows.map((r) => r.id)).toEqual([...set].reverse().map((r) => r.id));
  });

  it("lang=xx is INVALID_PARAMETER", async () => {
    await expectError("/v1/cards?lang=xx", 400, "INVALID_PARAMETER");
    await expectError("/v1/cards/base1-4?lang=xx", 400, "INVALID_PARAMETER");
  });

  it("orderBy=-updated_at is accepted", async () => {
    const { res, body } = await getJson("/v1/cards?orderBy=-updated_at&limit=5&select=updated_at");
    expect(res.status).toBe(200);
    expect(body.data).toHaveLength(5);
  });
});
