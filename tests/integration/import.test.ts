import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { closeDb } from "@/lib/db/client";
import { resetEnvForTests } from "@/lib/env";
import { refreshCatalog } from "@/lib/catalog/import";
import { maxShrink } from "@/lib/catalog/import/shrink";
import { getJson, walk } from "../helpers/api";
import { forgetRoomyKeys } from "../helpers/accounts";
import { ensureDatabase, query } from "../helpers/db";
import { expectError } from "../helpers/expect";

// The refresh-catalog import, on a database of its own (recreated for every test) and the
// small sample catalogue copied to a temporary folder that the tests edit.

const DB = "pokeprice_import_test";
const CATALOG = path.resolve(process.env.CATALOG_DIR ?? "../shared/data/catalog");
const SAMPLE = path.join(CATALOG, "sample");

type Json = Record<string, any>;
let dir: string;
let previousUrl: string | undefined;

const sql = <T = Json>(text: string, params: unknown[] = []) => query<T>(text, params, DB);
const readRows = (file: string): Json[] =>
  readFileSync(path.join(dir, file), "utf8").split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l));
const writeRows = (file: string, rows: Json[]) =>
  writeFileSync(path.join(dir, file), rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
const editRows = (file: string, edit: (rows: Json[]) => Json[]) => writeRows(file, edit(readRows(file)));

async function runImport() {
  const res = await refreshCatalog(dir);
  return res;
}

async function goodImport() {
  const res = await runImport();
  expect(res.ok, res.error).toBe(true);
  return res;
}

/** Everything the import may write, to prove a failed run wrote nothing. */
async function snapshot() {
  const table = (t: string, key: string) =>
    sql(`select ${key} as key, content_hash, updated_at::text, deleted_at::text from ${t} order by ${key}`);
  return {
    series: await table("series", "id"),
    sets: await table("sets", "id"),
    cards: await table("cards", "id"),
    artists: await sql("select slug, card_count, set_count, updated_at::text, deleted_at::text from artists order by slug"),
    images: await sql("select owner_kind, owner_id, face, size, source_url from images order by 1, 2, 3, 4"),
    changes: await sql("select seq, kind, entity_id, op from changes order by seq"),
  };
}

const changesAfter = (seq: number) =>
  sql<{ kind: string; entity_id: string; op: string; fields: string[] | null }>(
    "select kind, entity_id, op, fields from changes where seq > $1 order by seq", [seq],
  );
const lastSeq = async () => (await sql<{ s: number }>("select coalesce(max(seq), 0)::int as s from changes"))[0]!.s;
const cardStamps = async () =>
  new Map((await sql<{ id: string; u: string }>("select id, updated_at::text as u from cards")).map((r) => [r.id, r.u]));

beforeAll(() => {
  previousUrl = process.env.DATABASE_URL;
});

beforeEach(async () => {
  await closeDb();
  process.env.DATABASE_URL = await ensureDatabase(DB, { fresh: true });
  // The request log and the ledger retry their writes in the background, and a retry opens a
  // handle: one opened while the database was being dropped and made again holds a pool on the
  // new, empty database without having migrated it ("relation does not exist"). Drop it too.
  await closeDb();
  resetEnvForTests();
  // The database is new: so is the test key in it.
  forgetRoomyKeys();
  // The sample is read-only and plain NDJSON: copy it so the tests can edit it. Series, sets
  // and cards are what the reader requires; sealed products are optional.
  dir = mkdtempSync(path.join(os.tmpdir(), "pokeprice-import-"));
  for (const f of readdirSync(SAMPLE)) writeFileSync(path.join(dir, f), readFileSync(path.join(SAMPLE, f)));
});

afterEach(async () => {
  await closeDb();
  rmSync(dir, { recursive: true, force: true });
});

afterAll(async () => {
  if (previousUrl === undefined) delete process.env.DATABASE_URL;
  else process.env.DATABASE_URL = previousUrl;
  resetEnvForTests();
});

describe("refresh-catalog import", () => {
  it("first run creates every row and logs CARD, SET and IMAGE changes", async () => {
    const cards = readRows("cards.ndjson");
    const sets = readRows("sets.ndjson");
    const series = readRows("series.ndjson");
    expect(readdirSync(dir).sort()).toEqual(["cards.ndjson", "series.ndjson", "sets.ndjson"]);

    const res = await goodImport();
    expect(res.counts.cards).toEqual({ created: cards.length, updated: 0, deleted: 0, unchanged: 0 });
    expect(res.counts.sets).toEqual({ created: sets.length, updated: 0, deleted: 0, unchanged: 0 });
    expect(res.counts.series).toEqual({ created: series.length, updated: 0, deleted: 0, unchanged: 0 });

    const [counts] = await sql<Json>("select (select count(*)::int from cards) as cards, (select count(*)::int from sets) as sets, (select count(*)::int from series) as series");
    expect(counts).toEqual({ cards: cards.length, sets: sets.length, series: series.length });

    const log = await changesAfter(0);
    expect(log.length).toBe(res.changes);
    const byKind = (k: string, op: string) => log.filter((c) => c.kind === k && c.op === op).map((c) => c.entity_id).sort();
    expect(byKind("CARD", "created")).toEqual(cards.map((c) => c.id).sort());
    expect(byKind("SET", "created")).toEqual(sets.map((s) => s.id).sort());
    // One IMAGE change per card or set whose upstream carries image URLs.
    const withImages = [
      ...cards.filter((c) => c.images?.small || c.images?.large).map((c) => c.id),
      ...sets.filter((s) => s.images?.logo || s.images?.symbol).map((s) => s.id),
    ].sort();
    expect(withImages.length).toBeGreaterThan(0);
    expect(byKind("IMAGE", "created")).toEqual(withImages);
    expect(new Set(log.map((c) => c.kind))).toEqual(new Set(["CARD", "SET", "IMAGE"]));

    // Served at once.
    const { body } = await getJson("/v1/status");
    expect(body.catalog).toMatchObject({ cards: cards.length, sets: sets.length, sealed: 0 });
    expect(body.upstream).toEqual({ contract_ok: true, error: null });
    expect(body.sources[0]).toMatchObject({ source: "refresh-catalog", state: "fresh" });
    const card = await getJson(`/v1/cards/${cards[0]!.id}?select=name`);
    expect(card.body.data).toEqual({ id: cards[0]!.id, name: cards[0]!.name });
  });

  it("a second run with no upstream change writes nothing", async () => {
    await goodImport();
    const before = await snapshot();
    const res = await goodImport();
    expect(res.changes).toBe(0);
    for (const [table, c] of Object.entries(res.counts)) {
      expect(c, table).toMatchObject({ created: 0, updated: 0, deleted: 0 });
    }
    expect(res.counts.cards!.unchanged).toBe(readRows("cards.ndjson").length);
    expect(res.counts.sets!.unchanged).toBe(readRows("sets.ndjson").length);
    expect(res.counts.series!.unchanged).toBe(readRows("series.ndjson").length);
    expect(res.counts.artists!.unchanged).toBe(before.artists.length);
    expect(await snapshot()).toEqual(before);
  });

  it("editing one card's name writes exactly one CARD update and moves only that card's updated_at", async () => {
    await goodImport();
    const seq = await lastSeq();
    const stamps = await cardStamps();
    const served = (await getJson("/v1/cards/base1-4?select=updated_at")).body.data.updated_at;
    const target = readRows("cards.ndjson").find((c) => c.id === "base1-4")!;
    expect(target.name).toBe("Charizard");
    editRows("cards.ndjson", (rows) => rows.map((c) => (c.id === "base1-4" ? { ...c, name: "Charizard Testname" } : c)));

    const res = await goodImport();
    expect(res.counts.cards).toMatchObject({ created: 0, updated: 1, deleted: 0 });
    const log = await changesAfter(seq);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ kind: "CARD", entity_id: "base1-4", op: "updated" });
    // API field names only: the search columns derived from the name are not reported.
    expect(log[0]!.fields).toEqual(["name"]);
    // Only what changed: the translations, images and other attributes did not.
    for (const unchanged of ["names", "images", "attrs", "number", "artist"]) expect(log[0]!.fields).not.toContain(unchanged);

    const after = await cardStamps();
    for (const [id, stamp] of stamps) {
      if (id === "base1-4") expect(after.get(id), id).not.toBe(stamp);
      else expect(after.get(id), id).toBe(stamp);
    }
    const { body } = await getJson("/v1/cards/base1-4?select=name,updated_at");
    expect(body.data.name).toBe("Charizard Testname");
    expect(Date.parse(body.data.updated_at)).toBeGreaterThan(Date.parse(served));
    // The new name is searchable.
    const found = await getJson("/v1/cards?q=name:testname&select=name");
    expect(found.body.data.map((c: Json) => c.id)).toEqual(["base1-4"]);
  });

  it("removing a card soft-deletes it: 404 on its route, gone from lists and counts", async () => {
    await goodImport();
    const seq = await lastSeq();
    const removed = readRows("cards.ndjson").find((c) => c.id === "base1-4")!;
    const artistBefore = (await getJson(`/v1/artists?q=${encodeURIComponent(removed.artist)}`)).body.data
      .find((a: Json) => a.name === removed.artist);
    const setBefore = (await getJson("/v1/sets/base1")).body.data;
    editRows("cards.ndjson", (rows) => rows.filter((c) => c.id !== "base1-4"));

    const res = await goodImport();
    expect(res.counts.cards).toMatchObject({ created: 0, updated: 0, deleted: 1 });
    const log = await changesAfter(seq);
    expect(log.filter((c) => c.kind === "CARD")).toEqual([{ kind: "CARD", entity_id: "base1-4", op: "deleted", fields: null }]);

    const [row] = await sql<Json>("select deleted_at from cards where id = 'base1-4'");
    expect(row!.deleted_at).not.toBeNull();
    await expectError("/v1/cards/base1-4", 404, "CARD_NOT_FOUND");
    const batch = await getJson("/v1/cards/batch?ids=base1-4,base1-2&select=name");
    expect(batch.body.data.map((c: Json) => c.id)).toEqual(["base1-2"]);
    expect(batch.body.meta.missing.map((m: Json) => m.id)).toEqual(["base1-4"]);
    const { rows } = await walk("/v1/sets/base1/cards?limit=250&select=name");
    expect(rows.map((r: Json) => r.id)).not.toContain("base1-4");

    // Counts maintained by the import follow.
    expect((await getJson("/v1/sets/base1")).body.data.card_count).toBe(setBefore.card_count - 1);
    const artistAfter = (await getJson(`/v1/artists/${artistBefore.slug}`)).body.data;
    expect(artistAfter.card_count).toBe(artistBefore.card_count - 1);
    expect((await getJson("/v1/status")).body.catalog.cards).toBe(readRows("cards.ndjson").length);

    // Putting it back revives the same card.
    editRows("cards.ndjson", (rows) => [...rows, removed]);
    await goodImport();
    expect((await getJson("/v1/cards/base1-4?select=name")).body.data).toEqual({ id: "base1-4", name: "Charizard" });
  });

  it("artists.card_count and series set_count are maintained", async () => {
    await goodImport();
    const cards = readRows("cards.ndjson");
    const expected = new Map<string, number>();
    for (const c of cards) if (c.artist) expected.set(c.artist, (expected.get(c.artist) ?? 0) + 1);
    const artists = (await walk<Json>("/v1/artists?limit=250")).rows;
    expect(new Map(artists.map((a) => [a.name, a.card_count]))).toEqual(expected);

    // The series records upstream carry their own (whole-catalogue) counts; ours count the sets imported.
    const upstreamSeries = readRows("series.ndjson");
    expect(upstreamSeries.some((s) => s.set_count !== 1)).toBe(true);
    const series = (await getJson("/v1/series")).body.data as Json[];
    const setsPer = async () => {
      const m = new Map<string, number>();
      for (const s of (await walk<Json>("/v1/sets?limit=250")).rows) m.set(s.series.id, (m.get(s.series.id) ?? 0) + 1);
      return m;
    };
    expect(new Map(series.map((s) => [s.id, s.set_count]))).toEqual(await setsPer());
    const baseSeries = (await getJson("/v1/sets/base1")).body.data.series.id as string;

    // A new set in a series, and cards moving from one artist to another.
    const base1 = readRows("sets.ndjson").find((s) => s.id === "base1")!;
    editRows("sets.ndjson", (rows) => [...rows, { ...base1, id: "base1-copy", name: "Base Copy", tcgdex_id: undefined, ptcgo_code: undefined }]);
    const [from, to] = [...expected.keys()].sort() as [string, string];
    const moved = cards.filter((c) => c.artist === from).slice(0, 2).map((c) => c.id);
    expect(moved.length).toBeGreaterThan(0);
    editRows("cards.ndjson", (rows) => rows.map((c) => (moved.includes(c.id) ? { ...c, artist: to } : c)));
    await goodImport();

    const seriesAfter = (await getJson("/v1/series")).body.data as Json[];
    expect(seriesAfter.find((s) => s.id === baseSeries)!.set_count).toBe((await setsPer()).get(baseSeries));
    expect(seriesAfter.find((s) => s.id === baseSeries)!.set_count)
      .toBe(series.find((s) => s.id === baseSeries)!.set_count + 1);
    const artistsAfter = new Map((await walk<Json>("/v1/artists?limit=250")).rows.map((a) => [a.name, a.card_count]));
    expect(artistsAfter.get(to)).toBe(expected.get(to)! + moved.length);
    if (expected.get(from)! > moved.length) expect(artistsAfter.get(from)).toBe(expected.get(from)! - moved.length);
    else expect(artistsAfter.has(from)).toBe(false);
  });

  it("a change that logs no change row still reaches cached answers (the catalogue's version moves)", async () => {
    await goodImport();
    const before = (await getJson("/v1/series?lang=de")).body.data.find((s: Json) => s.id === "base");
    expect(before.name).toBe("Grund");
    const version = async () => (await sql<{ v: number }>("select version::int as v from catalog_version"))[0]!.v;
    const v1 = await version();
    const seq = await lastSeq();
    // Only the German name of the upstream series changes: our series row, and no change-log kind.
    editRows("series.ndjson", (rows) => rows.map((s) => (s.id === "base" ? { ...s, names: { ...s.names, de: "Basis" } } : s)));
    await goodImport();
    expect(await changesAfter(seq)).toEqual([]);
    expect(await version()).toBe(v1 + 1);
    const after = (await getJson("/v1/series?lang=de")).body.data.find((s: Json) => s.id === "base");
    expect(after.name).toBe("Basis");
    // An import that writes nothing leaves the version alone.
    await goodImport();
    expect(await version()).toBe(v1 + 1);
  });

  describe("a broken upstream changes nothing", () => {
    const BREAKAGES: { name: string; mention: RegExp; breakIt: () => void }[] = [
      {
        name: "a card row missing its name",
        mention: /cards\.ndjson.*name/,
        breakIt: () => editRows("cards.ndjson", (rows) => rows.map((c, i) => {
          if (i !== 3) return c;
          const { name: _drop, ...rest } = c;
          return rest;
        })),
      },
      {
        name: "a cards file of invalid JSON",
        mention: /cards\.ndjson.*(JSON|json)/,
        breakIt: () => writeFileSync(path.join(dir, "cards.ndjson"), readFileSync(path.join(dir, "cards.ndjson"), "utf8") + "{not json\n"),
      },
      {
        name: "a sets file of invalid JSON",
        mention: /sets\.ndjson.*(JSON|json)/,
        breakIt: () => writeFileSync(path.join(dir, "sets.ndjson"), "this is not JSON\n"),
      },
      {
        name: "a card naming an unknown set",
        mention: /unknown set/,
        breakIt: () => editRows("cards.ndjson", (rows) => rows.map((c, i) => (i === 0 ? { ...c, set_id: "no-such-set" } : c))),
      },
      {
        name: "a required file missing",
        mention: /sets\.ndjson/,
        breakIt: () => rmSync(path.join(dir, "sets.ndjson")),
      },
    ];

    it.each(BREAKAGES.map((b) => [b.name, b] as const))("%s", async (_name, b) => {
      // A good catalogue first, with an edit pending so that a partial write would show.
      await goodImport();
      const good = await getJson("/v1/status");
      editRows("cards.ndjson", (rows) => rows.map((c) => (c.id === "base1-2" ? { ...c, name: "Pending Edit" } : c)));
      const before = await snapshot();
      b.breakIt();

      const res = await runImport();
      expect(res.ok).toBe(false);
      expect(res.error).toMatch(b.mention);
      expect(await snapshot()).toEqual(before);

      // /v1/status names the problem; the catalogue keeps serving its last good state.
      const { body } = await getJson("/v1/status");
      expect(body.upstream.contract_ok).toBe(false);
      expect(body.upstream.error).toMatch(b.mention);
      expect(body.catalog).toEqual(good.body.catalog);
      expect(body.sources[0].last_success_at).toBe(good.body.sources[0].last_success_at);
      const card = await getJson("/v1/cards/base1-2?select=name");
      expect(card.res.status).toBe(200);
      expect(card.body.data.name).toBe("Blastoise");
      expect((await getJson("/v1/sets/base1/cards?limit=3")).res.status).toBe(200);

      // Mending the upstream and importing again restores the contract.
      for (const f of readdirSync(SAMPLE)) writeFileSync(path.join(dir, f), readFileSync(path.join(SAMPLE, f)));
      await goodImport();
      const mended = await getJson("/v1/status");
      expect(mended.body.upstream).toEqual({ contract_ok: true, error: null });
      expect(mended.body.status).toBe("ok");
    });
  });

  describe("an upstream that shrinks too far is a broken contract", () => {
    const live = async (table: string) => (await sql<{ n: number }>(`select count(*)::int as n from ${table} where deleted_at is null`))[0]!.n;
    let savedShare: string | undefined;
    beforeEach(() => {
      savedShare = process.env.CATALOG_MAX_SHRINK;
      delete process.env.CATALOG_MAX_SHRINK;
    });
    afterEach(() => {
      if (savedShare === undefined) delete process.env.CATALOG_MAX_SHRINK;
      else process.env.CATALOG_MAX_SHRINK = savedShare;
    });

    it("losing 10 % of the cards changes nothing and says so on /v1/status, until the operator allows it", async () => {
      await goodImport();
      const good = await getJson("/v1/status");
      editRows("cards.ndjson", (rows) => rows.map((c) => (c.id === "base1-2" ? { ...c, name: "Pending Edit" } : c)));
      const cards = readRows("cards.ndjson");
      const dropped = cards.filter((c) => c.id !== "base1-2").slice(-10).map((c) => c.id);
      editRows("cards.ndjson", (rows) => rows.filter((c) => !dropped.includes(c.id)));
      const before = await snapshot();

      const res = await runImport();
      expect(res.ok).toBe(false);
      expect(res.error).toMatch(/upstream contract broken: .*cards would lose 10 of 100 \(10 %\).*--allow-shrink/);
      expect(await snapshot()).toEqual(before);
      const { body } = await getJson("/v1/status");
      expect(body.upstream).toEqual({ contract_ok: false, error: res.error });
      expect(body.status).toBe("degraded");
      expect(body.catalog).toEqual(good.body.catalog);
      expect(body.sources[0].last_success_at).toBe(good.body.sources[0].last_success_at);
      expect((await getJson(`/v1/cards/${dropped[0]}?select=name`)).res.status).toBe(200);
      expect((await getJson("/v1/cards/base1-2?select=name")).body.data.name).toBe("Blastoise");

      const allowed = await refreshCatalog(dir, undefined, undefined, { allowShrink: true });
      expect(allowed.ok, allowed.error).toBe(true);
      expect(allowed.counts.cards).toMatchObject({ updated: 1, deleted: 10 });
      expect(allowed.shrunk).toEqual([{ table: "cards", live: 100, gone: 10 }]);
      expect((await getJson("/v1/status")).body.upstream).toEqual({ contract_ok: true, error: null });
      await expectError(`/v1/cards/${dropped[0]}`, 404, "CARD_NOT_FOUND");
    });

    it("5 % by default, CATALOG_MAX_SHRINK otherwise, over sets and sealed products as well", async () => {
      // A trimmed copy of the real catalogue's sealed products (the sample has none).
      const sealed = gunzipSync(readFileSync(path.join(CATALOG, "sealed_products.ndjson.gz"))).toString("utf8")
        .split("\n").filter((l) => l.trim()).slice(0, 40);
      writeFileSync(path.join(dir, "sealed_products.ndjson"), sealed.join("\n") + "\n");
      await goodImport();
      expect(await live("sealed_products")).toBe(40);

      // 5 of 100 cards is the limit itself: applied.
      editRows("cards.ndjson", (rows) => rows.slice(0, 95));
      expect((await goodImport()).counts.cards).toMatchObject({ deleted: 5 });

      // 3 of 40 sealed products is 7.5 %.
      editRows("sealed_products.ndjson", (rows) => rows.slice(3));
      const res = await runImport();
      expect(res.error).toMatch(/sealed products would lose 3 of 40 \(7\.5 %\)/);
      expect(await live("sealed_products")).toBe(40);
      process.env.CATALOG_MAX_SHRINK = "10%";
      expect((await goodImport()).counts.sealed).toMatchObject({ deleted: 3 });

      // A set gone with its cards: both tables past the limit, both named.
      const [kept, removed] = readRows("sets.ndjson") as [Json, Json];
      const setCards = readRows("cards.ndjson").filter((c) => c.set_id === removed.id).length;
      editRows("sets.ndjson", (rows) => rows.filter((s) => s.id === kept.id));
      editRows("cards.ndjson", (rows) => rows.filter((c) => c.set_id === kept.id));
      const gone = await runImport();
      expect(gone.error).toMatch(new RegExp(`cards would lose ${setCards} of 95 .*sets would lose 1 of 2 \\(50 %\\)`));
      expect(await live("sets")).toBe(2);
      process.env.CATALOG_MAX_SHRINK = "0.6";
      await goodImport();
      expect(await live("sets")).toBe(1);
    });

    it("CATALOG_MAX_SHRINK takes a share or a percentage, and nothing else", () => {
      expect(maxShrink(undefined)).toBe(0.05);
      expect(maxShrink("0.2")).toBe(0.2);
      expect(maxShrink("12.5%")).toBe(0.125);
      expect(() => maxShrink("lots")).toThrow(/CATALOG_MAX_SHRINK/);
      expect(() => maxShrink("150%")).toThrow(/CATALOG_MAX_SHRINK/);
    });
  });
});
