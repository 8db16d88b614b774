import { execSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import autocannon, { BENCH_KEYS } from "./autocannon";
import { buildIfStale } from "../scripts/build-if-stale";
import { buildServerIfStale } from "../scripts/build-server";
import { ensureDatabase } from "../tests/helpers/db";

// `npm run bench`: the figures of the issues, measured in one run on this machine. The load
// generator shares the cores with the server, so HTTP figures are reported as ratios to a
// bare node:http server measured in the same run.

const DB = process.env.BENCH_DB ?? "pokeprice_bench";
const PORT = Number(process.env.BENCH_PORT ?? 3199);
const APP_DIR = path.resolve(process.env.BENCH_APP_DIR ?? ".");
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
  for (let i = 0; i < 240; i++) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode})`);
    try {
      if ((await fetch(url)).ok) return;
    } catch { /* not up yet */ }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`server did not answer ${url}`);
}

type Proc = { comm: string; pgid: number; us: number };

/** Every process's name, process group and CPU so far (µs), by process id, from Linux /proc; undefined elsewhere. */
function readProcs(): Map<string, Proc> | undefined {
  try {
    const out = new Map<string, Proc>();
    for (const pid of readdirSync("/proc")) {
      if (!/^\d+$/.test(pid)) continue;
      let stat: string;
      try {
        stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      } catch {
        continue;
      }
      const f = stat.slice(stat.lastIndexOf(") ") + 2).split(" ");
      out.set(pid, { comm: stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")), pgid: Number(f[2]), us: (Number(f[11]) + Number(f[12])) * (1e6 / 100) });
    }
    return out;
  } catch {
    return undefined;
  }
}

/**
 * CPU a server has used, in µs: its process group's (next start runs its server in a child).
 * Per request it is a steadier figure than req/s on a machine whose neighbours take cores at random.
 */
function groupCpuUs(procs: Map<string, Proc> | undefined, pgid: number): number | undefined {
  if (!procs) return undefined;
  let us = 0;
  for (const p of procs.values()) if (p.pgid === pgid) us += p.us;
  return us;
}

/**
 * CPU the machine's Redis or PostgreSQL spent between two readings: what a server's requests cost
 * them shows beside its own (the load generator and all of them share the cores). A process that
 * started in between counts whole, one that ended is lost.
 */
function serviceCpuUs(before: Map<string, Proc> | undefined, after: Map<string, Proc> | undefined, name: "redis-server" | "postgres"): number {
  if (!before || !after) return Number.NaN;
  let us = 0;
  for (const [pid, p] of after) if (p.comm.startsWith(name)) us += p.us - (before.get(pid)?.us ?? 0);
  return us;
}

type Load = {
  rps: number; p50: number; p99: number; cpu_us_per_request: number; requests: number;
  /** The machine's Redis and PostgreSQL, per request of this load (NaN where /proc is not there). */
  redis_us_per_request: number; postgres_us_per_request: number;
};

/**
 * One figure: autocannon on `path` for `seconds`. Latencies are taken from each response's own
 * duration (fractions of a millisecond), not from autocannon's histogram, which keeps whole
 * milliseconds: a difference of a few tenths (the request log's) would read as 0 or 1 ms.
 */
async function load(base: string, path: string, keys: string[], pgid: number, seconds: number): Promise<Load> {
  const procs0 = readProcs();
  const times: number[] = [];
  const statuses = new Map<number, number>();
  const r = await new Promise<autocannon.Result>((resolve, reject) => {
    const inst = autocannon({
      url: base, connections: 8, duration: seconds, pipelining: 1,
      // As HTTP clients ask by default (fetch, curl --compressed, browsers): a large answer goes out gzip-compressed.
      requests: keys.length
        ? keys.map((k) => ({ method: "GET", path, headers: { "x-api-key": k, "accept-encoding": "gzip" } }))
        : [{ method: "GET", path, headers: { "accept-encoding": "gzip" } }],
    }, (err, res) => (err ? reject(err) : resolve(res)));
    inst.on("response", (_client: unknown, status: number, _bytes: number, duration: number) => {
      if (status < 300) times.push(duration);
      else statuses.set(status, (statuses.get(status) ?? 0) + 1);
    });
  });
  if (r.non2xx || r.errors || r.timeouts) {
    const by = [...statuses].map(([s, n]) => `${n} × ${s}`).join(", ");
    throw new Error(`${base}${path}: ${r.non2xx} non-2xx (${by}), ${r.errors} errors, ${r.timeouts} timeouts`);
  }
  const procs1 = readProcs();
  const n = r.requests.total;
  const cpu0 = groupCpuUs(procs0, pgid);
  const cpu1 = groupCpuUs(procs1, pgid);
  const cpu = cpu0 !== undefined && cpu1 !== undefined ? (cpu1 - cpu0) / n : Number.NaN;
  times.sort((a, b) => a - b);
  return {
    rps: n / (r.duration || seconds), p50: pct(times, 50), p99: pct(times, 99), cpu_us_per_request: cpu, requests: n,
    redis_us_per_request: serviceCpuUs(procs0, procs1, "redis-server") / n, postgres_us_per_request: serviceCpuUs(procs0, procs1, "postgres") / n,
  };
}

type Server = { base: string; pgid: number; stop: () => Promise<void> };

/** Linux's CPU pressure (share of the last minute some task waited for a core), or undefined. */
function cpuPressure(): number | undefined {
  try {
    return Number(/avg60=([\d.]+)/.exec(readFileSync("/proc/pressure/cpu", "utf8"))?.[1]);
  } catch {
    return undefined;
  }
}

/** A server on `port` in its own process group (stopping it stops its children), once it answers `ready`. */
async function serve(port: number, args: string[], env: Record<string, string>, ready: string): Promise<Server> {
  const base = `http://127.0.0.1:${port}`;
  if (await fetch(base).then(() => true, () => false)) throw new Error(`port ${port} is already in use`);
  const child = spawn(process.execPath, args, { cwd: APP_DIR, env: { ...process.env, ...env, PORT: String(port) }, stdio: ["ignore", "ignore", "inherit"], detached: true });
  try {
    await waitFor(base + ready, child);
  } catch (err) {
    if (child.exitCode === null) process.kill(-child.pid!, "SIGKILL");
    throw err;
  }
  return {
    base, pgid: child.pid!,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      process.kill(-child.pid!, "SIGTERM");
      await exited;
    },
  };
}

