import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import autocannon from "autocannon";
import { buildIfStale } from "../scripts/build-if-stale";
import { ensureDatabase } from "../tests/helpers/db";

// `npm run bench`: the figures of the issues, measured in one run on this machine. The load
// generator shares the cores with the server, so HTTP figures are reported as ratios to a
// bare Next.js route measured in the same run.

const DB = process.env.BENCH_DB ?? "pokeprice_bench";
const PORT = Number(process.env.BENCH_PORT ?? 3199);
const only = process.argv.slice(2).filter((a) => !a.startsWith("-"));
const wants = (part: string) => !only.length || only.includes(part);
const results: Record<string, unknown> = { at: new Date().toISOString() };

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const ms = (n: number) => `${n.toFixed(2)} ms`;

async function benchImport(url: string) {
  const { refreshCatalog } = await import("@/lib/catalog/import");
  const { closeDb } = await import("@/lib/db/client");
  const source = path.resolve(process.env.CATALOG_DIR ?? "../shared/data/catalog");
  const first = await refreshCatalog(source);
  if (!first.ok) throw new Error(first.error);
  const second = await refreshCatalog(source);
  if (!second.ok) throw new Error(second.error);
  // Not timed: leave no autovacuum of the fresh tables running into the HTTP rounds.
  const { rows } = await import("@/lib/db/client");
  const { sql } = await import("drizzle-orm");
  await rows(sql`vacuum analyze`);
  await closeDb();
  results.import = { database: url.replace(/\/\/[^@]*@/, "//"), first_s: first.seconds, unchanged_s: second.seconds, change_rows_second: second.changes };
  console.log(`\nImport of the full catalogue into PostgreSQL (target < 60 s, unchanged re-run < 20 s)`);
  console.log(`  first run     ${first.seconds.toFixed(1)} s (${first.changes} change rows)`);
  console.log(`  unchanged run ${second.seconds.toFixed(1)} s (${second.changes} change rows)`);
}

async function benchQueries() {
  // Every iteration must reach PostgreSQL: the response cache would answer repeats itself.
  const previous = process.env.RESPONSE_CACHE_MB;
  process.env.RESPONSE_CACHE_MB = "0";
  const { get } = await import("../tests/helpers/api");
  const queries = ["name:char*", "set.region:JP types:fire", "hp:[100 TO *]", "name:charizard", "artist:sugimori rarity:\"rare holo\""];
  const out: Record<string, unknown> = {};
  console.log(`\nq searches over all cards, server-side through the route handler, response cache off, limit 50 (target p95 < 25 ms)`);
  for (const q of queries) {
    const url = `/v1/cards?q=${encodeURIComponent(q)}&limit=50`;
    for (let i = 0; i < 20; i++) await (await get(url)).arrayBuffer();
    const times: number[] = [];
    for (let i = 0; i < 200; i++) {
      const t = performance.now();
      const res = await get(url);
      await res.arrayBuffer();
      times.push(performance.now() - t);
      if (res.status !== 200) throw new Error(`${url} → ${res.status}`);
    }
    times.sort((a, b) => a - b);
    out[q] = { p50_ms: pct(times, 50), p95_ms: pct(times, 95), p99_ms: pct(times, 99) };
    console.log(`  ${q.padEnd(38)} p50 ${ms(pct(times, 50))}  p95 ${ms(pct(times, 95))}`);
  }
  const { closeDb } = await import("@/lib/db/client");
  await closeDb();
  if (previous === undefined) delete process.env.RESPONSE_CACHE_MB;
  else process.env.RESPONSE_CACHE_MB = previous;
  results.queries = out;
}

/**
 * Growth keys of distinct accounts in the bench database (no card allowance, 80 requests per
 * second each). Rate is per account, so the load rotates over enough of them that the meter
 * decides and charges every request instead of refusing most of them.
 */
async function benchKeys(n = 30): Promise<string[]> {
  const { makeAccount } = await import("../tests/helpers/accounts");
  return Promise.all(Array.from({ length: n }, async () => (await makeAccount({ plan: "growth", confirmed: true })).key));
}

