// Tuning runs for identification, on seeds the evaluation (eval-vision.ts, seeds "eval") never
// uses: one level (synth.ts's "legacy" or one of synth-hard.ts's), photos made once and cached in /tmp, top-1 and no_match, the
// non-card no_match rate, and a diagnosis of each miss (the outline found vs the true one).
//   npx tsx bench/tune-identify.ts --level legacy|easy|medium|hard --photos 100 --noncards 100
//     [--seeds tune] [--verbose] [--only 3,17] [--without glare|fingers] [--dump file.json]
// --without makes the same photos without that defect (what it costs); --dump writes each
// photo's best and next distance, for choosing the no-match rule's thresholds offline.
// Needs the index built (npm run job -- vision-index) against the configured database.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { OpenIndex } from "@/lib/vision/index-file";
import type { Quad } from "@/lib/vision/outline";
import { nonCardPhoto } from "./noncard";

const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1]! : dflt;
};
const level = arg("level", "hard") as "legacy" | "easy" | "medium" | "hard";
const photos = Number(arg("photos", "100"));
const noncards = Number(arg("noncards", "100"));
const seeds = arg("seeds", "tune");
const verbose = process.argv.includes("--verbose");
const without = process.argv.includes("--without") ? (arg("without", "") as "glare" | "fingers") : undefined;
const cache = path.join("/tmp/tune-identify", `${seeds}-${level}${without ? `-without-${without}` : ""}`);

async function cached(name: string, make: () => Promise<Buffer>): Promise<Buffer> {
  const file = path.join(cache, name);
  try {
    return await readFile(file);
  } catch {
    const b = await make();
    await writeFile(file, b);
    return b;
  }
}

/** The right card's coarse rank and artwork distance, and the best other artwork's, read through the true outline. */
async function oracle(idx: OpenIndex, photo: Buffer, quad: Quad, id: string): Promise<string> {
  const sharp = (await import("sharp")).default;
  const { describe, fineDistance, sampleRegion } = await import("@/lib/vision/describe");
  const { nearest } = await import("@/lib/vision/search");
  const { turned } = await import("@/lib/vision/identify");
  const { data, info } = await sharp(photo).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const rgb = { data, w: info.width, h: info.height };
  const row = idx.meta.ids.indexOf(id);
  const art = idx.meta.art!;
  let right = Infinity;
  let coarseRank = Infinity;
  let other = Infinity;
  for (const q of [quad, turned(quad)]) {
    const d = describe(sampleRegion(rgb, q));
    right = Math.min(right, fineDistance(d.fine, await idx.fine(row), 0, d.white));
    const ranked = nearest(idx.coarse, d.coarse, 400);
    const at = ranked.findIndex((h) => art[h.row] === art[row]);
    if (at >= 0) coarseRank = Math.min(coarseRank, at);
    // The rows identify.ts would re-rank (SHORTLIST × 2).
    for (const h of ranked.slice(0, 48)) {
      if (art[h.row] === art[row]) continue;
      other = Math.min(other, fineDistance(d.fine, await idx.fine(h.row), 0, d.white));
    }
  }
  return `coarse rank ${coarseRank} right ${right.toFixed(3)} other ${other.toFixed(3)} ratio ${(right / other).toFixed(2)}`;
}

/** How far the outline found lies from the true one: its worst corner's distance to the nearest true corner, in pixels. */
const offBy = (found: Quad, truth: Quad) => Math.max(...found.map((p) => Math.min(...truth.map((t) => Math.hypot(p.x - t.x, p.y - t.y)))));

async function main() {
  await mkdir(cache, { recursive: true });
  const { faceRow } = await import("@/lib/images/queries/images");
  const { renderFace, seeded } = await import("@/lib/vision/render");
  const { withPrinting } = await import("@/lib/vision/art");
  const { hardPhoto } = await import("@/lib/vision/synth-hard");
  const { identifyPhoto } = await import("@/lib/vision/identify");
  const { synthPhoto } = await import("@/lib/vision/synth");
  const { visionIndex } = await import("@/lib/vision/search");
  const idx = (await visionIndex())!;
  const ids = idx.meta.ids;
  const pick = seeded(`${seeds}:cards`);
  const dump: { kind: string; right: boolean | undefined; best?: number; next?: number }[] = [];
  let top1 = 0;
  let none = 0;
  const ms: number[] = [];
  const nonMs: number[] = [];
  const only = process.argv.includes("--only") ? new Set(arg("only", "").split(",").map(Number)) : null;
  for (let i = 0; i < photos; i++) {
    const id = ids[Math.floor(pick() * ids.length)]!;
    if (only && !only.has(i)) continue;
    const photo = await cached(`${i}.jpg`, async () => {
      const face = await renderFace(await withPrinting((await faceRow(id))!));
      const made = level === "legacy" ? await synthPhoto(face, { seed: `${seeds}:${i}` }) : await hardPhoto(face, `${seeds}:${i}`, level, without);
      await writeFile(path.join(cache, `${i}.quad.json`), JSON.stringify(made.quad));
      return made.photo;
    });
    const quad = JSON.parse(await readFile(path.join(cache, `${i}.quad.json`), "utf8")) as Quad;
    const t = performance.now();
    const r = await identifyPhoto(photo, 5);
    ms.push(performance.now() - t);
    const rank = r.noMatch ? -1 : r.candidates.findIndex((c) => c.id === id);
    if (rank === 0) top1++;
    const next = r.candidates.find((c) => !c.sharesArtwork)?.distance;
    // Right when the best artwork is the card's, whichever of its printings the line chose.
    dump.push({ kind: "card", right: r.candidates.some((c) => c.id === id && c.sharesArtwork), best: r.candidates[0]?.distance, next });
    if (r.noMatch) none++;
    if (verbose && rank !== 0) {
      console.log(`${seeds}:${i} ${id} ${r.noMatch ? "no_match" : `rank ${rank}`} best ${r.candidates[0]?.id} ${r.candidates[0]?.distance} next ${next} outline ${r.outline ? `off ${offBy(r.outline, quad).toFixed(0)} px` : "none"} | true outline: ${await oracle(idx, photo, quad, id)}`);
    }
  }
  let rejected = 0;
  for (let i = 0; i < noncards; i++) {
    const photo = await cached(`noncard-${i}.jpg`, () => nonCardPhoto(`${seeds}:${i}`, i % 2 === 1));
    const t = performance.now();
    const r = await identifyPhoto(photo, 5);
    nonMs.push(performance.now() - t);
    dump.push({ kind: "noncard", right: false, best: r.candidates[0]?.distance, next: r.candidates.find((c) => !c.sharesArtwork)?.distance });
    if (r.noMatch) rejected++;
    else if (verbose) console.log(`non-card ${i} taken for ${r.candidates[0]?.id} ${r.candidates[0]?.distance}`);
  }
  const p = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * q)]?.toFixed(0);
  if (process.argv.includes("--dump")) await writeFile(arg("dump", "/tmp/tune-dump.json"), JSON.stringify(dump));
  console.log(`${seeds} ${level}: top-1 ${top1}/${photos}, no_match ${none}; non-cards rejected ${rejected}/${noncards}; p50 ${p(ms, 0.5)} ms p95 ${p(ms, 0.95)} ms; non-cards p50 ${p(nonMs, 0.5)} ms p95 ${p(nonMs, 0.95)} ms; all p95 ${p([...ms, ...nonMs], 0.95)} ms`);
  process.exit(0);
}

void main();
