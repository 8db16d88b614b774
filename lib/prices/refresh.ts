import { createHash } from "node:crypto";
import { createReadStream, existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { createGunzip } from "node:zlib";
import { asJob, getDb, withAdvisoryLock, type Db } from "@/lib/db/client";
import { analyzePricesPaced, checkpointWhenDue, vacuumAnalyze } from "@/lib/db/maintenance";
import { PRICE_REFRESH_LOCK } from "@/lib/changes/lock";
import { recordFailure, recordSuccess } from "@/lib/catalog/queries/jobs";
import { bumpCatalogVersion } from "@/lib/catalog/queries/sync";
import type { Progress } from "@/lib/jobs/progress";
import { trackJob } from "@/lib/jobs/running";
import { parseLine, type Observation } from "./feed";
import { THIRD_PARTY, type SourceCode } from "./sources";
import { rebuildDocs } from "./docs";
import { applyObservations, type Resolved } from "./store";
import { recordPriceChanges } from "./queries/index-job";
import { applyHistory, isHistoryFile, parseHistoryLine, type HistoryLine, type ResolvedHistory } from "./history-feed";
import { addDays } from "./pack";
import { feedApplied, knownProducts, recordFeed } from "./queries/store";

// refresh-prices: applies every feed file not applied before (by content hash), in name
// order per source. Lines are validated whole; bad ones are counted, a few reported, skipped.
// A file applies in one transaction (its points, its series and the record that it was
// applied): a run that dies mid-file leaves nothing of it, and the next run applies it whole.
// One run at a time (an advisory lock): a second waits, then finds the files applied.

const BATCH_LINES = 20_000;
// A history line holds up to years of days: fewer of them to a batch.
const HISTORY_BATCH_LINES = 2_000;
const REPORTED_ERRORS = 20;

export type FeedReport = { file: string; source: string; lines: number; applied: number; rejected: number; errors: string[]; skipped?: boolean };
export type RefreshPricesResult = { files: FeedReport[]; observations: number; series: number; products_changed: number };

type Feed = { source: Exclude<SourceCode, "INDEX">; file: string };

export function listFeeds(dir: string): Feed[] {
  const out: Feed[] = [];
  for (const source of THIRD_PARTY) {
    const sub = path.join(dir, source.toLowerCase());
    if (!existsSync(sub)) continue;
    // A source's history files first: a back catalogue comes before the days that follow it.
    const names = readdirSync(sub).filter((n) => /\.ndjson(\.gz)?$/.test(n)).sort();
    for (const name of [...names.filter(isHistoryFile), ...names.filter((n) => !isHistoryFile(n))]) {
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

export type RefreshPricesOptions = { force?: boolean; docs?: boolean; paced?: boolean; share?: (done: number) => void };

/**
 * `docs: false` leaves the products' quote documents to a refresh-index that runs next (it
 * rebuilds every document): written twice, each document would leave a dead copy on disk.
 * `paced` (the embedded first start, beside a server on the same thread, with feed files small
 * enough that each applies in a fraction of a second): PRICE changes written in small
 * transactions, a checkpoint when due between files, and ANALYZE without VACUUM at the end
 * (lib/db/maintenance.ts). `share` hears the share of the feed
 * files' bytes done.
 */
export function refreshPrices(dir: string, p: Progress, opts: RefreshPricesOptions = {}): Promise<RefreshPricesResult> {
  const waiting = () => p.note("another refresh-prices run is applying feed files: waiting for it to finish");
  return asJob(() => withAdvisoryLock(PRICE_REFRESH_LOCK, async () => {
    // Listed on /v1/status (state running, the share of the files' bytes applied) while it runs here.
    const job = trackJob("refresh-prices");
    try {
      return await applyFeeds(dir, p, { ...opts, share: (x) => (job.share(x), opts.share?.(x)) });
    } finally {
      job.end();
    }
  }, waiting));
}

async function applyFeeds(dir: string, p: Progress, opts: RefreshPricesOptions): Promise<RefreshPricesResult> {
  const db = await getDb();
  const result: RefreshPricesResult = { files: [], observations: 0, series: 0, products_changed: 0 };
  // Documents and PRICE change rows once per product and run, however many files touched it.
  const touched = new Map<string, { kind: string; id: string }>();
  const changed = new Map<string, { kind: string; id: string }>();
  const settle = async () => {
    if (opts.docs !== false) await rebuildDocs([...touched.values()]);
    await recordPriceChanges([...changed.values()], { paced: opts.paced });
    result.products_changed = changed.size;
  };
  try {
    const feeds = listFeeds(dir).map((f) => ({ ...f, bytes: statSync(f.file).size }));
    const totalBytes = feeds.reduce((n, f) => n + f.bytes, 0);
    let doneBytes = 0;
    for (const feed of feeds) {
      const sha = createHash("sha256").update(readFileSync(feed.file)).digest("hex");
      const report: FeedReport = { file: path.relative(dir, feed.file), source: feed.source, lines: 0, applied: 0, rejected: 0, errors: [] };
      const applied = await db.transaction(async (tx) => {
        const t = tx as unknown as Db;
        if (!opts.force && (await feedApplied(sha, t))) return undefined;
        p.phase(`${feed.source} ${report.file}`);
        const a = await applyFile(feed, report, p, t);
        await recordFeed({ sha256: sha, source: feed.source, name: report.file, rows: report.applied, rejected: report.rejected }, t);
        return a;
      });
      doneBytes += feed.bytes;
      opts.share?.(totalBytes ? doneBytes / totalBytes : 1);
      if (opts.paced) await checkpointWhenDue();
      if (!applied) {
        result.files.push({ ...report, skipped: true });
        continue;
      }
      // Counted once committed: a file that failed contributes no documents and no changes.
      result.observations += applied.points;
      result.series += applied.series;
      for (const c of applied.changed) changed.set(`${c.kind}:${c.id}`, c);
      for (const t of applied.touched) touched.set(`${t.kind}:${t.id}`, t);
      result.files.push(report);
    }
    p.phase("documents");
    await settle();
    if (result.observations) await (opts.paced ? analyzePricesPaced(db) : vacuumAnalyze(["price_series", "price_months", "price_docs"]));
    await recordSuccess(db, "refresh-prices", { files: result.files.filter((f) => !f.skipped).length, observations: result.observations, rejected: result.files.reduce((n, f) => n + f.rejected, 0) });
    if (result.products_changed) await bumpCatalogVersion(db);
    await import("@/lib/collection/alerts").then((m) => m.afterPriceRefresh()).catch((e) => console.error("[price-alerts]", e)); // collectors' price alerts (issue 14)
    return result;
  } catch (err) {
    // The files committed before the failure stay applied: their quotes must not wait for the next run.
    await settle().catch(() => undefined);
    await recordFailure(db, "refresh-prices", (err as Error).message, false);
    throw err;
  }
}

type Applied = { points: number; series: number; changed: { kind: string; id: string }[]; touched: { kind: string; id: string }[] };

/** One file, in batches, all on `tx`: daily lines of the source's own shape, or history lines. */
async function applyFile(feed: Feed, report: FeedReport, p: Progress, tx: Db): Promise<Applied> {
  const out: Applied = { points: 0, series: 0, changed: [], touched: [] };
  const history = isHistoryFile(path.basename(feed.file));
  const tomorrow = addDays(new Date().toISOString().slice(0, 10), 1);
  let daily: { line: number; obs: Observation[] }[] = [];
  let backfill: { line: number; h: HistoryLine }[] = [];
  const flush = async () => {
    const r = history ? await applyHistoryBatch(backfill, report, tx) : await applyBatch(daily, report, tx);
    out.points += r.points;
    out.series += r.series;
    out.changed.push(...r.changed);
    out.touched.push(...r.touched);
    daily = [];
    backfill = [];
  };
  for await (const text of lines(feed.file)) {
    report.lines++;
    if (!text.trim()) continue;
    if (history) {
      const parsed = parseHistoryLine(feed.source, text, tomorrow);
      if (!parsed.ok) reject(report, report.lines, parsed.error);
      else backfill.push({ line: report.lines, h: parsed.line });
    } else {
      const parsed = parseLine(feed.source, text);
      if (!parsed.ok) reject(report, report.lines, parsed.error);
      else daily.push({ line: report.lines, obs: parsed.observations });
    }
    if (daily.length >= BATCH_LINES || backfill.length >= HISTORY_BATCH_LINES) await flush();
    p.tick();
  }
  if (daily.length || backfill.length) await flush();
  return out;
}

function reject(report: FeedReport, line: number, error: string) {
  report.rejected++;
  if (report.errors.length < REPORTED_ERRORS) report.errors.push(`line ${line}: ${error}`);
}

/** Lines that name a product the catalogue lacks are rejected whole; the rest resolve to it. */
async function resolveProducts<T>(batch: { line: number; refs: string[]; item: T }[], report: FeedReport, tx: Db) {
  const products = await knownProducts([...new Set(batch.flatMap((b) => b.refs))], tx);
  const ok: { item: T; products: { kind: string; id: string }[] }[] = [];
  for (const b of batch) {
    const missing = b.refs.find((r) => !products.has(r));
    if (missing) {
      reject(report, b.line, `unknown product ${missing}`);
      continue;
    }
    report.applied++;
    ok.push({ item: b.item, products: b.refs.map((r) => products.get(r)!) });
  }
  return ok;
}

async function applyBatch(batch: { line: number; obs: Observation[] }[], report: FeedReport, tx: Db) {
  const ok = await resolveProducts(batch.map((b) => ({ line: b.line, refs: b.obs.map((o) => o.product), item: b.obs })), report, tx);
  const resolved: Resolved[] = ok.flatMap((b) => b.item.map((o, i) => ({ ...o, productKind: b.products[i]!.kind, productId: b.products[i]!.id })));
  const r = await applyObservations(resolved, tx);
  return { points: r.points, series: r.series, changed: r.changed, touched: resolved.map((o) => ({ kind: o.productKind, id: o.productId })) };
}

async function applyHistoryBatch(batch: { line: number; h: HistoryLine }[], report: FeedReport, tx: Db) {
  const ok = await resolveProducts(batch.map((b) => ({ line: b.line, refs: [b.h.product], item: b.h })), report, tx);
  const resolved: ResolvedHistory[] = ok.map((b) => ({ ...b.item, productKind: b.products[0]!.kind, productId: b.products[0]!.id }));
  const r = await applyHistory(resolved, tx);
  return { ...r, touched: resolved.map((h) => ({ kind: h.productKind, id: h.productId })) };
}
