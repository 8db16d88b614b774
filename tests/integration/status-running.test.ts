import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { routeSpecs } from "@/app/api/v1/routes";
import { refreshCatalog } from "@/lib/catalog/import";
import { closeDb } from "@/lib/db/client";
import { resetEnvForTests } from "@/lib/env";
import { runDemoMarket, DEMO_STAGES } from "@/lib/prices/demo-market";
import { refreshPrices } from "@/lib/prices/refresh";
import { demoPreparing } from "@/app/(browse)/cards/demo";
import { call } from "../helpers/api";
import { dbUrl, ensureDatabase } from "../helpers/db";
import { day, feeds, quiet } from "../helpers/feeds";

// GET /v1/status while a job runs in this process: the job is listed with state running and its
// share done, an ingest job among them is `running` in sources, and the answer matches the
// published schema. The job is held mid-run deterministically: a connection of the test's own
// holds the change feed's lock, which the job takes to write its PRICE changes after applying
// every file, so it waits there with all its files applied.

const DB = "pokeprice_status_running_test";
const SAMPLE = path.resolve(process.env.CATALOG_DIR ?? "../shared/data/catalog", "sample");
const CHANGE_FEED_LOCK = 72_406; // lib/changes/lock.ts
const j = JSON.stringify;
let previousUrl: string | undefined;
let cards: string[] = [];

const status = async () => {
  const res = await call("GET", "/v1/status", { anonymous: true });
  expect(res.status).toBe(200);
  const body = await res.json();
  const spec = routeSpecs().find((s) => s.method === "GET" && s.path === "/status")!;
  const parsed = spec.response.safeParse(body);
  expect(parsed.success, parsed.error?.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")).toBe(true);
  return body;
};

/** Polls /v1/status until `ok` holds for its answer (the job reaches the held lock). */
async function statusWhen(ok: (body: any) => boolean, what: string) {
  for (let i = 0; i < 600; i++) {
    const body = await status();
    if (ok(body)) return body;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`status never showed ${what}`);
}

/** Runs `job` while the change feed's lock is held by another connection; `during` sees it waiting there. */
async function held<T>(job: () => Promise<T>, during: () => Promise<void>): Promise<T> {
  const other = new pg.Client({ connectionString: dbUrl(DB) });
  await other.connect();
  await other.query("select pg_advisory_lock($1)", [CHANGE_FEED_LOCK]);
  let run: Promise<T> | undefined;
  try {
    run = job();
    run.catch(() => undefined);
    await during();
  } finally {
    await other.query("select pg_advisory_unlock($1)", [CHANGE_FEED_LOCK]);
    await other.end();
  }
  return run!;
}

beforeAll(async () => {
  previousUrl = process.env.DATABASE_URL;
  await closeDb();
  process.env.DATABASE_URL = await ensureDatabase(DB, { fresh: true });
  resetEnvForTests();
  const res = await refreshCatalog(SAMPLE);
  expect(res.ok, res.error).toBe(true);
  const c = new pg.Client({ connectionString: dbUrl(DB) });
  await c.connect();
  cards = (await c.query<{ id: string }>("select id from cards order by id")).rows.map((r) => r.id);
  await c.end();
});

afterAll(async () => {
  await closeDb();
  if (previousUrl === undefined) delete process.env.DATABASE_URL;
  else process.env.DATABASE_URL = previousUrl;
  resetEnvForTests();
});

describe("GET /v1/status while a job runs in the instance", () => {
  it("lists no job when none runs", async () => {
    const body = await status();
    expect(body.jobs).toEqual([]);
    expect(body.sources.map((s: any) => s.state)).not.toContain("running");
  });

  it("refresh-prices: state running in sources, and in jobs with the share of its files applied", async () => {
    const dir = feeds({
      "cardmarket/2030-01-01.ndjson": cards.slice(0, 30).map((c) => j({ product: `card:${c}`, date: day(-1), language: "en", printing: "HOLOFOIL", trend: 5 })),
      "ebay/2030-01-01.ndjson": cards.slice(0, 30).map((c) => j({ product: `card:${c}`, date: day(-1), grade: null, median_usd: 7, sold_count: 2 })),
    });
    const result = await held(() => refreshPrices(dir, quiet()), async () => {
      const body = await statusWhen((b) => b.jobs.some((x: any) => x.job === "refresh-prices" && x.share_done === 1), "refresh-prices with its files applied");
      expect(body.sources.find((s: any) => s.source === "refresh-prices").state).toBe("running");
      expect(body.jobs).toEqual([{ job: "refresh-prices", state: "running", phase: null, share_done: 1, started_at: expect.any(String) }]);
      expect(Date.parse(body.jobs[0].started_at)).toBeLessThanOrEqual(Date.now());
    });
    expect(result.observations).toBe(60);
    const after = await status();
    expect(after.jobs).toEqual([]);
    expect(after.sources.find((s: any) => s.source === "refresh-prices").state).toBe("fresh");
  });

  it("the demo market: demo-prices with its stage and a share between 0 and 1, and the pages say prices are being prepared", async () => {
    const dir = path.join(feeds({}), "demo");
    expect(demoPreparing()).toBeNull();
    const market = await held(() => runDemoMarket({ days: 5, feedsDir: dir, progress: () => quiet() }), async () => {
      // Held after applying the demo's files: the generation and the files are done, the index not begun.
      const body = await statusWhen((b) => b.jobs.some((x: any) => x.job === "refresh-prices" && x.share_done === 1), "the demo's files applied");
      const demo = body.jobs.find((x: any) => x.job === "demo-prices");
      const total = Object.values(DEMO_STAGES).reduce((n, w) => n + w, 0);
      expect(demo).toMatchObject({ state: "running", phase: "refresh-prices" });
      expect(demo.share_done).toBeCloseTo((DEMO_STAGES["demo-prices"] + DEMO_STAGES["refresh-prices"]) / total, 2);
      expect(demo.share_done).toBeGreaterThan(0);
      expect(demo.share_done).toBeLessThan(1);
      expect(body.sources.find((s: any) => s.source === "refresh-prices").state).toBe("running");
      expect(demoPreparing()).toEqual({ percent: Math.floor(demo.share_done * 100) });
    });
    expect(market.index.indexed).toBeGreaterThan(0);
    expect((await status()).jobs).toEqual([]);
    expect(demoPreparing()).toBeNull();
  });
});
