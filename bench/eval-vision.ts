import { nonCardPhoto } from "./noncard";

// `npm run eval:vision`: photo identification and centering measured on synthetic photos.
// Identification: photos made from the indexed faces by two independent generators in turn:
// synth.ts ("legacy": perspective, rotation, the card filling 25-90 % of the frame, clutter,
// blur, noise, colour casts, glare, JPEG 50-90, occlusions) and synth-hard.ts at three levels
// (easy, medium, hard: fingers, strong glare and blur, small cards, a side out of the frame),
// and photos of things that are not cards, all searched against the whole catalogue's index.
// Reported by level, by cards that share their artwork with another and those that do not,
// with how often the printed line (set code, number, language) told a shared artwork's cards apart.
// Uses the configured database (DATABASE_URL, else the embedded PGlite folder: stop the app
// first) and writes the index to VISION_INDEX_DIR, as the vision-index job does.
//   --photos N     card photos (default 600)     --noncards N   non-card photos (default 200)
//   --centering N  faces per centering kind (200) --reuse       keep the built index (no timing)
//   --calibrate    print the distance quantiles the no-match threshold is chosen from
//   --centering-cells N  independent centering photos per border × table and level (centering / 50)

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
};
const has = (name: string) => process.argv.includes(`--${name}`);
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};
const share = (n: number, of: number) => `${((100 * n) / of).toFixed(2)} % (${n}/${of})`;

async function ensureCatalogue() {
  const { rows } = await import("@/lib/db/client");
  const { sql } = await import("drizzle-orm");
  const [c] = await rows<{ n: number }>(sql`select count(*)::int as n from cards where deleted_at is null`).catch(() => [{ n: 0 }]);
  if (c && c.n > 0) return c.n;
  const { refreshCatalog } = await import("@/lib/catalog/import");
  const { env } = await import("@/lib/env");
  console.log("importing the catalogue first…");
  const r = await refreshCatalog(env().CATALOG_DIR);
  if (!r.ok) throw new Error(r.error);
  const [after] = await rows<{ n: number }>(sql`select count(*)::int as n from cards where deleted_at is null`);
  return after!.n;
}

async function buildIndex() {
  const { buildVisionIndex } = await import("@/lib/vision/index-build");
  const { progress } = await import("@/lib/jobs/progress");
  const { openIndex } = await import("@/lib/vision/index-file");
  if (!has("reuse")) {
    const r = await buildVisionIndex(progress("vision-index"), { full: true });
    console.log(`\nIndex build (whole catalogue, from scratch): ${r.cards} cards in ${r.seconds.toFixed(1)} s (${r.real} from real images, ${r.described} described), ${(r.bytes / 1e6).toFixed(1)} MB file`);
    const { catalogPrintings, sharedArtStats } = await import("@/lib/vision/art");
    const st = sharedArtStats(await catalogPrintings());
    console.log(`Shared artwork (lib/vision/art.ts): ${st.groups} groups holding ${st.cards} cards, the largest ${st.largest}`);
  }
  const { execFileSync } = await import("node:child_process");
  const mem = JSON.parse(execFileSync(process.execPath, [...process.execArgv.filter((a) => !a.startsWith("--expose")), "--expose-gc", "bench/vision-memory.ts"], { encoding: "utf8" }).trim().split("\n").pop()!);
  console.log(`Index in memory (a fresh process, after loading it): ${(mem.held_bytes / 1e6).toFixed(1)} MB, of which ${(mem.coarse_bytes / 1e6).toFixed(1)} MB coarse vectors, the rest the ids, artwork groups and printed lines; fine grids stay in the ${(mem.file_bytes / 1e6).toFixed(1)} MB file`);
  console.log(`  and the coarse scan's WebAssembly SIMD copy, made on the first search: ${(mem.simd_bytes / 1e6).toFixed(1)} MB`);
  const idx = await openIndex();
  if (!idx) throw new Error("no index");
  const ids = idx.meta.ids;
  await idx.close();
  return ids;
}

type Outcome = { level: string; shared: boolean; top1: boolean; top5: boolean; noMatch: boolean; read: "right" | "wrong" | "ambiguous" | "n/a"; ms: number };

