import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { recordFailure, recordSuccess } from "@/lib/catalog/queries/jobs";
import { bumpCatalogVersion } from "@/lib/catalog/queries/sync";
import { getDb } from "@/lib/db/client";
import type { Progress } from "@/lib/jobs/progress";
import { withPrinting } from "@/lib/vision/art";
import { renderFace } from "@/lib/vision/render";
import { cardsWithoutFace, dueDownloads, failDownload, faceRow, recordImageChanges } from "./queries/images";
import { storeCardFront } from "./store";

// The images job (downloads of upstream URLs, or an operator's folder of scans) and the
// render-faces job (a synthetic face for every card that has no image of its own).

const DOWNLOAD_TIMEOUT_MS = 15_000;
const MAX_BYTES = 15_000_000;

export type ImagesResult = { stored: number; failed: number; errors: string[]; seconds: number };

async function fetchImage(url: string): Promise<Buffer> {
  const res = await fetch(url, { signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS), redirect: "follow" });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  const body = Buffer.from(await res.arrayBuffer());
  if (body.length > MAX_BYTES) throw new Error(`larger than ${MAX_BYTES} bytes`);
  return body;
}

const cause = (err: unknown) => {
  const e = err as Error & { cause?: { code?: string; message?: string } };
  return e.cause?.code ?? e.cause?.message ?? e.message;
};

/**
 * Downloads the due upstream images (failures are counted, kept for a later retry with
 * backoff, and never fail the job), or with `source` stores `<card id>.<jpg|png|webp>` files.
 */
export async function refreshImages(p: Progress, opts: { source?: string; limit?: number; concurrency?: number } = {}): Promise<ImagesResult> {
  const started = Date.now();
  const db = await getDb();
  const result: ImagesResult = { stored: 0, failed: 0, errors: [], seconds: 0 };
  const fail = (id: string, err: unknown) => {
    result.failed++;
    if (result.errors.length < 20) result.errors.push(`${id}: ${cause(err)}`);
  };
  try {
    const stored: string[] = [];
    if (opts.source) {
      const files = readdirSync(opts.source).filter((f) => /\.(jpe?g|png|webp)$/i.test(f));
      p.phase(`scans from ${opts.source}`);
      for (const f of files) {
        const name = f.replace(/\.[^.]+$/, "");
        try {
          // Named by primary id; a file that names no card is reported, not stored.
          const card = await faceRow(name);
          if (!card) throw new Error("no card has this id");
          await storeCardFront(card.id, readFileSync(path.join(opts.source, f)), "scan");
          stored.push(card.id);
        } catch (err) {
          fail(name, err);
        }
        p.tick();
      }
    } else {
      p.phase("downloads");
      const due = await dueDownloads(opts.limit ?? 100_000);
      const workers = Math.max(1, opts.concurrency ?? 8);
      let next = 0;
      await Promise.all(Array.from({ length: workers }, async () => {
        while (next < due.length) {
          const d = due[next++]!;
          try {
            await storeCardFront(d.owner_id, await fetchImage(d.source_url), "upstream");
            stored.push(d.owner_id);
          } catch (err) {
            fail(d.owner_id, err);
            await failDownload(d.owner_id, cause(err));
          }
          p.tick();
        }
      }));
    }
    await recordImageChanges(stored);
    result.stored = stored.length;
    result.seconds = (Date.now() - started) / 1000;
    await recordSuccess(db, "images", { stored: result.stored, failed: result.failed });
    if (stored.length) await bumpCatalogVersion(db);
    return result;
  } catch (err) {
    await recordFailure(db, "images", (err as Error).message, false);
    throw err;
  }
}

export type RenderResult = { rendered: number; seconds: number };

/** A rendered face for every card without a stored image; `limit` bounds one run. */
export async function renderFaces(p: Progress, opts: { limit?: number } = {}): Promise<RenderResult> {
  const started = Date.now();
  const db = await getDb();
  let rendered = 0;
  let after = "";
  const limit = opts.limit ?? Number.POSITIVE_INFINITY;
  p.phase("rendering faces");
  while (rendered < limit) {
    const batch = await cardsWithoutFace(after, Math.min(200, limit - rendered));
    if (!batch.length) break;
    // Two at a time: sharp rasterises on its own threads, this machine has two cores.
    for (let i = 0; i < batch.length; i += 2) {
      await Promise.all(batch.slice(i, i + 2).map(async (c) => storeCardFront(c.id, await renderFace(await withPrinting(c), { width: 734 }), "rendered")));
      p.tick(Math.min(2, batch.length - i));
    }
    await recordImageChanges(batch.map((c) => c.id));
    rendered += batch.length;
    after = batch.at(-1)!.id;
  }
  await recordSuccess(db, "render-faces", { rendered });
  if (rendered) await bumpCatalogVersion(db);
  return { rendered, seconds: (Date.now() - started) / 1000 };
}
