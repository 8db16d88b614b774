import { buffer } from "node:stream/consumers";
import sharp from "sharp";
import { recordFailure, recordSuccess } from "@/lib/catalog/queries/jobs";
import { getDb } from "@/lib/db/client";
import { indexSources, type IndexSource } from "@/lib/images/queries/images";
import type { Progress } from "@/lib/jobs/progress";
import { storage } from "@/lib/storage";
import { COARSE_LEN, FINE, FINE_LEN, REGION, cellsOf, describe, sampleRegion, type Descriptor } from "./describe";
import { openIndex, writeIndex, type IndexData } from "./index-file";
import { renderFaceRegion } from "./render";

// Builds the identification index from whatever faces exist: a card's real image (download or
// scan) when it has one, its rendered face otherwise. Incremental: a card whose source is
// unchanged keeps its descriptor, so after an images run only the new images are described.

export type IndexBuild = { cards: number; described: number; kept: number; real: number; failed: number; seconds: number; bytes: number };

const ART = "art";

/** A stored face (the whole card, edge to edge) described. */
export async function describeFaceImage(bytes: Buffer): Promise<Descriptor> {
  const { data, info } = await sharp(bytes, { failOn: "error" }).rotate().resize({ width: 320 }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const [w, h] = [info.width, info.height];
  return describe(sampleRegion({ data, w, h }, [{ x: 0, y: 0 }, { x: w, y: 0 }, { x: w, y: h }, { x: 0, y: h }]));
}

/** A rendered face described: only the described region is drawn. */
export async function describeRenderedFace(cardId: string): Promise<Descriptor> {
  const [w, h] = [FINE.w * 4, FINE.h * 4];
  return describe(cellsOf({ data: await renderFaceRegion(cardId, REGION, w, h), w, h }));
}

async function describeSource(s: IndexSource): Promise<{ d: Descriptor; stamp: string }> {
  if (s.storage_key && s.sha256) {
    try {
      const obj = await (await storage()).get(s.storage_key);
      if (obj) return { d: await describeFaceImage(await buffer(obj.body)), stamp: s.sha256 };
    } catch {
      // An unreadable stored file: the rendered face stands in until the images job replaces it.
    }
  }
  return { d: await describeRenderedFace(s.id), stamp: ART };
}

export async function buildVisionIndex(p: Progress, opts: { full?: boolean; concurrency?: number; share?: (done: number) => void } = {}): Promise<IndexBuild> {
  const started = Date.now();
  const db = await getDb();
  try {
    const sources = await indexSources();
    const prev = opts.full ? null : await openIndex().catch(() => null);
    const prevRow = new Map<string, number>();
    prev?.meta.ids.forEach((id, row) => prevRow.set(id, row));
    const prevFine = prev ? await prev.allFine() : null;
    const n = sources.length;
    const data: IndexData = {
      meta: { version: 1, region: REGION, fine: FINE, built_at: "", build_seconds: 0, ids: sources.map((s) => s.id), stamps: new Array(n).fill(ART), real: 0 },
      coarse: new Int8Array(n * COARSE_LEN),
      fine: new Int8Array(n * FINE_LEN),
    };
    const result: IndexBuild = { cards: n, described: 0, kept: 0, real: 0, failed: 0, seconds: 0, bytes: 0 };
    p.phase("describing faces");
    let next = 0;
    await Promise.all(Array.from({ length: opts.concurrency ?? 4 }, async () => {
      while (next < n) {
        const k = next++;
        const s = sources[k]!;
        const wanted = s.sha256 ?? ART;
        const old = prevRow.get(s.id);
        if (prev && prevFine && old !== undefined && prev.meta.stamps[old] === wanted) {
          data.coarse.set(prev.coarse.subarray(old * COARSE_LEN, (old + 1) * COARSE_LEN), k * COARSE_LEN);
          data.fine.set(prevFine.subarray(old * FINE_LEN, (old + 1) * FINE_LEN), k * FINE_LEN);
          data.meta.stamps[k] = wanted;
          result.kept++;
        } else {
          const { d, stamp } = await describeSource(s);
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
    data.meta.real = data.meta.stamps.filter((s) => s !== ART).length;
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
