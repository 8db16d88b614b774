import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import autocannon, { BENCH_KEYS } from "./autocannon";
import { ensureDatabase } from "../tests/helpers/db";
import { buildServerIfStale } from "../scripts/build-server";

// Where the lean server's CPU goes under load: server/lean.ts, compiled (scripts/build-server.ts),
// under `node --cpu-prof`, the bench database (`npm run bench import` first), 8 connections on one
// route with a pool of enterprise keys metered on Redis, then the profile's self time summed by
// function and by file.
//   npx tsx bench/profile-http.ts [/v1/cards/base1-4] [seconds] [--server server/app.ts] [--gzip]
//   npx tsx bench/profile-http.ts --summary file.cpuprofile     (only summarise a profile)

type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] };
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[]; startTime: number; endTime: number };

/** Self and inclusive time of a .cpuprofile; `lastSeconds`: only its samples of that many seconds before its end. */
export function summarise(file: string, lastSeconds = Infinity, top = 45): void {
  const p = JSON.parse(readFileSync(file, "utf8")) as Profile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  const from = p.endTime - lastSeconds * 1e6;
  let t = p.startTime;
  p.samples.forEach((id, i) => {
    t += p.timeDeltas[i] ?? 0;
    if (t >= from) self.set(id, (self.get(id) ?? 0) + (p.timeDeltas[i] ?? 0));
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const short = (url: string) => url.replace(/^file:\/\//, "").replace(process.cwd() + "/", "").replace(/.*node_modules\//, "~/");
  const fnSelf = new Map<string, number>();
  const fileSelf = new Map<string, number>();
  for (const [id, us] of self) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    const where = url ? short(url) : "(native)";
    const fn = `${functionName || "(anonymous)"} ${where}${url ? `:${lineNumber + 1}` : ""}`;
    fnSelf.set(fn, (fnSelf.get(fn) ?? 0) + us);
    const f = url ? (where.startsWith("~/") ? where.split("/").slice(0, where.startsWith("~/@") ? 3 : 2).join("/") : where) : functionName;
    fileSelf.set(f, (fileSelf.get(f) ?? 0) + us);
  }
  // Inclusive time of our own files' functions: what each step costs with what it calls.
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const incl = new Map<string, number>();
  for (const [id, us] of self) {
    const seen = new Set<string>();
    for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) {
      const { functionName, url, lineNumber } = byId.get(n)!.callFrame;
      if (!url || url.includes("node_modules") || !url.includes(process.cwd())) continue;
      const k = `${functionName || "(anonymous)"} ${short(url)}:${lineNumber + 1}`;
      if (seen.has(k)) continue;
      seen.add(k);
      incl.set(k, (incl.get(k) ?? 0) + us);
    }
  }
  const print = (title: string, m: Map<string, number>, n: number) => {
    console.log(`\n${title}`);
    for (const [k, us] of [...m].sort((a, b) => b[1] - a[1]).slice(0, n)) console.log(`  ${((100 * us) / total).toFixed(1).padStart(5)} %  ${k}`);
  };
  console.log(`${file}: ${(total / 1e6).toFixed(2)} s sampled`);
  print("self time by function", fnSelf, top);
  print("self time by file or package", fileSelf, 30);
  print("inclusive time of the app's own functions", incl, 40);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const at = args.indexOf("--summary");
  if (at >= 0) return summarise(args[at + 1]!, Number(args[at + 2] ?? Infinity));
  const serverAt = args.indexOf("--server");
  const server = serverAt >= 0 ? args.splice(serverAt, 2)[1]! : "server/lean.ts";
  const route = args.find((a) => a.startsWith("/")) ?? "/v1/cards/base1-4";
  const seconds = Number(args.find((a) => /^\d+$/.test(a)) ?? 15);
  const url = await ensureDatabase(process.env.BENCH_DB ?? "pokeprice_bench");
  process.env.DATABASE_URL = url;
  const { makeAccount } = await import("../tests/helpers/accounts");
  const keys = await Promise.all(Array.from({ length: BENCH_KEYS }, async () => (await makeAccount({ plan: "enterprise", confirmed: true })).key));
  await (await import("@/lib/db/client")).closeDb();
  const dir = mkdtempSync(path.join(tmpdir(), "cpuprof-"));
  const port = Number(process.env.BENCH_PORT ?? 3198);
  // Compiled, as `npm start` runs it (scripts/build-server.ts).
  const bundle = buildServerIfStale(server.includes("lean") ? "lean" : "app");
  const child = spawn(process.execPath, ["--cpu-prof", "--cpu-prof-dir", dir, bundle], {
    env: {
      ...process.env, DATABASE_URL: url, REDIS_URL: process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379", PORT: String(port), NODE_ENV: "production",
      VISION_INDEX_ON_START: "0", DEMO_PRICES: "0", STRIPE_FAKE: "0",
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null || i > 240) throw new Error("server did not start");
    if (await fetch(`${base}/v1/health`).then((r) => r.ok, () => false)) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  // --gzip: ask for compressed answers, as `npm run bench http` (and most clients) do.
  const gzip = args.includes("--gzip") ? { "accept-encoding": "gzip" } : {};
  const requests = keys.map((k) => ({ method: "GET" as const, path: route, headers: { "x-api-key": k, ...gzip } }));
  await autocannon({ url: base, connections: 8, duration: 3, requests });
  const r = await autocannon({ url: base, connections: 8, duration: seconds, requests });
  console.log(`${route}: ${r.requests.average.toFixed(0)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, ${r.non2xx} non-2xx`);
  const exited = new Promise((res) => child.once("exit", res));
  child.kill("SIGTERM");
  await exited;
  // The main thread's (tsx's loader thread writes one too): thread 0.
  const file = readdirSync(dir).filter((f) => f.endsWith(".cpuprofile")).sort()[0];
  if (!file) throw new Error(`no profile in ${dir}`);
  // The measured load only: not the start-up, the warm-up or the shutdown.
  summarise(path.join(dir, file), seconds - 0.5);
}

main().then(() => process.exit(0), (err) => {
  console.error(err);
  process.exit(1);
});
