import { sql } from "drizzle-orm";
import { asJob, getDb, type Db } from "@/lib/db/client";
import { artists, cards, sealedProducts, series, sets } from "@/lib/db/schema";
import { recordFailure, recordSuccess } from "@/lib/catalog/queries/jobs";
import {
  analyzeCatalog, appendChanges, bumpCatalogVersion, rebuildCardTerms, syncImageUrls, syncTable, type ChangeRow, type SyncCounts,
} from "@/lib/catalog/queries/sync";
import type { Progress } from "@/lib/jobs/progress";
import { catalogChanged } from "@/lib/catalog/version";
import { ContractError, readUpstream } from "./read";
import { guardShrink, type Shrink } from "./shrink";
import { contentHash, transform } from "./transform";

export { ContractError } from "./read";

export type ImportResult = {
  ok: boolean;
  error?: string;
  counts: Record<string, SyncCounts>;
  images: number;
  changes: number;
  seconds: number;
  /** Tables that shrank past CATALOG_MAX_SHRINK, applied because the operator allowed it. */
  shrunk?: Shrink[];
};

export type ImportOptions = {
  /** Apply an upstream that drops more than CATALOG_MAX_SHRINK of a table (refresh-catalog --allow-shrink). */
  allowShrink?: boolean;
};

const noop: Progress = { phase() {}, tick() {}, note() {}, done() {} };

/**
 * refresh-catalog: read and validate the whole upstream folder first, then apply it in one
 * transaction. A broken upstream (one that shrinks too far included) or a failed write changes
 * nothing: the last good catalogue keeps serving and job_runs records the error for /v1/status.
 * Its statements run with the job limits wherever it is called from (the first start too).
 */
export function refreshCatalog(sourceDir: string, p: Progress = noop, db?: Db, opts: ImportOptions = {}): Promise<ImportResult> {
  return asJob(() => importCatalog(sourceDir, p, db, opts));
}

async function importCatalog(sourceDir: string, p: Progress, db: Db | undefined, opts: ImportOptions): Promise<ImportResult> {
  const started = Date.now();
  const d = db ?? (await getDb());
  const counts: Record<string, SyncCounts> = {};
  let imageWrites = 0;
  let changeCount = 0;
  let wrote = 0;
  let shrunk: Shrink[] = [];
  try {
    p.phase("read and validate");
    const upstream = await readUpstream(sourceDir, () => p.tick());
    p.phase("transform");
    const cat = transform(upstream);
    p.tick(cat.cards.length + cat.sets.length + cat.sealed.length);

    await d.transaction(async (tx) => {
      const [{ now }] = ((await tx.execute(sql`select now()::text as now`)) as unknown as { rows: [{ now: string }] }).rows;
      p.phase("compare");
      shrunk = await guardShrink(tx, cat, opts.allowShrink === true);
      const all: ChangeRow[] = [];
      const step = async <R extends Record<string, unknown>>(
        name: string, spec: Omit<Parameters<typeof syncTable<R>>[1], "now" | "hashOf" | "onRows">,
      ) => {
        p.phase(`write ${name}`);
        const res = await syncTable<R>(tx, { ...spec, now, hashOf: contentHash, onRows: (n) => p.tick(n) });
        counts[name] = res.counts;
        all.push(...res.changes);
      };
      await step("series", { table: series, key: series.id, keyOf: (r) => r.id, rows: cat.series });
      await step("sets", { table: sets, key: sets.id, keyOf: (r) => r.id, rows: cat.sets, kind: "SET" });
      await step("cards", { table: cards, key: cards.id, keyOf: (r) => r.id, rows: cat.cards, kind: "CARD" });
      await step("artists", { table: artists, key: artists.slug, keyOf: (r) => r.slug, rows: cat.artists });
      await step("sealed", { table: sealedProducts, key: sealedProducts.slug, keyOf: (r) => r.slug, rows: cat.sealed, kind: "SEALED" });
      const cardCounts = counts.cards!;
      if (cardCounts.created + cardCounts.updated + cardCounts.deleted > 0) await rebuildCardTerms(tx);
      p.phase("write images");
      const img = await syncImageUrls(tx, cat.images);
      imageWrites = img.written;
      p.tick(img.written);
      all.push(...img.changes);
      p.phase("write change log");
      await appendChanges(tx, all, now);
      p.tick(all.length);
      changeCount = all.length;
      // Series and artists log no changes of their own, but cached answers show them too.
      wrote = imageWrites + Object.values(counts).reduce((n, c) => n + c.created + c.updated + c.deleted, 0);
      if (wrote > 0) await bumpCatalogVersion(tx);
      await recordSuccess(tx, "refresh-catalog", { counts, images: imageWrites, changes: changeCount });
    });
    if (wrote > 0) {
      catalogChanged();
      await analyzeCatalog(d);
    }
    const seconds = (Date.now() - started) / 1000;
    return { ok: true, counts, images: imageWrites, changes: changeCount, seconds, ...(shrunk.length ? { shrunk } : {}) };
  } catch (err) {
    const contract = err instanceof ContractError;
    const message = contract ? `upstream contract broken: ${(err as Error).message}` : `import failed: ${(err as Error).message}`;
    await recordFailure(d, "refresh-catalog", message, contract);
    return { ok: false, error: message, counts, images: 0, changes: 0, seconds: (Date.now() - started) / 1000 };
  }
}
