import { createHash } from "node:crypto";
import { createReadStream, existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { createGunzip } from "node:zlib";
import { sql } from "drizzle-orm";
import { getDb, rows } from "@/lib/db/client";
import { vacuumAnalyze } from "@/lib/db/maintenance";
import { recordFailure, recordSuccess } from "@/lib/catalog/queries/jobs";
import { bumpCatalogVersion } from "@/lib/catalog/queries/sync";
import type { Progress } from "@/lib/jobs/progress";
import { parseLine, type Observation } from "./feed";
import { THIRD_PARTY, type SourceCode } from "./sources";
import { rebuildDocs } from "./docs";
import { applyObservations, type Resolved } from "./store";
import { recordPriceChanges } from "./queries/index-job";
import { applyHistory, isHistoryFile, parseHistoryLine, type HistoryLine, type ResolvedHistory } from "./history-feed";
import { addDays } from "./pack";
import { knownProducts } from "./queries/store";

// refresh-prices: applies every feed file not applied before (by content hash), in name
// order per source. Lines are validated whole; bad ones are counted, a few reported, skipped.

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

/**
 * `docs: false` leaves the products' quote documents to a refresh-index that runs next (it
 * rebuilds every document): written twice, each document would leave a dead copy on disk.
 */
export async function refreshPrices(dir: string, p: Progress, opts: { force?: boolean; docs?: boolean } = {}): Promise<RefreshPricesResult> {
  const db = await getDb();
  const result: RefreshPricesResult = { files: [], observations: 0, series: 0, products_changed: 0 };
  // Documents and PRICE change rows once per product and run, however many files touched it.
  const touched = new Map<string, { kind: string; id: string }>();
  const changed = new Map<string, { kind: string; id: string }>();
  const settle = async () => {
    if (opts.docs !== false) await rebuildDocs([...touched.values()]);
    await recordPriceChanges([...changed.values()]);
    result.products_changed = changed.size;
  };
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
      const applied = await applyFile(feed, report, p);
      result.observations += applied.points;
      result.series += applied.series;
      for (const c of applied.changed) changed.set(`${c.kind}:${c.id}`, c);
      for (const t of applied.touched) touched.set(`${t.kind}:${t.id}`, t);
      await rows(sql`insert into price_feeds (sha256, source, name, rows, rejected) values (${sha}, ${feed.source}, ${report.file}, ${report.applied}, ${report.rejected})
        on conflict (sha256) do update set applied_at = now(), rows = excluded.rows, rejected = excluded.rejected`);
      result.files.push(report);
    }
    p.phase("documents");
    await settle();
    if (result.observations) await vacuumAnalyze(["price_series", "price_months", "price_docs"]);
    await recordSuccess(db, "refresh-prices", { files: result.files.filter((f) => !f.skipped).length, observations: result.observations, rejected: result.files.reduce((n, f) => n + f.rejected, 0) });
    if (result.products_changed) await bumpCatalogVersion(db);
    return result;
  } catch (err) {
    // What was applied stays applied: its quotes must not wait for the next run.
    await settle().catch(() => undefined);
    await recordFailure(db, "refresh-prices", (err as Error).message, false);
    throw err;
  }
}

type Applied = { points: number; series: number; changed: { kind: string; id: string }[]; touched: { kind: string; id: string }[] };

/** One file, in batches: daily lines of the source's own shape, or history lines. */
async function applyFile(feed: Feed, report: FeedReport, p: Progress): Promise<Applied> {
  const out: Applied = { points: 0, series: 0, changed: [], touched: [] };
  const history = isHistoryFile(path.basename(feed.file));
  const tomorrow = addDays(new Date().toISOString().slice(0, 10), 1);
  let daily: { line: number; obs: Observation[] }[] = [];
  let backfill: { line: number; h: HistoryLine }[] = [];
  const flush = async () => {
    const r = history ? await applyHistoryBatch(backfill, report) : await applyBatch(daily, report);
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
async function resolveProducts<T>(batch: { line: number; refs: string[]; item: T }[], report: FeedReport) {
  const products = await knownProducts([...new Set(batch.flatMap((b) => b.refs))]);
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

async function applyBatch(batch: { line: number; obs: Observation[] }[], report: FeedReport) {
  const ok = await resolveProducts(batch.map((b) => ({ line: b.line, refs: b.obs.map((o) => o.product), item: b.obs })), report);
  const resolved: Resolved[] = ok.flatMap((b) => b.item.map((o, i) => ({ ...o, productKind: b.products[i]!.kind, productId: b.products[i]!.id })));
  const r = await applyObservations(resolved);
  return { points: r.points, series: r.series, changed: r.changed, touched: resolved.map((o) => ({ kind: o.productKind, id: o.productId })) };
}

async function applyHistoryBatch(batch: { line: number; h: HistoryLine }[], report: FeedReport) {
  const ok = await resolveProducts(batch.map((b) => ({ line: b.line, refs: [b.h.product], item: b.h })), report);
  const resolved: ResolvedHistory[] = ok.map((b) => ({ ...b.item, productKind: b.products[0]!.kind, productId: b.products[0]!.id }));
  const r = await applyHistory(resolved);
  return { ...r, touched: resolved.map((h) => ({ kind: h.productKind, id: h.productId })) };
}
