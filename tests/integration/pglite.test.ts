import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { closeDb, dbKind, getDb, rows } from "@/lib/db/client";
import { runningJob } from "@/lib/jobs/running";
import { resetEnvForTests } from "@/lib/env";
import { refreshCatalog } from "@/lib/catalog/import";
import { insertLogRows } from "@/lib/usage/queries/write";
import { getJson } from "../helpers/api";
import { makeAccount } from "../helpers/accounts";
import { as } from "../helpers/meter";

// The zero-setup default: no DATABASE_URL, an embedded PGlite database in a data folder,
// the same migrations and the same queries as PostgreSQL.
const SAMPLE = path.resolve(process.env.CATALOG_DIR ?? "../shared/data/catalog", "sample");
let dir: string;

beforeAll(async () => {
  await closeDb();
  dir = mkdtempSync(path.join(os.tmpdir(), "pglite-"));
  delete process.env.DATABASE_URL;
  process.env.PGLITE_DIR = dir;
  resetEnvForTests();
  const res = await refreshCatalog(SAMPLE);
  expect(res.ok, res.error).toBe(true);
});

afterAll(async () => {
  await closeDb();
  rmSync(dir, { recursive: true, force: true });
});

describe("embedded PGlite default", () => {
  it("runs on PGlite when DATABASE_URL is unset", async () => {
    expect(await dbKind()).toBe("pglite");
  });

  it("serves the imported sample through the same routes", async () => {
    const { res, body } = await getJson("/v1/sets/base1/cards?limit=3&select=name,number");
    expect(res.status).toBe(200);
    expect(body.data.map((c: { number: string }) => c.number)).toEqual(["1", "2", "3"]);
    expect(body.meta.has_more).toBe(true);
    const next = await getJson(body.links.next);
    expect(next.body.data[0].number).toBe("4");
  });

  it("runs q searches and the Japanese set of the sample", async () => {
    const { body } = await getJson("/v1/cards?q=set.region:JP&limit=250&select=id");
    expect(body.data.length).toBe(50);
    expect(body.data.every((c: { id: string }) => c.id.startsWith("tcgdex-asia-SV2a-"))).toBe(true);
    const hit = await getJson("/v1/cards?q=name:charizard&select=name");
    expect(hit.body.data.map((c: { name: string }) => c.name)).toContain("Charizard");
  });

  it("writes the request log's batches on PGlite: nulls, times to the millisecond, the hourly sums", async () => {
    const at = Date.parse("2026-11-26T10:59:59.987Z");
    const row = { accountId: "acct_pglite", keyId: "key_a", method: "GET", route: "/v1/cards/{id}", status: 200, errorCode: null, credits: 1, cardsAdded: 1, refunded: false, latency: 123, requestId: "req_a" };
    await insertLogRows([
      { ...row, at },
      { ...row, at: at + 20, keyId: null, status: 429, errorCode: "RATE_LIMITED", credits: 0, cardsAdded: 0, refunded: true, requestId: "req_b" },
    ]);
    const log = await rows<Record<string, unknown>>(sql`
      select to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS') as at, key_id, status, error_code, credits, cards_added, refunded, latency, request_id
      from request_log where account_id = 'acct_pglite' order by at`);
    expect(log).toEqual([
      { at: "2026-11-26T10:59:59.987", key_id: "key_a", status: 200, error_code: null, credits: 1, cards_added: 1, refunded: false, latency: 123, request_id: "req_a" },
      { at: "2026-11-26T11:00:00.007", key_id: null, status: 429, error_code: "RATE_LIMITED", credits: 0, cards_added: 0, refunded: true, latency: 123, request_id: "req_b" },
    ]);
    const hourly = await rows<Record<string, unknown>>(sql`
      select to_char(hour at time zone 'UTC', 'HH24:MI') as hour, key_id, status, requests, credits, refunds, cards_added
      from usage_hourly where account_id = 'acct_pglite' order by hour`);
    expect(hourly).toEqual([
      { hour: "10:00", key_id: "key_a", status: 200, requests: 1, credits: 1, refunds: 0, cards_added: 1 },
      { hour: "11:00", key_id: "", status: 429, requests: 1, credits: 0, refunds: 1, cards_added: 0 },
    ]);
    // Each column goes as one array: text that array syntax treats specially comes back as sent.
    const odd = ['a "quoted", {braced} \\ text', "NULL", "", " spaced "];
    await insertLogRows(odd.map((route, i) => ({ ...row, accountId: "acct_pglite_odd", at: at + i, route, errorCode: route, requestId: `req_odd_${i}` })));
    const back = await rows<{ route: string; error_code: string }>(sql`select route, error_code from request_log where account_id = 'acct_pglite_odd' order by at`);
    expect(back).toEqual(odd.map((route) => ({ route, error_code: route })));
    await insertLogRows(Array.from({ length: 601 }, (_, i) => ({ ...row, accountId: "acct_pglite_many", at: at + i, requestId: `req_${i}` })));
    const [many] = await rows<{ n: number; ids: number; last: string }>(sql`
      select count(*)::int as n, count(distinct request_id)::int as ids, max(request_id) filter (where at = (select max(at) from request_log where account_id = 'acct_pglite_many')) as last
      from request_log where account_id = 'acct_pglite_many'`);
    expect(many).toEqual({ n: 601, ids: 601, last: "req_600" });
    const [sum] = await rows<{ requests: number }>(sql`select sum(requests)::int as requests from usage_hourly where account_id = 'acct_pglite_many'`);
    expect(sum!.requests).toBe(601);
  });

  it("rotates keys on its one connection: a read inside the rotation's transaction once waited for the transaction for ever", async () => {
    const acct = await makeAccount({ confirmed: true });
    const other = await makeAccount({ confirmed: true });
    const theirs = (await as(other.key, "GET", "/v1/keys")).body.data[0].id as string;
    const mine = (await as(acct.key, "GET", "/v1/keys")).body.data[0].id as string;
    const hung = new Promise<never>((_, reject) => setTimeout(() => reject(new Error("the rotation hung")), 10_000));
    const refused = await Promise.race([as(acct.key, "POST", `/v1/keys/${theirs}/rotate`), hung]);
    expect(refused.status).toBe(404);
    const rotated = await Promise.race([as(acct.key, "POST", `/v1/keys/${mine}/rotate`), hung]);
    expect(rotated.status).toBe(200);
    expect((await as(rotated.body.data.secret, "GET", "/v1/me")).status).toBe(200);
    expect((await as(acct.key, "GET", "/v1/me")).status).toBe(401);
  });

  it("keeps the data folder: a second import changes nothing", async () => {
    await closeDb();
    const again = await refreshCatalog(SAMPLE);
    expect(again.ok).toBe(true);
    expect(again.changes).toBe(0);
  });
});