const REDIS_URL = process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379";

async function redisCommands(): Promise<number> {
  const { default: Redis } = await import("ioredis");
  const r = new Redis(REDIS_URL);
  const info = await r.info("commandstats");
  await r.quit();
  // Commands a script runs are counted too; the client's own calls are the script calls.
  let n = 0;
  for (const m of info.matchAll(/cmdstat_(\w+):calls=(\d+)/g)) if (/^eval(sha)?(_ro)?$/.test(m[1]!)) n += Number(m[2]);
  return n;
}

/**
 * The meter's own cost, in process (no HTTP noise): the same card route with a growth key,
 * unmetered then metered against Redis, and the Redis commands each metered request sends.
 */
async function benchMeter() {
  process.env.REDIS_URL = REDIS_URL;
  process.env.RESPONSE_CACHE_MB = "64";
  // Earlier parts of the run opened the in-process meter; this part measures the Redis one.
  await (await import("@/lib/meter/driver")).closeMeter();
  const keys = await benchKeys();
  const { get } = await import("../tests/helpers/api");
  const { flushLedger } = await import("@/lib/meter/ledger");
  const url = "/v1/cards/base1-4";
  const run = async (n: number) => {
    const times: number[] = [];
    for (let i = 0; i < n; i++) {
      const t = performance.now();
      // Runs of 50 calls per account, as one busy client sends them; burst 160 absorbs a run.
      const res = await get(url, { "x-api-key": keys[Math.floor(i / 50) % keys.length]! });
      await res.arrayBuffer();
      times.push(performance.now() - t);
      if (res.status !== 200) throw new Error(`${url} → ${res.status}`);
    }
    return times.sort((a, b) => a - b);
  };
  const N = 3000;
  process.env.BENCH_UNMETERED = "1";
  await run(300);
  const off = await run(N);
  delete process.env.BENCH_UNMETERED;
  await run(300);
  const before = await redisCommands();
  const on = await run(N);
  await new Promise((r) => setTimeout(r, 50)); // the last batched settle
  const commands = ((await redisCommands()) - before) / N;
  await flushLedger();
  results.meter = {
    unmetered: { p50_ms: pct(off, 50), p95_ms: pct(off, 95) },
    metered: { p50_ms: pct(on, 50), p95_ms: pct(on, 95) },
    added_p50_ms: pct(on, 50) - pct(off, 50),
    redis_commands_per_request: commands,
  };
  console.log(`\nThe meter's cost: GET ${url}, growth key, response cache on, ${N} sequential requests in process (target < 1 ms added at p50)`);
  console.log(`  unmetered  p50 ${ms(pct(off, 50))}  p95 ${ms(pct(off, 95))}`);
  console.log(`  metered    p50 ${ms(pct(on, 50))}  p95 ${ms(pct(on, 95))}   added at p50: ${ms(pct(on, 50) - pct(off, 50))}`);
  console.log(`  Redis calls (script runs) per request: ${commands.toFixed(2)}: the acquire on the request's path, the settles batched after the answers`);
  const { closeDb } = await import("@/lib/db/client");
  const { closeMeter } = await import("@/lib/meter/driver");
  await closeMeter();
  await closeDb();
  delete process.env.REDIS_URL;
}

async function waitFor(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 120; i++) {
    if (child.exitCode !== null) throw new Error("server exited");
    try {
      if ((await fetch(url)).ok) return;
    } catch { /* not up yet */ }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`server did not answer ${url}`);
}

let apiKeys: string[] = [];
let serverPid: number | undefined;

/**
 * CPU the server process has used, in µs (Linux /proc; undefined elsewhere). Per request it is
 * a steadier figure than req/s on a machine whose neighbours take cores at random.
 */
