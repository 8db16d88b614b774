import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { refreshCatalog } from "@/lib/catalog/import";
import { closeDb } from "@/lib/db/client";
import { resetEnvForTests } from "@/lib/env";
import type { Progress } from "@/lib/jobs/progress";
import { generateDemo, PACED_FEED_LINES, pacedHistoryLines } from "@/lib/prices/demo";
import { runDemoMarket } from "@/lib/prices/demo-market";
import { refreshPrices } from "@/lib/prices/refresh";
import { refreshIndex } from "@/lib/prices/refresh-index";
import { ensureDatabase, query } from "../helpers/db";
import { feeds } from "../helpers/feeds";

// The embedded first start runs the demo market paced (lib/jobs/pace.ts): feed files in small
// parts, the index in batches of products, no statement over every product. Here, on
// PostgreSQL with the sample catalogue: the paced run writes the same data as the job's unpaced
// one, and the statements it sends are bounded (none names more products than a batch, none
// reads a price table whole), where the unpaced run's are not.

const DB = "pokeprice_demo_paced_test";
const SAMPLE = path.resolve(process.env.CATALOG_DIR ?? "../shared/data/catalog", "sample");
const DAYS = 365;
const BATCH = 7;
let previousUrl: string | undefined;
let products = new Set<string>();

const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => query<T>(text, params, DB);

type Statement = { stage: string; text: string; values: unknown[] };
let stage = "";
const stages = (job: string): Progress => {
  stage = job;
  return { phase() {}, tick() {}, note() {}, done() {} };
};

/** Every statement the app's connections send while `fn` runs, with the stage it belongs to. */
async function recorded<T>(fn: () => Promise<T>): Promise<{ result: T; statements: Statement[] }> {
  const statements: Statement[] = [];
  const original = pg.Client.prototype.query;
  const spy = vi.spyOn(pg.Client.prototype, "query").mockImplementation(function (this: pg.Client, ...args: any[]) {
    const [first, second] = args;
    const text = typeof first === "string" ? first : first?.text ?? "";
    const values = (typeof first === "object" && first?.values) || (Array.isArray(second) ? second : []);
    statements.push({ stage, text, values });
    return (original as any).apply(this, args);
  });
  try {
    return { result: await fn(), statements };
  } finally {
    spy.mockRestore();
  }
}

/** The products a statement names among its parameters (ids, or card:/sealed: references). */
function productsNamed(s: Statement): number {
  const named = new Set<string>();
  const visit = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(visit);
    else if (typeof v === "string") {
      const id = v.replace(/^(card|sealed):/, "");
      if (products.has(id)) named.add(id);
    }
  };
  s.values.forEach(visit);
  return named.size;
}

/** What the demo market leaves in the database, with series named by key rather than by id. */
async function snapshot() {
  const series = await sql<{ id: number; key_hash: string }>("select id, key_hash::text as key_hash from price_series");
  const keyOf = new Map(series.map((s) => [Number(s.id), s.key_hash]));
  const docs = (await sql<{ product_kind: string; product_id: string; doc: string }>("select product_kind, product_id, doc from price_docs order by 1, 2"))
    .map((d) => ({ ...d, doc: (JSON.parse(d.doc) as unknown[][]).map(([id, ...rest]) => [keyOf.get(Number(id)), ...rest]) }));
  return {
    series: await sql(`select key_hash::text, product_kind, product_id, source, variant, basis, currency, locale, condition, printing,
      grading_company, grading_score, provenance, recent::text, first_as_of::text, last_as_of::text from price_series order by key_hash`),
    months: await sql(`select s.key_hash::text, m.month, encode(m.amounts, 'hex') as amounts
      from price_months m join price_series s on s.id = m.series_id order by 1, 2`),
    docs,
    moves: await sql(`select "window", product_kind, product_id, from_date::text, from_eur, to_date::text, to_eur, change_pct
      from index_moves order by 1, 2, 3`),
    cards: await sql("select id, index_eur, last_price_at::text, trial_index_eur, trial_last_price_at::text from cards order by id"),
    sealed: await sql("select slug, index_eur, last_price_at::text, trial_index_eur, trial_last_price_at::text from sealed_products order by slug"),
    changes: await sql("select entity_id, count(*)::int as n from changes where kind = 'PRICE' group by 1 order by 1"),
    fx: await sql("select day::text, currency, per_eur from fx_rates order by 1, 2"),
  };
}

async function forgetPrices() {
  await sql("truncate price_series, price_months, price_docs, price_feeds, index_moves, fx_rates restart identity");
  await sql("delete from changes where kind = 'PRICE'");
  await sql("update cards set index_eur = null, last_price_at = null, trial_index_eur = null, trial_last_price_at = null");
  await sql("update sealed_products set index_eur = null, last_price_at = null, trial_index_eur = null, trial_last_price_at = null");
  await sql("delete from job_runs where job in ('refresh-prices', 'refresh-index')");
}

beforeAll(async () => {
  previousUrl = process.env.DATABASE_URL;
  await closeDb();
  process.env.DATABASE_URL = await ensureDatabase(DB, { fresh: true });
  resetEnvForTests();
  const res = await refreshCatalog(SAMPLE);
  expect(res.ok, res.error).toBe(true);
  const ids = await sql<{ id: string }>("select id from cards union all select slug from sealed_products");
  products = new Set(ids.map((r) => r.id));
}, 120_000);

afterAll(async () => {
  await closeDb();
  if (previousUrl === undefined) delete process.env.DATABASE_URL;
  else process.env.DATABASE_URL = previousUrl;
  resetEnvForTests();
});