describe("job work beside a server on the same thread", () => {
  it("every statement hands the event loop back, inside a transaction too", async () => {
    // PGlite resolves its statements without real I/O: left alone, a run of them never lets a
    // timer or a socket in (a health probe waited a minute during the first start's demo prices).
    let turns = 0;
    setImmediate(() => turns++);
    await rows(sql`select 1`);
    expect(turns).toBe(1);
    await (await getDb()).transaction(async (tx) => {
      setImmediate(() => turns++);
      await tx.execute(sql`select 1`);
      expect(turns).toBe(2);
    });
    let fired = false;
    setTimeout(() => (fired = true), 0);
    for (let i = 0; i < 100 && !fired; i++) await rows(sql`select ${i}::int`);
    expect(fired).toBe(true);
  });

  it("the first start's demo prices run paced on PGlite: /v1/status lists them with their share while they run; the prices land", async () => {
    process.env.PRICE_FEEDS_DIR = path.join(dir, "feeds");
    process.env.DEMO_PRICES_DAYS = "30";
    resetEnvForTests();
    try {
      const { demoPricesOnFirstStart } = await import("@/lib/prices/demo-on-start");
      const run = demoPricesOnFirstStart();
      while (!runningJob("demo-prices")) await new Promise((r) => setImmediate(r));
      const { res, body } = await getJson("/v1/status");
      expect(res.status).toBe(200);
      const job = body.jobs.find((j: { job: string }) => j.job === "demo-prices");
      expect(job).toMatchObject({ state: "running" });
      expect(job.share_done).toBeGreaterThanOrEqual(0);
      expect(job.share_done).toBeLessThan(1);
      await run;
      expect(runningJob("demo-prices")).toBeUndefined();
      const prices = await getJson("/v1/cards/base1-4/prices");
      expect(prices.res.status).toBe(200);
      expect(prices.body.data.quotes.length).toBeGreaterThan(0);
      expect((await getJson("/v1/status")).body.sources.map((s: { state: string }) => s.state)).toEqual(["fresh", "fresh", "fresh"]);
    } finally {
      delete process.env.PRICE_FEEDS_DIR;
      delete process.env.DEMO_PRICES_DAYS;
      resetEnvForTests();
    }
  }, 180_000);

  it("the first start builds the bulk files once, after the demo prices: GET /v1/bulk lists them, a restart builds nothing, or only the types a stopped start left", async () => {
    process.env.STORAGE_DIR = path.join(dir, "storage");
    const key = (await makeAccount({ plan: "growth", confirmed: true })).key;
    try {
      const { bulkOnFirstStart } = await import("@/lib/bulk/on-start");
      expect((await getJson("/v1/bulk", { "x-api-key": key })).body.data).toEqual([]);
      await bulkOnFirstStart();
      const listed = await getJson("/v1/bulk", { "x-api-key": key });
      expect(listed.res.status).toBe(200);
      expect(listed.body.data.map((f: { type: string }) => f.type).sort()).toEqual(["cards", "index", "prices", "sealed", "sets"]);
      const built = await rows<{ type: string; rows: number; updated_at: string }>(sql`select type, rows, updated_at::text from bulk_files order by type`);
      expect(built.find((f) => f.type === "cards")!.rows).toBeGreaterThan(0);
      // The demo prices of the test before are in the prices file.
      expect(built.find((f) => f.type === "prices")!.rows).toBeGreaterThan(0);
      await bulkOnFirstStart();
      expect(await rows(sql`select type, rows, updated_at::text from bulk_files order by type`)).toEqual(built);
      // A first start stopped halfway: the next builds the types missing, and only those.
      await rows(sql`delete from bulk_files where type = 'sets'`);
      await bulkOnFirstStart();
      const after = await rows<{ type: string; rows: number; updated_at: string }>(sql`select type, rows, updated_at::text from bulk_files order by type`);
      expect(after.map((f) => f.type)).toEqual(built.map((f) => f.type));
      expect(after.filter((f) => f.type !== "sets")).toEqual(built.filter((f) => f.type !== "sets"));
      expect(after.find((f) => f.type === "sets")!.rows).toBe(built.find((f) => f.type === "sets")!.rows);
    } finally {
      delete process.env.STORAGE_DIR;
    }
  }, 120_000);
});
