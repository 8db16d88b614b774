import { execFileSync } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import path from "node:path";

// Where the embedded first start's demo generation holds the process: runs the demo market
// in this process on a copy of a PGlite folder that holds the catalogue, and reports every
// event-loop stall and every statement (or transaction) longer than a threshold, by phase,
// and what a `select 1` every second waited (what /v1/health would).
//   tsx scripts/profile-demo.ts --base DIR [--days 30] [--over 150] [--paced 1] [--keep 1]

const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i += 2) args.set(process.argv[i]!.replace(/^--/, ""), process.argv[i + 1] ?? "");
const base = args.get("base");
if (!base) throw new Error("--base DIR: a PGlite folder with the catalogue imported (PGLITE_DIR=DIR npm run job -- refresh-catalog)");
const days = Number(args.get("days") ?? 30);
const over = Number(args.get("over") ?? 150);
const work = path.resolve(args.get("work") ?? "/tmp/profile-demo");
rmSync(work, { recursive: true, force: true });
execFileSync("cp", ["-r", path.resolve(base), path.join(work)]);
execFileSync("mkdir", ["-p", path.join(work, "feeds")]);
process.env.PGLITE_DIR = path.join(work);
process.env.PRICE_FEEDS_DIR = path.join(work, "feeds");
delete process.env.DATABASE_URL;

const started = performance.now();
type Slow = { ms: number; what: string; phase: string };
const slow: Slow[] = [];
let phase = "start";
let stmt = "";

async function main() {
  const { PGlite } = await import("@electric-sql/pglite");
  const proto = PGlite.prototype as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
  const timed = (name: string, fn: (...a: unknown[]) => Promise<unknown>) => async function (this: unknown, ...a: unknown[]) {
    const text = typeof a[0] === "string" ? a[0].replace(/\s+/g, " ").slice(0, 90) : name;
    const t = performance.now();
    stmt = text;
    try {
      return await fn.apply(this, a);
    } finally {
      const ms = performance.now() - t;
      if (ms > over) slow.push({ ms, what: `${name}: ${text}`, phase });
    }
  };
  // Every statement, in or out of a transaction, runs through _runExclusiveQuery; a
  // transaction holds _runExclusiveTransaction (and so every other caller) for its whole length.
  const runQ = proto._runExclusiveQuery!;
  proto._runExclusiveQuery = async function (this: unknown, fn: unknown) {
    const t = performance.now();
    try {
      return await runQ.call(this, fn);
    } finally {
      const ms = performance.now() - t;
      if (ms > over) slow.push({ ms, what: `statement: ${stmt}`, phase });
    }
  };
  proto.transaction = timed("transaction", proto.transaction!);
  proto.query = (function (q: typeof proto.query) {
    return async function (this: unknown, ...a: unknown[]) {
      stmt = String(a[0]).replace(/\s+/g, " ").slice(0, 90);
      return q!.apply(this, a);
    };
  })(proto.query);

  const { sql } = await import("drizzle-orm");
  const { rows, closeDb } = await import("@/lib/db/client");
  await rows(sql`select 1`);
  // Event-loop stalls: a timer every 10 ms that fires late.
  let last = performance.now();
  const stalls: Slow[] = [];
  const tick = setInterval(() => {
    const now = performance.now();
    if (now - last > over) {
      stalls.push({ ms: now - last - 10, what: `stall after ${stmt}`, phase });
      if (now - last > 2000) console.log(`  stall ${(now - last).toFixed(0)} ms at ${((now - started) / 1000).toFixed(1)} s after ${stmt} (heap ${(process.memoryUsage().heapUsed / 1e6).toFixed(0)} MB)`);
    }
    last = now;
  }, 10);
  // Garbage collections that paused the thread.
  const { PerformanceObserver } = await import("node:perf_hooks");
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.duration > over / 2) slow.push({ ms: e.duration, what: `gc pause (kind ${(e as unknown as { detail?: { kind?: number } }).detail?.kind})`, phase });
  }).observe({ entryTypes: ["gc"] });
  // What /v1/health would wait: a select 1 every second.
  const pings: number[] = [];
  let stop = false;
  const pinger = (async () => {
    while (!stop) {
      const t = performance.now();
      await rows(sql`select 1`);
      pings.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 1000));
    }
  })();

  const { runDemoMarket } = await import("@/lib/prices/demo-market");
  const phases: { name: string; at: number }[] = [];
  const progress = (job: string) => ({
    phase(name: string) {
      if (`${job}/${name}` === phase) return;
      if (job === "refresh-prices" && phase.startsWith("refresh-prices/") && !name.startsWith("documents")) return;
      phase = `${job}/${name}`;
      phases.push({ name: phase, at: performance.now() });
      console.log(`[${((performance.now() - started) / 1000).toFixed(1)} s] ${phase} (heap ${(process.memoryUsage().heapUsed / 1e6).toFixed(0)} MB, rss ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB)`);
    },
    tick() {},
    note(t: string) { console.log(`[${job}] ${t}`); },
    done() {},
  });
  const paced = args.get("paced") === "1";
  const r = await runDemoMarket({ days, feedsDir: process.env.PRICE_FEEDS_DIR!, progress, paced });
  console.log(`[${((performance.now() - started) / 1000).toFixed(1)} s] demo market done`);
  phase = "checkpoint";
  const c = performance.now();
  await rows(sql`checkpoint`);
  console.log(`checkpoint ${(performance.now() - c).toFixed(0)} ms`);
  stop = true;
  await pinger;
  clearInterval(tick);
  const total = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage();
  console.log(`CPU of this process: ${((cpu.user + cpu.system) / 1e6).toFixed(0)} s (user ${(cpu.user / 1e6).toFixed(0)} s, system ${(cpu.system / 1e6).toFixed(0)} s)`);
  const q = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))] ?? 0;
  console.log(`\n${days} days: ${total.toFixed(1)} s; ${r.demo.points + r.prices.observations} points`);
  console.log(`select 1 every second (${pings.length}): p50 ${q(pings, 0.5).toFixed(0)} ms, p99 ${q(pings, 0.99).toFixed(0)} ms, max ${Math.max(...pings).toFixed(0)} ms`);
  const show = (title: string, xs: Slow[]) => {
    console.log(`\n${title}: ${xs.length}, ${xs.reduce((n, x) => n + x.ms, 0).toFixed(0)} ms in all`);
    const by = new Map<string, { n: number; max: number; sum: number }>();
    for (const x of xs) {
      const k = `${x.phase} | ${x.what}`;
      const e = by.get(k) ?? { n: 0, max: 0, sum: 0 };
      e.n++;
      e.max = Math.max(e.max, x.ms);
      e.sum += x.ms;
      by.set(k, e);
    }
    for (const [k, e] of [...by].sort((a, b) => b[1].max - a[1].max).slice(0, 40)) console.log(`  max ${e.max.toFixed(0).padStart(6)} ms ×${String(e.n).padStart(4)} sum ${e.sum.toFixed(0).padStart(7)}  ${k}`);
  };
  show(`statements and transactions over ${over} ms`, slow);
  show(`event-loop stalls over ${over} ms`, stalls);
  await closeDb();
  if (!args.has("keep") && existsSync(work)) rmSync(work, { recursive: true, force: true });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