describe("the demo market, paced", () => {
  let unpaced: { result: Awaited<ReturnType<typeof runDemoMarket>>; statements: Statement[] };
  let paced: { result: { index: Awaited<ReturnType<typeof refreshIndex>> }; statements: Statement[] };
  let before: Awaited<ReturnType<typeof snapshot>>;
  let after: Awaited<ReturnType<typeof snapshot>>;
  let pacedDir: string;

  beforeAll(async () => {
    unpaced = await recorded(() => runDemoMarket({ days: DAYS, feedsDir: feeds({}), progress: stages }));
    before = await snapshot();
    await forgetPrices();
    pacedDir = feeds({});
    // As runDemoMarket runs it with paced: true, with a batch of a few products so that the sample makes several.
    paced = await recorded(async () => {
      await generateDemo({ days: DAYS, feedsDir: pacedDir, paced: true }, stages("demo-prices"));
      await refreshPrices(pacedDir, stages("refresh-prices"), { docs: false, paced: true });
      return { index: await refreshIndex(stages("refresh-index"), { paced: true, batch: BATCH }) };
    });
    after = await snapshot();
  }, 300_000);

  it("writes the same series, history, documents, sort keys, moves and PRICE changes as unpaced", () => {
    expect(before.series.length).toBeGreaterThan(300);
    expect(before.months.length).toBeGreaterThan(before.series.length * 10);
    expect(before.moves.length).toBeGreaterThan(0);
    expect(after.series).toEqual(before.series);
    expect(after.months).toEqual(before.months);
    expect(after.docs).toEqual(before.docs);
    expect(after.cards).toEqual(before.cards);
    expect(after.sealed).toEqual(before.sealed);
    expect(after.moves).toEqual(before.moves);
    expect(after.changes).toEqual(before.changes);
    expect(after.fx).toEqual(before.fx);
    const { seconds: _a, ...a } = unpaced.result.index;
    const { seconds: _b, ...b } = paced.result.index;
    expect(b).toEqual(a);
  });

  it("the trial's index: where it differs from the catalogue's, and the migration's backfill gives what refresh-index wrote", async () => {
    const cards = after.cards as { index_eur: number | null; trial_index_eur: number | null }[];
    // The demo prices a Western card in English and a Japanese one in Japanese only (lib/prices/demo.ts).
    expect(cards.filter((c) => c.index_eur !== null && c.trial_index_eur === null).length).toBeGreaterThan(0);
    expect(cards.filter((c) => c.trial_index_eur !== null && c.trial_index_eur === c.index_eur).length).toBeGreaterThan(0);
    await sql("update cards set trial_index_eur = null, trial_last_price_at = null");
    await sql("update sealed_products set trial_index_eur = null, trial_last_price_at = null");
    const migration = readFileSync(path.resolve("drizzle/0019_trial_index.sql"), "utf8").split("--> statement-breakpoint");
    const backfill = migration.filter((st) => /\bUPDATE\b/.test(st));
    expect(backfill.length).toBe(2);
    for (const st of backfill) await sql(st);
    const again = await snapshot();
    expect(again.cards).toEqual(after.cards);
    expect(again.sealed).toEqual(after.sealed);
  });

  it("writes its feed files in parts small enough to apply in a fraction of a second each", () => {
    let parts = 0;
    for (const source of readdirSync(pacedDir).filter((d) => d !== "fx")) {
      for (const name of readdirSync(path.join(pacedDir, source))) {
        const lines = gunzipSync(readFileSync(path.join(pacedDir, source, name))).toString().trim().split("\n").length;
        expect(lines, `${source}/${name}`).toBeLessThanOrEqual(name.startsWith("history-") ? pacedHistoryLines(DAYS) : PACED_FEED_LINES);
        parts++;
      }
    }
    expect(parts).toBeGreaterThan(readdirSync(pacedDir).length);
  });

  it("refresh-index names at most a batch of products a statement and reads no price table whole", () => {
    const index = paced.statements.filter((s) => s.stage === "refresh-index");
    expect(index.length).toBeGreaterThan(10);
    // The movers' ranking is replaced after the batches, 500 rows a statement.
    const moves = index.filter((s) => /insert into index_moves/.test(s.text));
    expect(moves.length).toBeGreaterThan(0);
    for (const s of moves) expect((s.values[0] as unknown[]).length).toBeLessThanOrEqual(500);
    const wide = index.filter((s) => !moves.includes(s) && productsNamed(s) > BATCH);
    expect(wide.map((s) => `${productsNamed(s)}: ${s.text.replace(/\s+/g, " ").slice(0, 80)}`)).toEqual([]);
    // A select without parameters reads a table whole (the exchange rates are a few hundred rows).
    const whole = index.filter((s) => /^\s*select/i.test(s.text) && !s.values.length && !/fx_rates|pg_/i.test(s.text));
    expect(whole.map((s) => s.text.slice(0, 120))).toEqual([]);
    // Unpaced, one statement reads every product's figures and others name them all.
    const job = unpaced.statements.filter((s) => s.stage === "refresh-index");
    expect(Math.max(...job.map(productsNamed))).toBeGreaterThan(BATCH * 5);
    expect(job.some((s) => /^\s*select/i.test(s.text) && !s.values.length && /price_series/.test(s.text))).toBe(true);
  });

  it("refresh-prices writes its PRICE changes in transactions of at most 1,000 products", () => {
    const prices = paced.statements.filter((s) => s.stage === "refresh-prices" && /insert into changes/.test(s.text));
    expect(prices.length).toBeGreaterThan(0);
    expect(Math.max(...prices.map(productsNamed))).toBeLessThanOrEqual(1000);
  });
});