async function evalIdentify(ids: string[]) {
  const { faceRow } = await import("@/lib/images/queries/images");
  const { renderFace, seeded } = await import("@/lib/vision/render");
  const { withPrinting } = await import("@/lib/vision/art");
  const { synthPhoto } = await import("@/lib/vision/synth");
  const { hardPhoto, LEVELS } = await import("@/lib/vision/synth-hard");
  const { identifyPhoto } = await import("@/lib/vision/identify");
  const { openIndex } = await import("@/lib/vision/index-file");
  const photos = arg("photos", 600);
  const noncards = arg("noncards", 200);
  // The calibration run uses other seeds than the evaluation, so the thresholds are not fit to it.
  const tag = has("calibrate") ? "cal" : "eval";
  const pick = seeded(`${tag}:cards`);
  // Which cards share their artwork with another (the index's groups).
  const idx = (await openIndex())!;
  const groupSize = new Map<number, number>();
  for (const a of idx.meta.art ?? []) groupSize.set(a, (groupSize.get(a) ?? 0) + 1);
  const shared = new Set(ids.filter((_, row) => (groupSize.get(idx.meta.art?.[row] ?? -1) ?? 1) > 1));
  await idx.close();
  // Four generators in turn: synth.ts's photos ("legacy") and synth-hard.ts's three levels.
  const gens = ["legacy", ...LEVELS] as const;
  const outcomes: Outcome[] = [];
  const latency: number[] = [];
  const matchD: number[] = [];
  const secondD: number[] = [];
  const nonD: number[] = [];
  const matchRatio: number[] = [];
  const nonRatio: number[] = [];
  const ratio = (c: { distance: number; sharesArtwork: boolean }[]) => {
    const other = c.find((x) => !x.sharesArtwork);
    return other ? c[0]!.distance / Math.max(other.distance, 1e-6) : 0;
  };
  const misses: string[] = [];
  process.stdout.write(`\nIdentify: ${photos} card photos (${gens.join(", ")} in turn), ${noncards} non-card photos, index of ${ids.length} cards, ${shared.size} of them sharing their artwork\n`);
  for (let i = 0; i < photos; i++) {
    const id = ids[Math.floor(pick() * ids.length)]!;
    const card = await faceRow(id);
    const face = await renderFace(await withPrinting(card!));
    const level = gens[i % gens.length]!;
    const { photo } = level === "legacy" ? await synthPhoto(face, { seed: `${tag}:${i}` }) : await hardPhoto(face, `${tag}:${i}`, level);
    const t = performance.now();
    const r = await identifyPhoto(photo, 5);
    const ms = performance.now() - t;
    latency.push(ms);
    const rank = r.candidates.findIndex((c) => c.id === id);
    const isShared = shared.has(id);
    const groupFound = !r.noMatch && r.candidates.some((c) => c.id === id && c.sharesArtwork);
    const read = !isShared || !groupFound ? "n/a" : r.printing.ambiguous ? "ambiguous" : rank === 0 ? "right" : "wrong";
    outcomes.push({ level, shared: isShared, top1: !r.noMatch && rank === 0, top5: !r.noMatch && rank >= 0, noMatch: r.noMatch, read, ms });
    if (rank === 0) {
      matchD.push(r.candidates[0]!.distance);
      const other = r.candidates.find((c) => !c.sharesArtwork);
      if (other) secondD.push(other.distance);
      matchRatio.push(ratio(r.candidates));
    }
    if (rank !== 0 && misses.length < 25) misses.push(`${tag}:${i} ${level} ${id}${isShared ? " (shared art)" : ""} rank ${rank} best ${r.candidates[0]?.id} ${r.candidates[0]?.distance} ${r.noMatch ? "no_match " : ""}${r.printing.ambiguous ? "ambiguous " : ""}outline ${r.outline ? "found" : "none"}`);
    if ((i + 1) % 100 === 0) process.stdout.write(`  ${i + 1} photos: top-1 ${share(outcomes.filter((o) => o.top1).length, i + 1)}\n`);
  }
  let rejected = 0;
  for (let i = 0; i < noncards; i++) {
    const photo = await nonCardPhoto(`${tag}:${i}`, i % 2 === 1);
    const t = performance.now();
    const r = await identifyPhoto(photo, 5);
    latency.push(performance.now() - t);
    if (r.noMatch) rejected++;
    nonD.push(r.candidates[0]?.distance ?? Infinity);
    nonRatio.push(ratio(r.candidates));
  }
  const row = (label: string, os: Outcome[]) => {
    if (!os.length) return;
    const ms = os.map((o) => o.ms);
    console.log(`  ${label.padEnd(22)} top-1 ${share(os.filter((o) => o.top1).length, os.length).padEnd(22)} top-5 ${share(os.filter((o) => o.top5).length, os.length).padEnd(22)} no_match ${share(os.filter((o) => o.noMatch).length, os.length).padEnd(20)} p95 ${pct(ms, 95).toFixed(0)} ms`);
  };
  console.log("  by photo level:");
  for (const g of gens) row(g, outcomes.filter((o) => o.level === g));
  row("mixed (all of them)", outcomes);
  row("synth-hard easy+med+hard", outcomes.filter((o) => o.level !== "legacy"));
  console.log("  by artwork:");
  row("shared art", outcomes.filter((o) => o.shared));
  row("unique art", outcomes.filter((o) => !o.shared));
  row("shared art, hard", outcomes.filter((o) => o.shared && o.level === "hard"));
  const reads = outcomes.filter((o) => o.read !== "n/a");
  console.log(`  printed line, shared-art photos whose artwork group was found: read right ${share(reads.filter((o) => o.read === "right").length, reads.length)}, wrong ${share(reads.filter((o) => o.read === "wrong").length, reads.length)}, ambiguous ${share(reads.filter((o) => o.read === "ambiguous").length, reads.length)}`);
  for (const g of gens) {
    const rs = reads.filter((o) => o.level === g);
    if (rs.length) console.log(`    ${g.padEnd(8)} right ${share(rs.filter((o) => o.read === "right").length, rs.length)}, wrong ${share(rs.filter((o) => o.read === "wrong").length, rs.length)}, ambiguous ${share(rs.filter((o) => o.read === "ambiguous").length, rs.length)}`);
  }
  console.log(`  non-cards no_match ${share(rejected, noncards)}   (target ≥ 95 %)`);
  console.log(`  latency per photo (decode to answer, in process): p50 ${pct(latency, 50).toFixed(0)} ms, p95 ${pct(latency, 95).toFixed(0)} ms, p99 ${pct(latency, 99).toFixed(0)} ms, max ${Math.max(...latency).toFixed(0)} ms   (target p95 ≤ 300 ms)`);
  const q = (xs: number[]) => [1, 5, 50, 95, 99].map((p) => `p${p} ${pct(xs, p).toFixed(3)}`).join(", ");
  console.log(`  distance of the right card: ${q(matchD)}`);
  console.log(`  distance of the next artwork:  ${q(secondD)}`);
  console.log(`  distance of non-cards' best: ${q(nonD)}`);
  console.log(`  best / next artwork, right card: ${q(matchRatio)}`);
  console.log(`  best / next artwork, non-cards:  ${q(nonRatio)}`);
  for (const m of misses) console.log(`  miss: ${m}`);
  const top1 = outcomes.filter((o) => o.top1).length / photos;
  return { top1, noncard_no_match: rejected / noncards, p95_ms: pct(latency, 95) };
}

