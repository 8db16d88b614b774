import { createHash } from "node:crypto";
import { createReadStream, existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { createGunzip } from "node:zlib";
import { sql } from "drizzle-orm";
import { getDb, rows } from "@/lib/db/client";
import { recordFailure, recordSuccess } from "@/lib/catalog/queries/jobs";
import { bumpCatalogVersion } from "@/lib/catalog/queries/sync";
import type { Progress } from "@/lib/jobs/progress";
import { parseLine, type Observation } from "./feed";
import { THIRD_PARTY, type SourceCode } from "./sources";
import { rebuildDocs } from "./docs";
import { applyObservations, type Resolved } from "./store";
import { recordPriceChanges } from "./queries/index-job";
import { knownProducts } from "./queries/store";

// refresh-prices: applies every feed file not applied before (by content hash), in name
// order per source. Lines are validated whole; bad ones are counted, a few reported, skipped.

const BATCH_LINES = 20_000;
const REPORTED_ERRORS = 20;

export type FeedReport = { file: string; source: string; lines: number; applied: number; rejected: number; errors: string[]; skipped?: boolean };
export type RefreshPricesResult = { files: FeedReport[]; observations: number; series: number; products_changed: number };

type Feed = { source: Exclude<SourceCode, "INDEX">; file: string };

export function listFeeds(dir: string): Feed[] {
  const out: Feed[] = [];
  for (const source of THIRD_PARTY) {
    const sub = path.join(dir, source.toLowerCase());
    if (!existsSync(sub)) continue;
    for (const name of readdirSync(sub).filter((n) => /\.ndjson(\.gz)?$/.test(n)).sort()) {
      out.push({ source: source as Feed["source"], file: path.join(sub, name) });
    }
  }
  return out;
}

async function* lines(file: string): AsyncGenerator<string> {
  const raw = createReadStream(file);
  const input = file.endsWith(".gz") ? raw.pipe(createGunzip()) : raw;
  for await (const line of createInterface({ input, crlfDelay: Infinity })) yield line;
}

export async function refreshPrices(dir: string, p: Progress, opts: { force?: boolean } = {}): Promise<RefreshPricesResult> {
  const db = await getDb();
  const result: RefreshPricesResult = { files: [], observations: 0, series: 0, products_changed: 0 };
  try {
    for (const feed of listFeeds(dir)) {
      const sha = createHash("sha256").update(readFileSync(feed.file)).digest("hex");
      const report: FeedReport = { file: path.relative(dir, feed.file), source: feed.source, lines: 0, applied: 0, rejected: 0, errors: [] };
      const seen = await rows(sql`select 1 from price_feeds where sha256 = ${sha}`);
      if (seen.length && !opts.force) {
        result.files.push({ ...report, skipped: true });
        continue;
      }
      p.phase(`${feed.source} ${report.file}`);
      let batch: { line: number; obs: Observation[] }[] = [];
      const flush = async () => {
        const applied = await applyBatch(batch, report);
        result.observations += applied.points;
        result.series += applied.series;
        result.products_changed += applied.changed;
        batch = [];
      };
      for await (const text of lines(feed.file)) {
        report.lines++;
        if (!text.trim()) continue;
        const parsed = parseLine(feed.source, text);
        if (!parsed.ok) reject(report, report.lines, parsed.error);
        else batch.push({ line: report.lines, obs: parsed.observations });
        if (batch.length >= BATCH_LINES) await flush();
        p.tick();
      }
      if (batch.length) await flush();
      await rows(sql`insert into price_feeds (sha256, source, name, rows, rejected) values (${sha}, ${feed.source}, ${report.file}, ${report.applied}, ${report.rejected})
        on conflict (sha256) do update set applied_at = now(), rows = excluded.rows, rejected = excluded.rejected`);
      result.files.push(report);
    }
    await recordSuccess(db, "refresh-prices", { files: result.files.filter((f) => !f.skipped).length, observations: result.observations, rejected: result.files.reduce((n, f) => n + f.rejected, 0) });
    if (result.products_changed) await bumpCatalogVersion(db);
    return result;
  } catch (err) {
    await recordFailure(db, "refresh-prices", (err as Error).message, false);
    throw err;
  }
}

function reject(report: FeedReport, line: number, error: string) {
  report.rejected++;
  if (report.errors.length < REPORTED_ERRORS) report.errors.push(`line ${line}: ${error}`);
}

async function applyBatch(batch: { line: number; obs: Observation[] }[], report: FeedReport) {
  const products = await knownProducts([...new Set(batch.flatMap((b) => b.obs.map((o) => o.product)))]);
  const resolved: Resolved[] = [];
  for (const b of batch) {
    const missing = b.obs.find((o) => !products.has(o.product));
    if (missing) {
      reject(report, b.line, `unknown product ${missing.product}`);
      continue;
    }
    report.applied++;
    for (const o of b.obs) {
      const p = products.get(o.product)!;
      resolved.push({ ...o, productKind: p.kind, productId: p.id });
    }
  }
  const r = await applyObservations(resolved);
  await rebuildDocs([...new Map(resolved.map((o) => [`${o.productKind}:${o.productId}`, { kind: o.productKind, id: o.productId }])).values()]);
  await recordPriceChanges(r.changed);
  return { points: r.points, series: r.series, changed: r.changed.length };
}