// The yardstick: node:http answering constant JSON, nothing else. What any server on this
// machine, with the load generator beside it, can do at most.
const BARE = `require("node:http").createServer((req, res) => {
  req.resume();
  res.writeHead(200, { "content-type": "application/json; charset=utf-8" });
  res.end('{"data":{"id":"bench","name":"constant","ok":true}}');
}).listen(Number(process.env.PORT), "127.0.0.1");`;

// The floor of any metered answer: the same constant JSON, after one round trip to Redis a
// request (a script that returns 1, calls of one turn written together as the app's meter does).
// A metered route decides on Redis in one atomic script a request (the issue measures it so,
// README's meter section says why), so nothing metered can pass this row on the same machine.
const BARE_REDIS = `const redis = new (require("ioredis"))(process.env.REDIS_URL, { enableAutoPipelining: true });
redis.script("load", "return 1").then((sha) => require("node:http").createServer((req, res) => {
  req.resume();
  redis.evalsha(sha, 0).then(() => {
    res.writeHead(200, { "content-type": "application/json; charset=utf-8" });
    res.end('{"data":{"id":"bench","name":"constant","ok":true}}');
  }, () => { res.writeHead(503); res.end(); });
}).listen(Number(process.env.PORT), "127.0.0.1"));`;

// The card route's own answer (its status, every header but those node writes itself, its body
// as sent: gzip when the app compresses it, which it does from GZIP_MIN_BYTES), replayed by bare
// node:http: what the answer's size alone costs the yardstick, so that the card route's ratio
// can be read against a bare server sending the same bytes.
const BARE_SAME_BYTES = `const a = JSON.parse(require("node:fs").readFileSync(process.env.ANSWER_FILE, "utf8"));
const body = Buffer.from(a.body, "base64");
require("node:http").createServer((req, res) => {
  req.resume();
  res.writeHead(a.status, a.headers);
  res.end(body);
}).listen(Number(process.env.PORT), "127.0.0.1");`;

