// The collector pages' speed against a running server: per page type, the time to the whole
// server-rendered HTML (p50/p95 over sequential requests, after a warm-up visit), and the search
// box's suggestion latency per keystroke (each prefix of a few names typed letter by letter).
//
//   npx tsx bench/pages.ts --base http://127.0.0.1:3320 [--n 30]
//
// Sequential requests on localhost: the figures are the server's own time plus a loopback hop.
// A page type that answers 404 on the warm-up (movers, before it exists) is reported as absent.

export {};

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
};
const BASE = arg("base", process.env.BENCH_BASE ?? "http://127.0.0.1:3000").replace(/\/$/, "");
const N = Number(arg("n", "30"));

const PAGES: Record<string, string[]> = {
  search: ["/cards", "/cards?q=pikachu", "/cards?set=base1&sort=price&view=table", "/cards?region=JP&type=Fire&sort=release"],
  set: ["/sets/base1", "/sets/sv3pt5", "/sets/base2?view=table"],
  sets: ["/sets"],
  series: ["/series", "/series/base", "/series/scarlet-violet"],
  card: ["/cards/base1-4", "/cards/sv3pt5-6"],
  movers: ["/movers", "/movers?window=30d&region=WEST"],
  sealed: ["/sealed"],
  artists: ["/artists", "/artists/ken-sugimori"],
};
const WORDS = ["pikachu", "charizard", "flabébé", "dracaufeu", "ピカチュウ", "mewtwo", "umbreon vmax"];

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

async function time(path: string): Promise<{ ms: number; status: number }> {
  const t = performance.now();
  const res = await fetch(BASE + path, { headers: { accept: "text/html,application/json" } });
  await res.arrayBuffer();
  return { ms: performance.now() - t, status: res.status };
}

async function main() {
  const rows: { page: string; p50: string; p95: string; n: number; note: string }[] = [];
  for (const [kind, paths] of Object.entries(PAGES)) {
    const live: string[] = [];
    for (const p of paths) {
      // Warm-up: the first visit compiles nothing in production but fills the pool and caches.
      const w = await time(p);
      await time(p);
      if (w.status === 200) live.push(p);
    }
    if (!live.length) {
      rows.push({ page: kind, p50: "–", p95: "–", n: 0, note: `absent (${paths[0]} did not answer 200)` });
      continue;
    }
    const times: number[] = [];
    for (let i = 0; i < N; i++) for (const p of live) times.push((await time(p)).ms);
    rows.push({ page: kind, p50: pct(times, 50).toFixed(1), p95: pct(times, 95).toFixed(1), n: times.length, note: live.join(" ") });
  }

  // Suggestions: a warm-up word, then each word typed a letter at a time, three times over.
  for (const ch of "warm") await time(`/cards/suggest?q=${encodeURIComponent("warm".slice(0, "warm".indexOf(ch) + 1))}`);
  const keys: number[] = [];
  for (let round = 0; round < 3; round++) {
    for (const w of WORDS) {
      for (let i = 1; i <= [...w].length; i++) {
        const { ms, status } = await time(`/cards/suggest?q=${encodeURIComponent([...w].slice(0, i).join(""))}`);
        if (status !== 200) throw new Error(`suggest answered ${status}`);
        keys.push(ms);
      }
    }
  }
  rows.push({ page: "suggest (per keystroke)", p50: pct(keys, 50).toFixed(1), p95: pct(keys, 95).toFixed(1), n: keys.length, note: WORDS.join(", ") });

  console.log(`\nCollector pages against ${BASE} (ms, sequential, after warm-up)\n`);
  console.log(["page".padEnd(24), "p50".padStart(8), "p95".padStart(8), "n".padStart(5), "  what"].join(""));
  for (const r of rows) console.log([r.page.padEnd(24), r.p50.padStart(8), r.p95.padStart(8), String(r.n).padStart(5), `  ${r.note}`].join(""));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
