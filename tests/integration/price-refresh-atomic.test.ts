import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { refreshCatalog } from "@/lib/catalog/import";
import { PRICE_REFRESH_LOCK } from "@/lib/changes/lock";
import { closeDb } from "@/lib/db/client";
import { resetEnvForTests } from "@/lib/env";
import type { Progress } from "@/lib/jobs/progress";
import { REFERENCE } from "@/lib/catalog/reference";
import { refreshPrices } from "@/lib/prices/refresh";
import { dbUrl, ensureDatabase, query } from "../helpers/db";
import { day, feeds, quiet } from "../helpers/feeds";

// refresh-prices applies a file in one transaction, under a lock that lets one run at a time
// apply files. On a database of its own holding the sample catalogue: a test makes the
// database reject one product's rows, and counts every series there is.

const DB = "pokeprice_price_atomic_test";
const SAMPLE = path.resolve(process.env.CATALOG_DIR ?? "../shared/data/catalog", "sample");
const j = JSON.stringify;
let cards: string[] = [];
let previousUrl: string | undefined;

const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => query<T>(text, params, DB);
const seriesCount = async () => (await sql<{ n: number }>("select count(*)::int as n from price_series"))[0]!.n;
const monthCount = async () => (await sql<{ n: number }>("select count(*)::int as n from price_months"))[0]!.n;
const feedCount = async () => (await sql<{ n: number }>("select count(*)::int as n from price_feeds"))[0]!.n;

/** `n` history lines of distinct series: `products` in every locale and printing. */
function historyLines(n: number, products = cards): string[] {
  const out: string[] = [];
  for (let i = 0; out.length < n; i++) {
    const combo = Math.floor(i / products.length);
    const locale = REFERENCE.locales[combo % REFERENCE.locales.length];
    const printing = REFERENCE.printings[Math.floor(combo / REFERENCE.locales.length) % REFERENCE.printings.length];
    out.push(j({
      product: `card:${products[i % products.length]}`, variant: "TREND", basis: "SOLD", currency: "EUR", locale, condition: "NEAR_MINT", printing,
      grading: null, provenance: "atomic test", from: day(-4), amounts: [1, 2, 3],
    }));
  }
  return out;
}

function recording(): Progress & { notes: string[] } {
  const notes: string[] = [];
  return { notes, phase() {}, tick() {}, note: (m: string) => void notes.push(m), done() {} };
}

beforeAll(async () => {
  previousUrl = process.env.DATABASE_URL;
  await closeDb();
  process.env.DATABASE_URL = await ensureDatabase(DB, { fresh: true });
  resetEnvForTests();
  const res = await refreshCatalog(SAMPLE);
  expect(res.ok, res.error).toBe(true);
  cards = (await sql<{ id: string }>("select id from cards order by id")).map((r) => r.id);
});

beforeEach(async () => {
  await sql("truncate price_months, price_series, price_feeds, price_docs");
});

afterAll(async () => {
  await closeDb();
  if (previousUrl === undefined) delete process.env.DATABASE_URL;
  else process.env.DATABASE_URL = previousUrl;
  resetEnvForTests();
});

describe("a feed file applies whole or not at all", () => {
  it("a file the database rejects halfway leaves nothing of it, and the next run applies it whole", async () => {
    const poison = cards.at(-1)!;
    // Past the first batch of 2,000 history lines: the first batch is written before the failure.
    const lines = [...historyLines(2_000, cards.slice(0, -1)), ...historyLines(1, [poison])];
    const dir = feeds({ "cardmarket/history-atomic.ndjson": lines, "cardmarket/2020-01-01.ndjson": [] });
    await sql(`create or replace function reject_poison() returns trigger language plpgsql as $$
      begin if new.product_id = '${poison}' then raise exception 'test: % rejected', new.product_id; end if; return new; end $$`);
    await sql("create trigger reject_poison before insert or update on price_series for each row execute function reject_poison()");
    try {
      await expect(refreshPrices(dir, quiet())).rejects.toThrow();
      expect(await seriesCount()).toBe(0);
      expect(await monthCount()).toBe(0);
      expect(await feedCount()).toBe(0);
      const [run] = await sql<{ last_error: string | null }>("select last_error from job_runs where job = 'refresh-prices'");
      expect(run!.last_error).toBeTruthy();
    } finally {
      await sql("drop trigger reject_poison on price_series");
    }

    const again = await refreshPrices(dir, quiet());
    const file = again.files.find((f) => f.file.endsWith("history-atomic.ndjson"))!;
    expect(file.skipped).toBeFalsy();
    expect(file).toMatchObject({ applied: 2_001, rejected: 0 });
    expect(await seriesCount()).toBe(2_001);
    expect(await feedCount()).toBe(2);
    expect(again.observations).toBe(3 * 2_001);
  });
});

describe("one run at a time", () => {
  const files = () => feeds({
    "cardmarket/history-a.ndjson": historyLines(300),
    "cardmarket/2030-01-01.ndjson": cards.slice(0, 40).map((c) => j({ product: `card:${c}`, date: day(-1), language: "en", printing: "HOLOFOIL", trend: 5 })),
    "ebay/2030-01-01.ndjson": cards.slice(0, 40).map((c) => j({ product: `card:${c}`, date: day(-1), grade: null, median_usd: 7, sold_count: 2 })),
  });

  it("two runs at once apply each file once: the second waits, then finds the files applied", async () => {
    const dir = files();
    const [pa, pb] = [recording(), recording()];
    const [a, b] = await Promise.all([refreshPrices(dir, pa), refreshPrices(dir, pb)]);
    expect(a.files).toHaveLength(3);
    for (const file of a.files.map((f) => f.file)) {
      const appliedBy = [a, b].filter((r) => r.files.find((f) => f.file === file)!.skipped !== true);
      expect(appliedBy, file).toHaveLength(1);
    }
    expect(b.files.every((f) => f.skipped)).toBe(true);
    expect(pb.notes.join("\n")).toMatch(/another refresh-prices run is applying feed files: waiting/);
    expect(a.observations + b.observations).toBe(300 * 3 + 40 + 40);
    expect(await feedCount()).toBe(3);
  });

  it("a run in another process holding the lock makes this one wait until it lets go", async () => {
    const other = new pg.Client({ connectionString: dbUrl(DB) });
    await other.connect();
    await other.query("select pg_advisory_lock($1)", [PRICE_REFRESH_LOCK]);
    const p = recording();
    let done = false;
    const run = refreshPrices(files(), p).finally(() => (done = true));
    try {
      await new Promise((r) => setTimeout(r, 1_000));
      expect(done).toBe(false);
      expect(p.notes.join("\n")).toMatch(/waiting for it to finish/);
      expect(await feedCount()).toBe(0);
    } finally {
      await other.query("select pg_advisory_unlock($1)", [PRICE_REFRESH_LOCK]);
      await other.end();
    }
    const r = await run;
    expect(r.files.filter((f) => !f.skipped)).toHaveLength(3);
    expect(await feedCount()).toBe(3);
  });
});