/** The card route's answer as autocannon gets it (gzip asked for), bytes untouched, for BARE_SAME_BYTES. */
async function capturedAnswer(base: string, key: string, file: string): Promise<number> {
  const { get } = await import("node:http");
  return new Promise((resolve, reject) => {
    get(base + CARD_PATH, { headers: { "x-api-key": key, "accept-encoding": "gzip" } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const body = Buffer.concat(chunks);
        const headers: Record<string, string | string[]> = {};
        for (const [k, v] of Object.entries(res.headers)) if (v !== undefined && !["date", "connection", "keep-alive", "transfer-encoding"].includes(k)) headers[k] = v;
        if (res.statusCode !== 200) return reject(new Error(`${CARD_PATH}: ${res.statusCode}`));
        writeFileSync(file, JSON.stringify({ status: res.statusCode, headers, body: body.toString("base64") }));
        resolve(body.length + Object.entries(headers).reduce((n, [k, v]) => n + k.length + String(v).length + 4, 0));
      });
    }).on("error", reject);
  });
}

// The set page: 250 cards of Paldea Evolved (sv2, 279 cards) in one answer.
const CARD_PATH = "/v1/cards/base1-4";
const SET_PAGE_PATH = "/v1/sets/sv2/cards?limit=250";

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** The catalogue in the bench database: `npm run bench http` alone on a new database imports it first. */
async function ensureCatalogue(): Promise<void> {
  const { rows, closeDb } = await import("@/lib/db/client");
  const { sql } = await import("drizzle-orm");
  const [c] = await rows<{ n: number }>(sql`select count(*)::int as n from cards where deleted_at is null`);
  if (!c?.n) {
    console.log(`\nthe bench database has no catalogue: importing it (not timed)`);
    const { refreshCatalog } = await import("@/lib/catalog/import");
    const res = await refreshCatalog(path.resolve(process.env.CATALOG_DIR ?? "../shared/data/catalog"));
    if (!res.ok) throw new Error(res.error);
    await rows(sql`vacuum analyze`);
  }
  await closeDb();
}

/**
 * The request log's size on disk per row, in the bench database, after the servers wrote
 * theirs (each server's drain writes what it still holds before it exits).
 */
type LogBytes = Record<"rows" | "total_bytes" | "table_bytes" | "heap_bytes" | "index_bytes" | "total_per_row" | "table_per_row" | "heap_per_row" | "indexes_per_row", number>;

async function requestLogBytes(): Promise<LogBytes> {
  const { rows, closeDb } = await import("@/lib/db/client");
  const { sql } = await import("drizzle-orm");
  const [r] = await rows<{ n: number; total: number; table: number; heap: number; indexes: number }>(sql`
    select (select count(*) from request_log)::float8 as n, pg_total_relation_size('request_log')::float8 as total,
      pg_table_size('request_log')::float8 as table, pg_relation_size('request_log')::float8 as heap,
      pg_indexes_size('request_log')::float8 as indexes`);
  await closeDb();
  const n = Number(r!.n);
  return {
    rows: n, total_bytes: Number(r!.total), table_bytes: Number(r!.table), heap_bytes: Number(r!.heap), index_bytes: Number(r!.indexes),
    total_per_row: Number(r!.total) / n, table_per_row: Number(r!.table) / n, heap_per_row: Number(r!.heap) / n, indexes_per_row: Number(r!.indexes) / n,
  };
}