function serverCpuUs(): number | undefined {
  try {
    const f = readFileSync(`/proc/${serverPid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(f[11]) + Number(f[12])) * (1e6 / 100);
  } catch {
    return undefined;
  }
}

async function load(name: string, url: string, seconds = Number(process.env.BENCH_SECONDS ?? 10)) {
  const u = new URL(url);
  const cpu0 = serverCpuUs();
  const r = await autocannon({
    url: u.origin, connections: 8, duration: seconds, pipelining: 1,
    requests: apiKeys.map((k) => ({ method: "GET", path: u.pathname + u.search, headers: { "x-api-key": k } })),
  });
  if (r.non2xx || r.errors) throw new Error(`${name}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  const cpu1 = serverCpuUs();
  const cpuUs = cpu0 !== undefined && cpu1 !== undefined ? (cpu1 - cpu0) / r.requests.total : Number.NaN;
  return { name, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, cpu_us_per_request: cpuUs };
}

async function serve(url: string, extraEnv: Record<string, string>) {
  const env = { ...process.env, DATABASE_URL: url, BENCH_ROUTES: "1", NEXT_TELEMETRY_DISABLED: "1", PORT: String(PORT), ...extraEnv };
  if (await fetch(`http://127.0.0.1:${PORT}/`).then(() => true, () => false)) throw new Error(`port ${PORT} is already in use`);
  // Its own process group, so stopping it stops next-server's children too.
  const child = spawn(process.execPath, [path.resolve("node_modules/next/dist/bin/next"), "start", "-p", String(PORT)], {
    env, stdio: ["ignore", "ignore", "inherit"], detached: true,
  });
  await waitFor(`http://127.0.0.1:${PORT}/v1/health`, child);
  serverPid = child.pid;
  return {
    base: `http://127.0.0.1:${PORT}`,
    stop: async () => {
      process.kill(-child.pid!, "SIGTERM");
      await new Promise((r) => child.once("exit", r));
    },
  };
}

/** One server, one sequence: bare, the routes, bare again; ratios to the mean of the two bares. */
async function httpRound(url: string, label: string, extraEnv: Record<string, string>) {
  const server = await serve(url, { REDIS_URL, ...extraEnv });
  try {
    const { base } = server;
    const routes = [
      ["GET /v1/cards/{id}", "/v1/cards/base1-4"],
      ["GET /v1/sets/{code}/cards?limit=250", "/v1/sets/swsh9/cards?limit=250"],
    ] as const;
    // JIT, connection pools and prepared statements warm up under load before anything counts.
    for (const warm of ["/api/bench", ...routes.map((r) => r[1])]) await load("warm-up", base + warm, 3);
    const runs = [await load("bare route (constant JSON)", `${base}/api/bench`)];
    for (const [name, p] of routes) runs.push(await load(name, base + p));
    runs.push(await load("bare route again", `${base}/api/bench`));
    const bare = (runs[0]!.rps + runs[runs.length - 1]!.rps) / 2;
    const bareP99 = Math.max(runs[0]!.p99, runs[runs.length - 1]!.p99);
    const bareCpu = (runs[0]!.cpu_us_per_request + runs[runs.length - 1]!.cpu_us_per_request) / 2;
    console.log(`\n${label}`);
    for (const r of runs) {
      console.log(`  ${r.name.padEnd(38)} ${r.rps.toFixed(0).padStart(6)} req/s  p50 ${String(r.p50).padStart(3)} ms  p99 ${String(r.p99).padStart(4)} ms  ratio ${(r.rps / bare).toFixed(2)}  p99 ×${(r.p99 / bareP99).toFixed(1)}  server CPU ${r.cpu_us_per_request.toFixed(0).padStart(5)} µs/req (bare/route ${(bareCpu / r.cpu_us_per_request).toFixed(2)})`);
    }
    return { bare_rps: bare, bare_cpu_us: bareCpu, runs: runs.map((r) => ({ ...r, ratio_to_bare: r.rps / bare, cpu_ratio_bare_to_route: bareCpu / r.cpu_us_per_request })) };
  } finally {
    await server.stop();
  }
}

async function benchHttp(url: string) {
  buildIfStale();
  apiKeys = await benchKeys();
  const { closeDb } = await import("@/lib/db/client");
  await closeDb();
  const secs = process.env.BENCH_SECONDS ?? 10;
  console.log(`\nHTTP under autocannon: 8 connections, ${secs} s per figure, next start, ${apiKeys.length} growth keys metered on Redis; ratios within each round`);
  console.log(`(targets: card route ≥ 0.70 of bare req/s, p99 ≤ 2× bare; server CPU per request shown as bare/route, the same ratio without the load generator's noise)`);
  results.http = {
    cached: await httpRound(url, "Round 1: response cache on (the default, 64 MB)", { RESPONSE_CACHE_MB: "64" }),
    uncached: await httpRound(url, "Round 2: response cache off (RESPONSE_CACHE_MB=0): every request queries PostgreSQL", { RESPONSE_CACHE_MB: "0" }),
  };
}

/**
 * Issue 4: a demo year for the whole catalogue (generation, ingest, size on disk), refresh-index
 * over all of it, and the price routes server-side with the response cache off.
 */
async function benchPrices() {
  const { rows, closeDb } = await import("@/lib/db/client");
  const { sql } = await import("drizzle-orm");
  const { runDemoMarket } = await import("@/lib/prices/demo-market");
  const { progress } = await import("@/lib/jobs/progress");
  const { mkdtempSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const quiet = () => progress("bench", { quiet: true });
  await rows(sql`truncate price_series, price_months, price_docs, price_feeds, fx_rates, index_moves`);
  const feeds = mkdtempSync(path.join(tmpdir(), "bench-feeds-"));
  const { demo, prices: ingest, index } = await runDemoMarket({ days: 365, feedsDir: feeds, progress: quiet });
  const ingestS = ingest.seconds;
  const indexS = index.seconds;
  await rows(sql`vacuum analyze price_series, price_months, price_docs, index_moves`);
  const [size] = await rows<{ months: number; series: number; docs: number }>(sql`
    select pg_total_relation_size('price_months')::float8 as months, pg_total_relation_size('price_series')::float8 as series,
      pg_total_relation_size('price_docs')::float8 as docs`);
  const [pts] = await rows<{ n: number }>(sql`select count(*)::float8 as n from price_series`);
  const points = demo.points + ingest.observations;
  const bytes = Number(size!.months) + Number(size!.series) + Number(size!.docs);
  results.prices_demo = {
    products: demo.products, series: pts!.n, points, days: demo.days, generate_s: demo.seconds, ingest_s: ingestS,
    feed_lines_today: demo.feed_lines, history_lines: demo.history_lines, history_file_bytes: demo.history_bytes, refresh_index_s: indexS, months_bytes: Number(size!.months), series_bytes: Number(size!.series),
    docs_bytes: Number(size!.docs),
    bytes_per_point: bytes / points, months_bytes_per_point: Number(size!.months) / points,
  };
  console.log(`\nDemo year over the whole catalogue (target < 10 bytes per stored point; refresh-index < 5 min)`);
  console.log(`  ${demo.products} products, ${pts!.n} series, ${points.toLocaleString("en")} points over ${demo.days} days`);
  console.log(`  generation ${demo.seconds.toFixed(1)} s: ${demo.history_lines} history lines (${(demo.history_bytes / 1e6).toFixed(0)} MB gzip), ${demo.feed_lines} lines for today, the index's past days`);
  console.log(`  refresh-prices applied ${ingest.observations.toLocaleString("en")} points from those files in ${ingestS.toFixed(1)} s`);
  console.log(`  on disk: history ${(Number(size!.months) / 1e6).toFixed(0)} MB + series ${(Number(size!.series) / 1e6).toFixed(0)} MB + documents ${(Number(size!.docs) / 1e6).toFixed(0)} MB = ${(bytes / points).toFixed(2)} bytes per point (history alone ${(Number(size!.months) / points).toFixed(2)})`);
  console.log(`  refresh-index over ${index.products} products: ${indexS.toFixed(1)} s (${index.moves} moves)`);
  await closeDb();
  await benchPriceRoutes();
}

async function benchPriceRoutes() {
  const { rows, closeDb } = await import("@/lib/db/client");
  const { sql } = await import("drizzle-orm");
  // The writes before leave the checkpointer and autovacuum busy on the same two cores: let them finish.
  await rows(sql`checkpoint`);
  for (let i = 0; i < 120; i++) {
    const [busy] = await rows<{ n: number }>(sql`select count(*)::int as n from pg_stat_activity where backend_type = 'autovacuum worker'`);
    if (!busy?.n) break;
    await new Promise((r) => setTimeout(r, 1000));
  }
  await new Promise((r) => setTimeout(r, 3000));
  const previous = process.env.RESPONSE_CACHE_MB;
  process.env.RESPONSE_CACHE_MB = "0";
  const { get } = await import("../tests/helpers/api");
  const ids = (await rows<{ id: string }>(sql`select product_id as id from price_series where product_kind = 'card' and source = 'INDEX'
    and locale is null group by product_id order by md5(product_id) limit 500`)).map((r) => r.id);
  const routes: [string, string, number][] = [
    ["history, 1 year daily", `/v1/cards/{id}/prices/history?window=1y`, 20],
    ["current prices of one card", `/v1/cards/{id}/prices`, 20],
    ["prices/current, 50 ids", `/v1/prices/current?ids={ids}`, 30],
    ["sets/{code}/cards limit=250 include=prices", `/v1/sets/swsh9/cards?limit=250&include=prices`, 60],
  ];
  const out: Record<string, unknown> = {};
  console.log(`\nPrice routes server-side through the route handler, response cache off (targets: history p95 < 20 ms, current 50 < 30 ms, 250 with prices < 60 ms)`);
  for (const [name, template, target] of routes) {
    const times: number[] = [];
    for (let i = 0; i < 220; i++) {
      const u = template.replace("{id}", ids[i % ids.length]!).replace("{ids}", Array.from({ length: 50 }, (_, k) => ids[(i * 50 + k) % ids.length]).join(","));
      const t0 = performance.now();
      const res = await get(u);
      await res.arrayBuffer();
      if (i >= 20) times.push(performance.now() - t0);
      if (res.status !== 200) throw new Error(`${u} → ${res.status}`);
    }
    times.sort((a, b) => a - b);
    out[name] = { p50_ms: pct(times, 50), p95_ms: pct(times, 95), target_p95_ms: target };
    console.log(`  ${name.padEnd(44)} p50 ${ms(pct(times, 50))}  p95 ${ms(pct(times, 95))}`);
  }
  // The same list with the default response cache (64 MB): what repeated pages cost.
  process.env.RESPONSE_CACHE_MB = "64";
  {
    const u = "/v1/sets/swsh9/cards?limit=250&include=prices";
    const times: number[] = [];
    for (let i = 0; i < 220; i++) {
      const t0 = performance.now();
      const res = await get(u);
      await res.arrayBuffer();
      if (i >= 20) times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    out["sets/{code}/cards limit=250 include=prices, response cache on"] = { p50_ms: pct(times, 50), p95_ms: pct(times, 95), target_p95_ms: 60 };
    console.log(`  ${"the same, default response cache (64 MB)".padEnd(44)} p50 ${ms(pct(times, 50))}  p95 ${ms(pct(times, 95))}`);
  }
  results.price_routes = out;
  await closeDb();
  if (previous === undefined) delete process.env.RESPONSE_CACHE_MB;
  else process.env.RESPONSE_CACHE_MB = previous;
}

async function main() {
  const url = await ensureDatabase(DB, { fresh: wants("import") });
  process.env.DATABASE_URL = url;
  if (wants("import")) await benchImport(url);
  if (wants("queries")) await benchQueries();
  if (wants("prices")) await benchPrices();
  else if (wants("price-routes")) await benchPriceRoutes();
  if (wants("meter")) await benchMeter();
  if (wants("http")) await benchHttp(url);
  mkdirSync("bench/results", { recursive: true });
  const file = `bench/results/${new Date().toISOString().replace(/[:.]/g, "-")}.json`;
  writeFileSync(file, JSON.stringify(results, null, 2));
  console.log(`\nwritten ${file}`);
}

main().then(() => process.exit(0), (err) => {
  console.error(err);
  process.exit(1);
});
