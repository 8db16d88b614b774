import { buffer } from "node:stream/consumers";
import sharp from "sharp";
import { recordFailure, recordSuccess } from "@/lib/catalog/queries/jobs";
import { getDb } from "@/lib/db/client";
import { indexSources, type IndexSource } from "@/lib/images/queries/images";
import type { Progress } from "@/lib/jobs/progress";
import { storage } from "@/lib/storage";
import { COARSE_LEN, FINE, FINE_LEN, REGION, cellsOf, describe, sampleRegion, type Descriptor } from "./describe";
import { catalogPrintings, type Printing } from "./art";
import { wholeQuad } from "./outline";
import { INDEX_VERSION, openIndex, writeIndex, type IndexData } from "./index-file";
import { idText, langMark, renderFaceRegion } from "./render";

// Builds the identification index from whatever faces exist: a card's real image (download or
// scan) when it has one, its rendered face otherwise. Incremental: a card whose source is
// unchanged keeps its descriptor, so after an images run only the new images are described.
// A rendered face's source is its art seed (art.ts): cards sharing an illustration are
// described once, and a card whose seed changed is described again. Each row also records its
// artwork group and printed line, which identify reads to tell apart cards that share art.

export type IndexBuild = { cards: number; described: number; kept: number; real: number; failed: number; seconds: number; bytes: number };

/** A rendered face's stamp: its art seed, hashed (FNV-1a) to keep the file's header small. */
const artStamp = (seed: string) => {
  let h = 2166136261;
  for (let i = 0; i < seed.length; i++) h = Math.imul(h ^ seed.charCodeAt(i), 16777619);
  let g = 5381;
  for (let i = 0; i < seed.length; i++) g = (Math.imul(g, 33) ^ seed.charCodeAt(i)) >>> 0;
  return `art2:${(h >>> 0).toString(16)}${g.toString(16)}`;
};
const isArt = (stamp: string) => stamp.startsWith("art");

/** A stored face (the whole card, edge to edge) described. */
export async function describeFaceImage(bytes: Buffer): Promise<Descriptor> {
  const { data, info } = await sharp(bytes, { failOn: "error" }).rotate().resize({ width: 320 }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const [w, h] = [info.width, info.height];
  return describe(sampleRegion({ data, w, h }, wholeQuad(w, h)));
}

/** A rendered face described: only the described region is drawn (`artSeed`: art.ts, the card's id for art of its own). */
export async function describeRenderedFace(artSeed: string): Promise<Descriptor> {
  const [w, h] = [FINE.w * 4, FINE.h * 4];
  return describe(cellsOf({ data: await renderFaceRegion(artSeed, REGION, w, h), w, h }));
}

async function describeSource(s: IndexSource, seed: string, rendered: Map<string, Promise<Descriptor>>): Promise<{ d: Descriptor; stamp: string }> {
  if (s.storage_key && s.sha256) {
    try {
      const obj = await (await storage()).get(s.storage_key);
      if (obj) return { d: await describeFaceImage(await buffer(obj.body)), stamp: s.sha256 };
    } catch {
      // An unreadable stored file: the rendered face stands in until the images job replaces it.
    }
  }
  let d = rendered.get(seed);
  if (!d) rendered.set(seed, (d = describeRenderedFace(seed)));
  return { d: await d, stamp: artStamp(seed) };
}

export async function buildVisionIndex(p: Progress, opts: { full?: boolean; concurrency?: number; share?: (done: number) => void } = {}): Promise<IndexBuild> {
  const started = Date.now();
  const db = await getDb();
  try {
    const [sources, printed] = await Promise.all([indexSources(), catalogPrintings()]);
    const printing = (id: string): Printing => printed.get(id) ?? { art: id, code: id, number: "", total: null, lang: "EN" };
    let prev = opts.full ? null : await openIndex().catch(() => null);
    if (prev && prev.meta.version !== INDEX_VERSION) {
      await prev.close();
      prev = null;
    }
    const prevRow = new Map<string, number>();
    prev?.meta.ids.forEach((id, row) => prevRow.set(id, row));
    const prevFine = prev ? await prev.allFine() : null;
    const n = sources.length;
    const data: IndexData = {
      meta: {
        version: INDEX_VERSION, region: REGION, fine: FINE, built_at: "", build_seconds: 0, ids: sources.map((s) => s.id), stamps: new Array(n).fill(""), real: 0,
        art: [], lines: sources.map((s) => {
          const p = printing(s.id);
          return `${idText({ code: p.code, set_code: p.code, number: p.number, total: p.total })}\t${langMark(p)}`;
        }),
      },
      coarse: new Int8Array(n * COARSE_LEN),
      fine: new Int8Array(n * FINE_LEN),
    };
    // Artwork groups: one number per art seed (a card with a real image of its own is its own group).
    const groupOf = new Map<string, number>();
    data.meta.art = sources.map((s) => {
      const key = s.sha256 ? `img:${s.id}` : printing(s.id).art;
      let g = groupOf.get(key);
      if (g === undefined) groupOf.set(key, (g = groupOf.size));
      return g;
    });
    const rendered = new Map<string, Promise<Descriptor>>();
    const result: IndexBuild = { cards: n, described: 0, kept: 0, real: 0, failed: 0, seconds: 0, bytes: 0 };
    p.phase("describing faces");
    let next = 0;
    await Promise.all(Array.from({ length: opts.concurrency ?? 4 }, async () => {
      while (next < n) {
        const k = next++;
        const s = sources[k]!;
        const seed = printing(s.id).art;
        const wanted = s.sha256 ?? artStamp(seed);
        const old = prevRow.get(s.id);
        if (prev && prevFine && old !== undefined && prev.meta.stamps[old] === wanted) {
          data.coarse.set(prev.coarse.subarray(old * COARSE_LEN, (old + 1) * COARSE_LEN), k * COARSE_LEN);
          data.fine.set(prevFine.subarray(old * FINE_LEN, (old + 1) * FINE_LEN), k * FINE_LEN);
          data.meta.stamps[k] = wanted;
          result.kept++;
        } else {
          const { d, stamp } = await describeSource(s, seed, rendered);
          data.coarse.set(d.coarse, k * COARSE_LEN);
          data.fine.set(d.fine, k * FINE_LEN);
          data.meta.stamps[k] = stamp;
          if (stamp !== wanted) result.failed++;
          result.described++;
        }
        p.tick();
        if (k % 100 === 0) opts.share?.(k / n);
      }
    }));
    await prev?.close();
    data.meta.real = data.meta.stamps.filter((s) => !isArt(s)).length;
    result.real = data.meta.real;
    result.seconds = (Date.now() - started) / 1000;
    data.meta.built_at = new Date().toISOString();
    data.meta.build_seconds = result.seconds;
    result.bytes = await writeIndex(data);
    await recordSuccess(db, "vision-index", { cards: n, described: result.described, real: result.real });
    return result;
  } catch (err) {
    await recordFailure(db, "vision-index", (err as Error).message, false);
    throw err;
  }
}