async function main() {
  const cards = await ensureCatalogue();
  console.log(`catalogue: ${cards} cards`);
  const ids = await buildIndex();
  await evalIdentify(ids);
  const n = arg("centering", 200);
  if (n > 0) {
    const { evalCentering, evalCenteringPhotos, formatPhotoReport, CENTERING_LEVELS } = await import("@/lib/vision/eval-centering");
    const c = await evalCentering(n);
    const f = (t: import("@/lib/vision/eval-centering").Tally) =>
      `p50 ${t.all.p50.toFixed(2)} pp, p90 ${t.all.p90.toFixed(2)} pp, max ${t.all.max.toFixed(2)} pp, within 1 pp ${t.all.within1} %, side flips ${t.all.flips}`;
    console.log(`\nCentering error, ${n} faces each, offsets 50/50 to 85/15 on both axes`);
    console.log(`  flat scans          ${f(c.scans)}   (target p90 ≤ 1 pp)`);
    console.log(`  perspective photos  ${f(c.photos)}   (target p90 ≤ 2 pp)`);
    console.log(`  not measured: ${c.failures}`);
    // The independent generator (never tuned on): every border colour on every table, by level.
    const perCell = arg("centering-cells", Math.max(1, Math.round(n / 50)));
    console.log(`\nCentering on the independent photo generator, ${perCell} per border × table and level (errors pooled over both axes)`);
    for (const level of CENTERING_LEVELS) for (const line of formatPhotoReport(await evalCenteringPhotos(level, perCell))) console.log(line);
  }
  const { closeDb } = await import("@/lib/db/client");
  await closeDb();
}

main().then(() => process.exit(0), (err) => {
  console.error(err);
  process.exit(1);
});