/**
 * Issue 13: the metered card route served three ways, in one run: bare node:http answering
 * constant JSON (the yardstick), the custom server as `npm start` runs it (server/app.ts,
 * NODE_ENV=production, /v1 through the API's own dispatcher), and `next start` (Next's router
 * serving the app/v1 mount); the custom server once more with the request log off, for the
 * log's cost on the path; and the set page of 250 cards through the custom server. All servers
 * run side by side (idle but for the one under load), and the figures are taken in rounds
 * (BENCH_ROUNDS, 3), each round measuring bare node:http, then every server's routes in a
 * rotating order, so that a neighbour's burst on this shared machine does not land on one
 * server only. Each figure is the median over the rounds; ratios are to bare node:http's median.
 * BENCH_LEAN=1 adds server/lean.ts (the /v1 dispatcher alone).
 */
async function benchHttp(url: string) {
  // BENCH_APP_DIR: the servers of another checkout (e.g. a worktree of an earlier commit, built
  // there with `next build`), measured by this benchmark against this database.
  if (APP_DIR === process.cwd()) buildIfStale();
  else {
    const changed = execSync("git status --short --untracked-files=no", { cwd: APP_DIR }).toString().trimEnd().split("\n").filter(Boolean).map((l) => l.slice(3));
    console.log(`\nservers from ${APP_DIR} (at ${execSync("git rev-parse --short HEAD", { cwd: APP_DIR }).toString().trim()}${changed.length ? `, with local changes to ${changed.join(", ")}` : ""}), as built there`);
  }
  await ensureCatalogue();
  const { makeAccount } = await import("../tests/helpers/accounts");
  const keys = await Promise.all(Array.from({ length: BENCH_KEYS }, async () => (await makeAccount({ plan: "enterprise", confirmed: true })).key));
  const { closeDb } = await import("@/lib/db/client");
  await closeDb();
  const secs = Number(process.env.BENCH_SECONDS ?? 10);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  const env = {
    DATABASE_URL: url, REDIS_URL, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1", RESPONSE_CACHE_MB: "64",
    VISION_INDEX_ON_START: "0", DEMO_PRICES: "0", STRIPE_FAKE: "0", BENCH_ROUTES: "1",
  };
  // The servers as `npm start` runs them, compiled (scripts/build-server.ts); another checkout's
  // own bundle when it has one, else its sources through tsx (commits before the bundle).
  const bundled = (name: "app" | "lean") => {
    if (APP_DIR === process.cwd()) return [buildServerIfStale(name)];
    const file = path.join(APP_DIR, "dist", `${name}.mjs`);
    return existsSync(file) ? [file] : ["--import", "tsx", `server/${name}.ts`];
  };
  const app = bundled("app");
  type Def = { id: string; label: string; args: (port: number) => string[]; env?: Record<string, string>; routes: [string, string, string, boolean][] };
  const card: [string, string, string, boolean] = ["card", `GET ${CARD_PATH}`, CARD_PATH, true];
  const defs: Def[] = [
    {
      id: "app", label: "custom server (server/app.ts as npm start runs it)", args: () => app,
      routes: [card, ["set_page", `GET ${SET_PAGE_PATH}`, SET_PAGE_PATH, true]],
    },
    // REQUEST_LOG=off is honoured in production only in a server the benchmark started (BENCH_ROUTES=1).
    { id: "app_nolog", label: "custom server, REQUEST_LOG=off", args: () => app, env: { REQUEST_LOG: "off" }, routes: [card] },
    {
      id: "next", label: "next start (Next's router, the app/v1 mount)", args: (port) => [path.resolve(APP_DIR, "node_modules/next/dist/bin/next"), "start", "-p", String(port)],
      // Next.js's own cost, for reference: a route handler answering constant JSON.
      routes: [card, ["next_bare", "GET /api/bench (bare Next route, constant JSON)", "/api/bench", false]],
    },
    ...(process.env.BENCH_LEAN === "1" ? [{ id: "lean", label: "lean server (server/lean.ts)", args: () => bundled("lean"), routes: [card] }] : []),
  ];
  console.log(`\nHTTP under autocannon, 8 connections, ${keys.length} enterprise keys metered on Redis, response cache on (64 MB);`);
  console.log(`${rounds} rounds of ${secs} s per figure after a warm-up, medians over the rounds; latencies from each response's own duration`);
  console.log(`(targets: the custom server's card route ≥ 0.17 of bare node:http, p99 ≤ 10 ms; set page of 250 ≥ 0.5 of the card route)`);

  const servers: Record<string, Server> = {};
  const pressureBefore = cpuPressure();
  let finished = false;
  try {
    servers.bare = await serve(PORT, ["-e", BARE], {}, "/");
    servers.floor = await serve(PORT + 1 + defs.length, ["-e", BARE_REDIS], { REDIS_URL }, "/");
    for (const [i, d] of defs.entries()) servers[d.id] = await serve(PORT + 1 + i, d.args(PORT + 1 + i), { ...env, ...d.env }, "/v1/health");
    // The set page must be what it says: 250 cards.
    const page = await fetch(servers.app!.base + SET_PAGE_PATH, { headers: { "x-api-key": keys[0]! } });
    const pageBody = (await page.json()) as { data?: unknown[] };
    if (page.status !== 200 || pageBody.data?.length !== 250) throw new Error(`${SET_PAGE_PATH}: ${page.status}, ${pageBody.data?.length} cards`);
    const answerFile = path.join(mkdtempSync(path.join(tmpdir(), "bench-answer-")), "card.json");
    const answerBytes = await capturedAnswer(servers.app!.base, keys[0]!, answerFile);
    servers.same = await serve(PORT + 2 + defs.length, ["-e", BARE_SAME_BYTES], { ANSWER_FILE: answerFile }, "/");
    type Item = { server: string; route: string; path: string; keyed: boolean };
    const items: Item[][] = defs.map((d) => d.routes.map(([rid, , p, keyed]) => ({ server: d.id, route: rid, path: p, keyed })));
    // JIT, connection pools and prepared statements warm up under load before anything counts.
    await load(servers.bare.base, "/", [], servers.bare.pgid, 2);
    await load(servers.floor.base, "/", [], servers.floor.pgid, 2);
    await load(servers.same.base, "/", [], servers.same.pgid, 2);
    for (const it of items.flat()) await load(servers[it.server]!.base, it.path, it.keyed ? keys : [], servers[it.server]!.pgid, 3);
    const runs = new Map<string, Load[]>();
    const add = (k: string, l: Load) => runs.set(k, [...(runs.get(k) ?? []), l]);
    for (let r = 0; r < rounds; r++) {
      add("bare", await load(servers.bare.base, "/", [], servers.bare.pgid, secs));
      add("floor", await load(servers.floor.base, "/", [], servers.floor.pgid, secs));
      add("same", await load(servers.same.base, "/", [], servers.same.pgid, secs));
      for (let j = 0; j < items.length; j++) {
        for (const it of items[(r + j) % items.length]!) {
          add(`${it.server}/${it.route}`, await load(servers[it.server]!.base, it.path, it.keyed ? keys : [], servers[it.server]!.pgid, secs));
        }
      }
      process.stdout.write(`  round ${r + 1} of ${rounds} done\n`);
    }
    const summary = (ls: Load[]) => ({
      rps: median(ls.map((l) => l.rps)), p50: median(ls.map((l) => l.p50)), p99: median(ls.map((l) => l.p99)),
      cpu_us_per_request: median(ls.map((l) => l.cpu_us_per_request)),
      redis_us_per_request: median(ls.map((l) => l.redis_us_per_request)), postgres_us_per_request: median(ls.map((l) => l.postgres_us_per_request)),
      rounds: ls,
    });
    const bare = summary(runs.get("bare")!);
    const get = (k: string) => summary(runs.get(k)!);
    const row = (name: string, l: ReturnType<typeof summary>, extra = "") =>
      console.log(`  ${name.padEnd(52)} ${l.rps.toFixed(0).padStart(6)} req/s  p50 ${l.p50.toFixed(2).padStart(6)} ms  p99 ${l.p99.toFixed(2).padStart(6)} ms  ${(l.rps / bare.rps).toFixed(3).padStart(6)} of bare  ${l.cpu_us_per_request.toFixed(0).padStart(5)} µs CPU/req${extra}`);
    console.log("");
    row("bare node:http (constant JSON)", bare, `  (rounds: ${bare.rounds.map((l) => l.rps.toFixed(0)).join(", ")} req/s)`);
    const floor = summary(runs.get("floor")!);
    row("bare node:http + one Redis script a request", floor, `  (by round ${floor.rounds.map((x, i) => (x.rps / bare.rounds[i]!.rps).toFixed(3)).join(", ")})`);
    const same = summary(runs.get("same")!);
    row(`bare node:http sending the card answer's ${answerBytes} bytes`, same, `  (by round ${same.rounds.map((x, i) => (x.rps / bare.rounds[i]!.rps).toFixed(3)).join(", ")})`);
    const out: Record<string, unknown> = {};
    for (const d of defs) {
      console.log(`  ${d.label}`);
      const entry: Record<string, unknown> = { label: d.label };
      for (const [rid, name] of d.routes) {
        const l = get(`${d.id}/${rid}`);
        let extra = "";
        if (rid === "set_page") extra = `  (${(l.rps / get(`${d.id}/card`).rps).toFixed(2)} of its card route)`;
        if (d.id === "app_nolog") {
          const on = get("app/card");
          extra = `  (the log adds p50 ${(on.p50 - l.p50).toFixed(2)} ms, ${(on.cpu_us_per_request - l.cpu_us_per_request).toFixed(0)} µs CPU/req)`;
        }
        row(`    ${name}`, l, extra);
        // The same build's rounds differ by more than some targets' margins: each one's own ratio shows it.
        const byRound = l.rounds.map((x, i) => (x.rps / bare.rounds[i]!.rps).toFixed(3)).join(", ");
        console.log(`${" ".repeat(8)}by round ${byRound} of bare; the machine's Redis ${l.redis_us_per_request.toFixed(0)} µs and PostgreSQL ${l.postgres_us_per_request.toFixed(0)} µs a request`);
        entry[rid] = { ...l, ratio_to_bare: l.rps / bare.rps };
      }
      out[d.id] = entry;
    }
    const app = get("app/card");
    const setPage = get("app/set_page");
    const nolog = get("app_nolog/card");
    const nextCard = get("next/card");
    const verdict = (ok: boolean) => (ok ? "met" : "MISSED");
    const targets = {
      card_to_bare: app.rps / bare.rps, card_p99_ms: app.p99, floor_to_bare: floor.rps / bare.rps, card_to_floor: app.rps / floor.rps,
      same_bytes_to_bare: same.rps / bare.rps, card_to_same_bytes: app.rps / same.rps, set_page_to_card: setPage.rps / app.rps,
      next_card_to_bare: nextCard.rps / bare.rps, app_to_next_card: app.rps / nextCard.rps,
      request_log_added_p50_ms: app.p50 - nolog.p50, request_log_added_cpu_us: app.cpu_us_per_request - nolog.cpu_us_per_request,
    };
    console.log(`\n  custom server's card route: ${targets.card_to_bare.toFixed(3)} of bare node:http (target ≥ 0.17: ${verdict(targets.card_to_bare >= 0.17)}), p99 ${app.p99.toFixed(2)} ms (target ≤ 10 ms: ${verdict(app.p99 <= 10)})`);
    console.log(`  the floor of a metered answer (one Redis script, nothing else): ${targets.floor_to_bare.toFixed(3)} of bare; the card route reaches ${targets.card_to_floor.toFixed(2)} of it`);
    console.log(`  bare node:http sending the card answer's own bytes: ${targets.same_bytes_to_bare.toFixed(3)} of bare; the card route reaches ${targets.card_to_same_bytes.toFixed(2)} of it`);
    console.log(`  set page of 250: ${targets.set_page_to_card.toFixed(2)} of the card route (target ≥ 0.5: ${verdict(targets.set_page_to_card >= 0.5)})`);
    console.log(`  next start's card route: ${targets.next_card_to_bare.toFixed(3)} of bare; the custom server serves ${targets.app_to_next_card.toFixed(2)}× next start's req/s`);
    console.log(`  request log on the path: p50 ${app.p50.toFixed(2)} ms on, ${nolog.p50.toFixed(2)} ms off (+${targets.request_log_added_p50_ms.toFixed(2)} ms); CPU ${targets.request_log_added_cpu_us.toFixed(0)} µs a request`);
    const pressure = { before: pressureBefore, after: cpuPressure() };
    if (pressure.before !== undefined) console.log(`  other work on this machine: CPU pressure (some, avg60) ${pressure.before} % in the minute before the servers started; load average ${loadavg()[0]!.toFixed(1)} at the end`);
    results.http = { app_dir: APP_DIR, connections: 8, seconds: secs, rounds, keys: keys.length, response_cache_mb: 64, card_path: CARD_PATH, set_page_path: SET_PAGE_PATH, bare, floor, same_bytes: { ...same, bytes: answerBytes }, servers: out, targets, cpu_pressure_avg60: pressure };
    finished = true;
  } finally {
    for (const s of Object.values(servers)) await s.stop();
  }
  if (!finished) return;
  const log = await requestLogBytes();
  (results.http as Record<string, unknown>).request_log = log;
  console.log(`\nThe request log in the bench database after the run: ${log.rows} rows`);
  console.log(`  table and indexes ${(log.total_bytes / 1e6).toFixed(1)} MB = ${log.total_per_row.toFixed(1)} bytes per row`);
  console.log(`  table alone ${(log.table_bytes / 1e6).toFixed(1)} MB = ${log.table_per_row.toFixed(1)} bytes per row (heap ${log.heap_per_row.toFixed(1)}), indexes ${log.indexes_per_row.toFixed(1)} bytes per row`);
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

// The collector pages on the embedded default (PGlite, in-process meter): bench/pages.ts starts
// the app as `npm start` does, which on a first start imports the catalogue and writes a year of
// demo prices (minutes), so this part runs only when named: `npm run bench pages`.
async function benchPages(): Promise<void> {
  const file = path.join("bench/results", `pages-${process.pid}.json`);
  mkdirSync("bench/results", { recursive: true });
  const child = spawn("npx", ["tsx", "bench/pages.ts", "--start", "--json", file], { stdio: "inherit" });
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  if (!existsSync(file)) throw new Error(`bench/pages.ts exited ${code} before measuring`);
  results.pages = JSON.parse(readFileSync(file, "utf8"));
  if (code !== 0) console.log(`  bench/pages.ts exited ${code}: a page type missed its target`);
}

async function main() {
  if (only.length === 1 && only[0] === "pages") {
    await benchPages();
    return writeResults();
  }
  const url = await ensureDatabase(DB, { fresh: wants("import") });
  process.env.DATABASE_URL = url;
  if (wants("import")) await benchImport(url);
  if (wants("queries")) await benchQueries();
  if (wants("prices")) await benchPrices();
  else if (wants("price-routes")) await benchPriceRoutes();
  if (wants("meter")) await benchMeter();
  if (wants("http")) await benchHttp(url);
  if (only.includes("pages")) await benchPages();
  writeResults();
}

function writeResults(): void {
  mkdirSync("bench/results", { recursive: true });
  const file = `bench/results/${new Date().toISOString().replace(/[:.]/g, "-")}.json`;
  writeFileSync(file, JSON.stringify(results, null, 2));
  console.log(`\nwritten ${file}`);
}

main().then(() => process.exit(0), (err) => {
  console.error(err);
  process.exit(1);
});
