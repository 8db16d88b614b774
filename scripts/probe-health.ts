import { writeFileSync } from "node:fs";
import http from "node:http";

// A liveness probe over a first start: GET /v1/health every second (each on a fresh
// connection, whether or not the one before has answered), latencies recorded, and
// /v1/status read alongside for the demo prices' progress. It waits for the server to answer
// at all (the first start builds and imports the catalogue before it listens), runs until the
// demo generation it saw running has finished (or --seconds), then prints p50/p99/max.
// Each probe is tagged with the job /v1/status last showed (demo-prices, vision-index), and the
// demo generation gets a summary of its own; --out FILE keeps every probe as JSON.
//   tsx scripts/probe-health.ts [--url http://localhost:3000] [--interval 1000] [--seconds N] [--timeout 60000] [--out FILE]

const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i += 2) args.set(process.argv[i]!.replace(/^--/, ""), process.argv[i + 1] ?? "");
const base = args.get("url") ?? `http://localhost:${process.env.PORT ?? 3000}`;
const interval = Number(args.get("interval") ?? 1000);
const limit = args.has("seconds") ? Number(args.get("seconds")) * 1000 : Infinity;
const timeout = Number(args.get("timeout") ?? 60_000);

type Probe = { at: number; ms: number; status: number | "timeout" | "error"; job: string };

function get(path: string): Promise<{ status: number | "timeout" | "error"; ms: number; body: string }> {
  const t = performance.now();
  return new Promise((resolve) => {
    const req = http.get(`${base}${path}`, { agent: false, timeout }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - t, body }));
    });
    req.on("timeout", () => {
      req.destroy();
      resolve({ status: "timeout", ms: performance.now() - t, body: "" });
    });
    req.on("error", () => resolve({ status: "error", ms: performance.now() - t, body: "" }));
  });
}

const quantile = (xs: number[], q: number) => {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)]!;
};
const stamp = () => new Date().toISOString().slice(11, 19);
const fmt = (ms: number) => `${ms.toFixed(ms < 10 ? 1 : 0)} ms`;

async function main() {
  console.log(`[probe] ${stamp()} waiting for ${base}/v1/health to answer`);
  while ((await get("/v1/health")).status !== 200) await new Promise((r) => setTimeout(r, 500));
  const started = performance.now();
  console.log(`[probe] ${stamp()} the server answers; probing /v1/health every ${interval} ms`);
  const probes: Probe[] = [];
  const pending = new Set<Promise<void>>();
  let sawDemo = false;
  let demoDone = false;
  let lastShare = "";
  let current = "";
  let stop = false;
  const end = () => (stop = true);
  process.on("SIGINT", end);
  process.on("SIGTERM", end);

  const timer = setInterval(() => {
    const at = performance.now() - started;
    const job = current;
    const p = get("/v1/health").then((r) => {
      probes.push({ at, ms: r.ms, status: r.status, job });
      if (r.status !== 200 || r.ms > 1000) console.log(`[probe] ${stamp()} health ${r.status} in ${fmt(r.ms)}`);
    });
    pending.add(p);
    void p.finally(() => pending.delete(p));
  }, interval);

  for (let tick = 0; !stop && performance.now() - started < limit; tick++) {
    const s = await get("/v1/status");
    let line = "";
    if (s.status === 200) {
      const jobs = (JSON.parse(s.body) as { jobs?: { job: string; phase: string | null; share_done: number }[] }).jobs ?? [];
      const demo = jobs.find((j) => j.job === "demo-prices");
      current = demo ? "demo-prices" : jobs[0]?.job ?? "";
      if (demo) {
        sawDemo = true;
        line = `demo-prices ${Math.round(demo.share_done * 100)} % (${demo.phase})`;
      } else if (sawDemo) {
        demoDone = true;
        line = "demo-prices done";
      } else line = jobs.length ? jobs.map((j) => `${j.job} ${Math.round(j.share_done * 100)} %`).join(", ") : "no job running";
    } else line = `status ${s.status}`;
    const oks = probes.map((p) => p.ms);
    if (line !== lastShare || tick % 6 === 0) {
      console.log(`[probe] ${stamp()} +${((performance.now() - started) / 1000).toFixed(0)} s: ${probes.length} probes, p50 ${fmt(quantile(oks, 0.5))}, p99 ${fmt(quantile(oks, 0.99))}, max ${fmt(Math.max(0, ...oks))}; ${line}`);
      lastShare = line;
    }
    if (demoDone) break;
    await new Promise((r) => setTimeout(r, 5000));
  }
  clearInterval(timer);
  await Promise.all(pending);
  const summary = (title: string, xs: Probe[]) => {
    const ms = xs.map((p) => p.ms);
    const span = xs.length ? (xs.at(-1)!.at - xs[0]!.at) / 1000 : 0;
    console.log(`[probe] ${title}: ${xs.length} probes over ${span.toFixed(0)} s; /v1/health p50 ${fmt(quantile(ms, 0.5))}, p90 ${fmt(quantile(ms, 0.9))}, p99 ${fmt(quantile(ms, 0.99))}, max ${fmt(Math.max(0, ...ms))}; over 1 s: ${xs.filter((p) => p.ms > 1000).length}; not 200: ${xs.filter((p) => p.status !== 200).length}`);
  };
  summary(`all${sawDemo ? (demoDone ? ", through the whole demo generation" : ", stopped during the demo generation") : ""}`, probes);
  for (const job of [...new Set(probes.map((p) => p.job))].filter(Boolean)) summary(`while ${job} ran`, probes.filter((p) => p.job === job));
  if (args.get("out")) writeFileSync(args.get("out")!, JSON.stringify(probes));
  process.exit(probes.some((p) => p.status !== 200 || p.ms > 1000) ? 1 : 0);
}

void main();
