// scratch A/B: two bundles of the app's server, alternating rounds
import { spawn } from "node:child_process";
import ac from "./bench/autocannon";
const autocannon: any = (ac as any).default ?? ac;
process.env.DATABASE_URL = "postgres://postgres@127.0.0.1:5432/pokeprice_bench";
const { makeAccount } = await import("./tests/helpers/accounts");
const keys = await Promise.all(Array.from({ length: 64 }, async () => (await makeAccount({ plan: "enterprise", confirmed: true })).key));
const variants = JSON.parse(process.argv[2]!) as { name: string; bundle: string }[];
const rounds = Number(process.argv[3] ?? 4), secs = Number(process.argv[4] ?? 8);
const procs = variants.map((v, i) => spawn(process.execPath, [v.bundle], { env: { ...process.env, REDIS_URL: "redis://127.0.0.1:6379", PORT: String(3401 + i), NODE_ENV: "production", VISION_INDEX_ON_START: "0", DEMO_PRICES: "0", STRIPE_FAKE: "0" }, stdio: "ignore", detached: true }));
try {
  for (let i = 0; i < variants.length; i++) for (;;) { if (await fetch(`http://127.0.0.1:${3401 + i}/v1/health`).then((r) => r.ok, () => false)) break; await new Promise((r) => setTimeout(r, 300)); }
  const run = (i: number, s: number) => new Promise<number>((res, rej) => autocannon({ url: `http://127.0.0.1:${3401 + i}`, connections: 8, duration: s, requests: keys.map((k) => ({ method: "GET", path: "/v1/cards/base1-4", headers: { "x-api-key": k, "accept-encoding": "gzip" } })) }, (e: any, r: any) => (e ? rej(e) : r.non2xx ? rej(new Error("non2xx " + JSON.stringify(r.statusCodeStats))) : res(r.requests.total / r.duration))));
  for (let i = 0; i < variants.length; i++) await run(i, 3);
  const res: number[][] = variants.map(() => []);
  for (let r = 0; r < rounds; r++) for (let j = 0; j < variants.length; j++) { const i = (r + j) % variants.length; res[i]!.push(await run(i, secs)); }
  for (let i = 0; i < variants.length; i++) { const s = [...res[i]!].sort((a, b) => a - b); console.log(variants[i]!.name.padEnd(10), "median", s[Math.floor(s.length / 2)]!.toFixed(0), "rounds", res[i]!.map((x) => x.toFixed(0)).join(" ")); }
  const ratios = res[1]!.map((x, r) => x / res[0]![r]!).sort((a, b) => a - b);
  console.log("new/old by round (sorted)", ratios.map((x) => x.toFixed(3)).join(" "), "median", ratios[Math.floor(ratios.length / 2)]!.toFixed(3));
} finally {
  for (const p of procs) process.kill(-p.pid!, "SIGTERM");
}
process.exit(0);
