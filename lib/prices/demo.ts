import { createWriteStream, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { promisify } from "node:util";
import { createGzip, gzip, gzipSync, type Gzip } from "node:zlib";
import { sql } from "drizzle-orm";
import { rows } from "@/lib/db/client";
import { checkpointWhenDue } from "@/lib/db/maintenance";
import type { RecentPoint } from "@/lib/db/schema";
import type { Progress } from "@/lib/jobs/progress";
import { SLICE_MS, slicer } from "@/lib/jobs/pace";
import { contributors, headline, median, primaryLocaleOf, trialIndex, type Group, type IndexEntry, type IndexInput } from "./composite";
import { seriesKey } from "./feed";
import { parseEcbCsv, storeRates } from "./fx";
import { emptyMonth, monthKey, roundAmount, setDay } from "./pack";
import {
  baseLevel, gauss, GRADES_COMMON, GRADES_LADDER, isRare, printings, PRINTING_FACTOR, rng, walk, type DemoCard, type Rng,
} from "./demo-model";
import { upsertSeries, writeMonths, type SeriesRow } from "./queries/store";
import { RECENT_POINTS } from "./store";
import { setProductIndex, type ProductIndex } from "./queries/index-job";

// demo-prices: a year of daily feeds for the seven sources over the real catalogue. The six
// providers' days before today are written as one history file each (their back catalogue,
// one series per line), today's figures as feed files in each provider's own shape: all of it
// for refresh-prices to validate and apply. The INDEX is derived, never delivered: its past
// days are computed here on refresh-index's rule and stored as refresh-index would have
// stored them day by day; refresh-index then computes today's. Every figure says "(demo data)".

const DAY = 86_400_000;
const CURRENCIES = { USD: 1.08, JPY: 162, GBP: 0.86 } as const;

export type Def = {
  source: string; variant: string; basis: string; currency: string; locale: string | null; condition: string | null; printing: string | null;
  grade: string | null; factor: number; cadence: number; provenance: string;
};

const PROV: Record<string, string> = {
  CARDMARKET: "Cardmarket (demo data)", TCGPLAYER: "TCGplayer (demo data)", EBAY: "eBay sold listings (demo data)",
  PRICECHARTING: "PriceCharting (demo data)", SNKRDUNK: "SNKRDUNK (demo data)", COMMUNITY: "Community reports (demo data)",
};

const def = (source: string, variant: string, basis: string, currency: string, o: Partial<Def> = {}): Def => ({
  source, variant, basis, currency, locale: "en", condition: "NEAR_MINT", printing: null, grade: null, factor: 1, cadence: 1,
  provenance: PROV[source]!, ...o,
});

/** The series one card has in the demo market. */
export function cardSeries(card: DemoCard, r: Rng): Def[] {
  const out: Def[] = [];
  const asian = card.printRegion === "JP" || card.printRegion === "CN" || card.printRegion === "KR";
  const rare = isRare(card);
  if (!card.printRegion) return r() < 0.3 ? [def("COMMUNITY", "MARKET", "SOLD", "EUR", { locale: null, condition: null, cadence: 7 })] : [];
  if (asian) {
    const locale = primaryLocaleOf(card.printRegion);
    out.push(def("SNKRDUNK", "MARKET", "SOLD", "JPY", { locale }), def("SNKRDUNK", "LOW", "ASKING", "JPY", { locale, factor: 0.93 }));
    if (rare) out.push(def("SNKRDUNK", "MEDIAN_GRADED", "SOLD", "JPY", { locale, condition: null, grade: "PSA 10", factor: 3.6 }));
    if (r() < 0.5) {
      // Cardmarket re-reads Japanese and Chinese cards about every 48 hours.
      out.push(def("CARDMARKET", "TREND", "SOLD", "EUR", { locale, printing: "NORMAL", cadence: 2, factor: 1.05 }));
    }
    return out;
  }
  const prints = printings(card);
  prints.forEach((printing, i) => {
    const f = PRINTING_FACTOR[printing] ?? 1;
    out.push(def("CARDMARKET", "TREND", "SOLD", "EUR", { printing, factor: f }));
    out.push(def("TCGPLAYER", "MARKET", "SOLD", "USD", { printing, factor: f * 1.05 }));
    if (i === 0) {
      out.push(def("CARDMARKET", "LOW", "ASKING", "EUR", { printing, factor: f * 0.85 }));
      out.push(def("TCGPLAYER", "LOW", "ASKING", "USD", { printing, factor: f * 0.9 }));
      if (rare) {
        for (const [v, m] of [["AVG_1D", 1.02], ["AVG_7D", 1.0], ["AVG_30D", 0.98]] as const) {
          out.push(def("CARDMARKET", v, "SOLD", "EUR", { printing, factor: f * m }));
        }
      }
    }
  });
  // One language per card: SPEC.md gives one quote row per source, variant, printing and grade
  // (current prices rule 1), so a source does not quote a card in two languages side by side.
  // The paid plans' other locales are the Japanese and Chinese cards'.
  if (rare) {
    out.push(def("EBAY", "MARKET", "SOLD", "USD", { condition: null, factor: 1.1 }));
    out.push(def("PRICECHARTING", "MARKET", "GUIDE", "USD", { condition: null, factor: 1.08 }));
    const chase = r() < 0.01;
    for (const [grade, m] of chase ? GRADES_LADDER : GRADES_COMMON.slice(0, 2)) {
      out.push(def("EBAY", "MEDIAN_GRADED", "SOLD", "USD", { condition: null, grade, factor: m }));
      out.push(def("PRICECHARTING", "MEDIAN_GRADED", "GUIDE", "USD", { condition: null, grade, factor: m * 0.97 }));
    }
  }
  if (r() < 0.03) out.push(def("COMMUNITY", "MARKET", "SOLD", r() < 0.5 ? "GBP" : "EUR", { condition: null, cadence: 7, factor: 0.95 }));
  return out;
}

const SEALED_EUR: [RegExp, number][] = [[/case/i, 600], [/booster[-_ ]?box|display/i, 140], [/elite|etb/i, 55], [/collection|box/i, 35], [/tin/i, 22], [/blister/i, 12], [/pack|booster/i, 5]];

/**
 * The series of a sealed product: as the providers' feeds state them (lib/prices/feed.ts), so
 * that today's feed line continues the stored year: Cardmarket's and TCGplayer's lines always
 * name a printing and read as near mint; eBay's name neither.
 */
export function sealedSeries(): Def[] {
  return [
    def("CARDMARKET", "TREND", "SOLD", "EUR", { printing: "NORMAL" }), def("CARDMARKET", "LOW", "ASKING", "EUR", { printing: "NORMAL", factor: 0.88 }),
    def("TCGPLAYER", "MARKET", "SOLD", "USD", { printing: "NORMAL", factor: 1.05 }), def("EBAY", "MARKET", "SOLD", "USD", { condition: null, factor: 1.1 }),
  ];
}

/** `points`: the INDEX history stored directly; the providers' points arrive through the files. */
export type DemoResult = {
  products: number; series: number; points: number; feed_lines: number; history_lines: number; history_bytes: number; days: number; seconds: number;
};

/**
 * Paced (the embedded first start, beside a server on the same thread): products go to the
 * store 50 at a time (500 month rows a statement), the CPU work yields every SLICE_MS, PGlite
 * checkpoints when due between writes, and the feed files come in parts small enough that
 * refresh-prices applies each (one transaction) in a fraction of a second. The figures are the
 * same either way; only how many files carry them differs.
 */
export type DemoOptions = { days: number; feedsDir: string; today?: string; paced?: boolean; share?: (done: number) => void };

const PRODUCTS_PER_WRITE = 1000;
export const PACED_PRODUCTS_PER_WRITE = 50;
/** Paced history parts: about this many figures a file (50 series of a year), 10 to 200 lines. */
export const pacedHistoryLines = (days: number) => Math.min(200, Math.max(10, Math.round(18_250 / days)));
/** Paced daily parts: lines (one figure each, in the provider's shape) a file. */
export const PACED_FEED_LINES = 1_000;
const READ_PAGE = 500;

export async function generateDemo(opts: DemoOptions, p: Progress): Promise<DemoResult> {
  const started = Date.now();
  const today = opts.today ?? new Date().toISOString().slice(0, 10);
  const t0 = Date.parse(today) - (opts.days - 1) * DAY;
  const dayStr = Array.from({ length: opts.days }, (_, d) => new Date(t0 + d * DAY).toISOString().slice(0, 10));
  const fx = await demoRates(dayStr, opts.feedsDir);
  const feed = new Map<string, string[]>();
  const linesPerFile = opts.paced ? pacedHistoryLines(opts.days) : undefined;
  const history = new HistoryWriters(opts.feedsDir, dayStr[0]!, dayStr.at(-2) ?? dayStr[0]!, linesPerFile);
  const result: DemoResult = { products: 0, series: 0, points: 0, feed_lines: 0, history_lines: 0, history_bytes: 0, days: opts.days, seconds: 0 };
  const perWrite = opts.paced ? PACED_PRODUCTS_PER_WRITE : PRODUCTS_PER_WRITE;
  const slice = slicer(opts.paced ? SLICE_MS : Infinity);

  p.phase("cards");
  // In pages by id: one statement over every card's attributes held the embedded database for a second.
  const cards: DemoCard[] = [];
  for (let last = ""; ;) {
    const page = await rows<DemoCard & { id: string }>(sql`
      select id, rarity, print_region as "printRegion", release_date::text as "releaseDate", attrs->'variants' as variants
      from cards where deleted_at is null and id > ${last} order by id limit ${READ_PAGE}`);
    cards.push(...page);
    if (page.length < READ_PAGE) break;
    last = page.at(-1)!.id;
  }
  const sealed = await rows<{ slug: string; product_type: string; release_date: string | null }>(sql`
    select slug, product_type, release_date::text from sealed_products where deleted_at is null order by slug`);
  const total = cards.length + sealed.length;
  let done = 0;
  const progressed = async (n: number) => {
    p.tick(n);
    done += n;
    opts.share?.(done / total);
    if (opts.paced) await checkpointWhenDue();
  };
  for (let i = 0; i < cards.length; i += perWrite) {
    const chunk = cards.slice(i, i + perWrite).map((c) => {
      const r = rng(`demo:${c.id}`);
      return { kind: "card", id: c.id, primary: primaryLocaleOf(c.printRegion), level: baseLevel(c, r), defs: cardSeries(c, r), r };
    });
    await writeChunk(chunk, dayStr, fx, feed, history, result, slice, opts.paced);
    await progressed(chunk.length);
  }
  p.phase("sealed products");
  for (let i = 0; i < sealed.length; i += perWrite) {
    const chunk = sealed.slice(i, i + perWrite).map((s) => {
      const r = rng(`demo:sealed:${s.slug}`);
      const base = SEALED_EUR.find(([re]) => re.test(s.product_type))?.[1] ?? 20;
      const year = Number((s.release_date ?? "2022").slice(0, 4));
      const age = Math.max(1, Math.pow(1.18, Number(today.slice(0, 4)) - year));
      return { kind: "sealed", id: s.slug, primary: "en", level: base * Math.min(age, 40) * Math.exp(gauss(r) * 0.3), defs: sealedSeries(), r };
    });
    await writeChunk(chunk, dayStr, fx, feed, history, result, slice, opts.paced);
    await progressed(chunk.length);
  }
  Object.assign(result, await history.close());
  for (const [source, lines] of feed) {
    const dir = path.join(opts.feedsDir, source.toLowerCase());
    mkdirSync(dir, { recursive: true });
    // Today's demo file replaces an earlier one of the same day, in one part or in several.
    for (const old of readdirSync(dir).filter((n) => n.startsWith(`${today}.demo.`) && n.endsWith(".ndjson.gz"))) rmSync(path.join(dir, old));
    if (!opts.paced) writeFileSync(path.join(dir, `${today}.demo.ndjson.gz`), gzipSync(lines.join("\n") + "\n"));
    else {
      for (let i = 0, part = 1; i < lines.length; i += PACED_FEED_LINES, part++) {
        const name = `${today}.demo.${String(part).padStart(4, "0")}.ndjson.gz`;
        await writeFile(path.join(dir, name), await gzipAsync(lines.slice(i, i + PACED_FEED_LINES).join("\n") + "\n"));
      }
    }
    result.feed_lines += lines.length;
  }
  result.seconds = (Date.now() - started) / 1000;
  return result;
}

const gzipAsync = promisify(gzip);

type Product = { kind: string; id: string; primary: string; level: number; defs: Def[]; r: Rng };
type Fx = (currency: string, d: number) => number;

async function writeChunk(
  products: Product[], days: string[], fx: Fx, feed: Map<string, string[]>, history: HistoryWriters, result: DemoResult,
  slice: () => Promise<void> | undefined, paced?: boolean,
) {
  const series: SeriesRow[] = [];
  const months: { key: string; month: number; amounts: Buffer }[] = [];
  const heads: ProductIndex[] = [];
  const n = days.length;
  const hist = n - 1; // the last day goes out as a feed file
  for (const prod of products) {
    await slice();
    if (!prod.defs.length) continue;
    result.products++;
    const base = walk(prod.level, n, prod.r);
    // Each series: the product's walk times its factor, its own noise, in its currency, on its cadence.
    const values = prod.defs.map((d) => {
      const v = new Float64Array(n).fill(Number.NaN);
      const noise = 0.01 + prod.r() * 0.03;
      for (let t = 0; t < n; t++) {
        if (d.cadence > 1 && (n - 1 - t) % d.cadence !== 0) continue;
        const eur = base[t]! * d.factor * (1 + gauss(prod.r) * noise);
        v[t] = roundAmount(Math.max(0.01, d.currency === "EUR" ? eur : eur * fx(d.currency, t)));
        if (d.currency === "JPY") v[t] = Math.round(v[t]!);
      }
      return v;
    });
    prod.defs.forEach((d, i) => {
      history.add(d.source, historyLine(prod, d, values[i]!, days[0]!, hist));
      addFeedLine(feed, prod, d, values[i]![n - 1]!, days[n - 1]!);
    });
    result.series += prod.defs.length;
    // The index history, on the same rule as refresh-index: per day, per locale and printing,
    // the median in EUR of one figure per source (a figure read every 48 h carries over).
    const inputs: IndexInput[] = prod.defs.map((d) => ({
      source: d.source, variant: d.variant, currency: d.currency, locale: d.locale, condition: d.condition, printing: d.printing,
      graded: d.grade !== null, amount: 1, as_of: "",
    }));
    const groups = contributors(inputs);
    const indexValues = new Map<string, Float64Array>();
    const entriesAt: IndexEntry[][] = Array.from({ length: hist }, () => []);
    for (const g of groups) {
      const arr = new Float64Array(n).fill(Number.NaN);
      for (let t = 0; t < hist; t++) {
        const eur: number[] = [];
        for (const m of g.members) {
          const v = latest(values[m]!, t, prod.defs[m]!.cadence);
          if (!Number.isNaN(v)) eur.push(prod.defs[m]!.currency === "EUR" ? v : v / fx(prod.defs[m]!.currency, t));
        }
        if (!eur.length) continue;
        arr[t] = roundAmount(median(eur));
        entriesAt[t]!.push({ locale: g.locale, printing: g.printing, eur: arr[t]!, as_of: days[t]!, sample_n: eur.length });
      }
      indexValues.set(`${g.locale ?? ""}|${g.printing ?? ""}`, arr);
    }
    const headArr = new Float64Array(n).fill(Number.NaN);
    for (let t = 0; t < hist; t++) {
      const h = headline(entriesAt[t]!, prod.primary);
      if (h) headArr[t] = h.eur;
    }
    // A group that names neither locale nor printing is the headline itself.
    const indexDefs: [Def, Float64Array, number][] = groups.filter((g) => g.locale !== null || g.printing !== null).map((g) => [
      { ...def("INDEX", "INDEX", "DERIVED", "EUR", { locale: g.locale, printing: g.printing, condition: null }), provenance: "Composite index (demo data)" },
      indexValues.get(`${g.locale ?? ""}|${g.printing ?? ""}`)!, g.members.length,
    ]);
    const head = headline(entriesAt[hist - 1] ?? [], prod.primary);
    indexDefs.push([{ ...def("INDEX", "INDEX", "DERIVED", "EUR", { locale: null, condition: null }), provenance: "Composite index (demo data)" }, headArr, head?.sample_n ?? 1]);
    for (const [d, v, samples] of indexDefs) {
      const row = defRow(prod, d, v, days, hist, samples);
      if (!row) continue;
      series.push(row.series);
      months.push(...row.months);
      result.points += row.points;
    }
    const lastHead = headArr[hist - 1]!;
    if (!Number.isNaN(lastHead)) heads.push({ kind: prod.kind, id: prod.id, eur: lastHead, as_of: days[hist - 1]!, trial: trialOf(groups, indexValues, days, hist) });
  }
  result.series += series.length;
  await history.drain();
  const ids = await upsertSeries(series);
  await writeMonths(months.map((m) => ({ series_id: ids.get(m.key)!, month: m.month, amounts: m.amounts })), undefined, paced ? 500 : undefined);
  await setProductIndex(heads);
}

/**
 * The trial's index on the last day (composite.ts trialIndex), as the price routes read it from
 * the INDEX series: each one's newest point, sampled by its sources.
 */
function trialOf(groups: Group[], values: Map<string, Float64Array>, days: string[], hist: number): ProductIndex["trial"] {
  const entries: IndexEntry[] = [];
  for (const g of groups) {
    const v = values.get(`${g.locale ?? ""}|${g.printing ?? ""}`)!;
    for (let t = hist - 1; t >= 0; t--) {
      if (Number.isNaN(v[t]!)) continue;
      entries.push({ locale: g.locale, printing: g.printing, eur: v[t]!, as_of: days[t]!, sample_n: g.members.length });
      break;
    }
  }
  const trial = trialIndex(entries);
  return trial && { eur: trial.eur, as_of: trial.as_of };
}

/** The value on day t, or the one before it for a series read every `cadence` days. */
function latest(v: Float64Array, t: number, cadence: number): number {
  for (let k = t; k >= 0 && k > t - cadence; k--) if (!Number.isNaN(v[k]!)) return v[k]!;
  return Number.NaN;
}

/** A series' days before today as its provider's back catalogue sends them (docs/price-feeds.md). */
function historyLine(prod: Product, d: Def, v: Float64Array, from: string, hist: number): string | null {
  const amounts: (number | null)[] = new Array(hist);
  let any = false;
  for (let t = 0; t < hist; t++) {
    const a = v[t]!;
    amounts[t] = Number.isNaN(a) ? null : a;
    any ||= !Number.isNaN(a);
  }
  if (!any) return null;
  const grading = d.grade ? { company: d.grade.split(" ")[0], score: d.grade.split(" ")[1] } : null;
  return JSON.stringify({
    product: `${prod.kind}:${prod.id}`, variant: d.variant, basis: d.basis, currency: d.currency, locale: d.locale, condition: d.condition,
    printing: d.printing, grading, provenance: d.provenance, sample_n: 3 + Math.floor(prod.r() * 40), from, amounts,
  });
}

/**
 * One gzip history file per source (about 1 GB of JSON in all), or with `linesPerFile` a file
 * per that many lines, written as the products are generated.
 */
class HistoryWriters {
  private readonly out = new Map<string, { gz: Gzip; file: string; lines: string[]; inFile: number; part: number }>();
  private readonly files: { file: string; done: Promise<void> }[] = [];
  private lines = 0;

  constructor(private readonly dir: string, private readonly from: string, private readonly to: string, private readonly linesPerFile?: number) {}

  private open(source: string, part: number) {
    const sub = path.join(this.dir, source.toLowerCase());
    const name = this.linesPerFile
      ? `history-${this.from}-${this.to}.demo.${String(part).padStart(4, "0")}.ndjson.gz`
      : `history-${this.from}-${this.to}.demo.ndjson.gz`;
    const file = path.join(sub, name);
    const gz = createGzip();
    this.files.push({ file, done: pipeline(gz, createWriteStream(file)) });
    return { gz, file, lines: [] as string[], inFile: 0, part };
  }

  add(source: string, line: string | null): void {
    if (!line) return;
    let w = this.out.get(source);
    if (!w) {
      const sub = path.join(this.dir, source.toLowerCase());
      mkdirSync(sub, { recursive: true });
      // The demo's back catalogue is regenerated whole: an older one would only be applied again.
      for (const old of readdirSync(sub).filter((n) => /^history-.*\.demo(\.\d+)?\.ndjson\.gz$/.test(n))) rmSync(path.join(sub, old));
      this.out.set(source, (w = this.open(source, 1)));
    } else if (this.linesPerFile && w.inFile >= this.linesPerFile) {
      // The part is full: its lines go to its compressor, which finishes it; the next part begins.
      if (w.lines.length) w.gz.write(w.lines.join("\n") + "\n");
      w.gz.end();
      this.out.set(source, (w = this.open(source, w.part + 1)));
    }
    w.lines.push(line);
    w.inFile++;
    this.lines++;
  }

  /** Hands the buffered lines to the compressors, waiting while they are behind. */
  async drain(): Promise<void> {
    for (const w of this.out.values()) {
      if (!w.lines.length) continue;
      const ok = w.gz.write(w.lines.join("\n") + "\n");
      w.lines = [];
      if (!ok) await new Promise((r) => w.gz.once("drain", r));
    }
  }

  async close(): Promise<{ history_lines: number; history_bytes: number }> {
    await this.drain();
    for (const w of this.out.values()) w.gz.end();
    let bytes = 0;
    for (const f of this.files) {
      await f.done;
      bytes += statSync(f.file).size;
    }
    return { history_lines: this.lines, history_bytes: bytes };
  }
}

/** `samples`: the sample_n of every point (INDEX: sources agreeing); otherwise a plausible count. */
function defRow(prod: Product, d: Def, v: Float64Array, days: string[], hist: number, samples?: number) {
  const recent: RecentPoint[] = [];
  let first = "";
  let last = "";
  let points = 0;
  const byMonth = new Map<number, Buffer>();
  for (let t = 0; t < hist; t++) {
    const a = v[t]!;
    if (Number.isNaN(a)) continue;
    const day = days[t]!;
    const m = monthKey(day);
    let buf = byMonth.get(m);
    if (!buf) byMonth.set(m, (buf = emptyMonth(m)));
    setDay(buf, Number(day.slice(8, 10)) - 1, a);
    first ||= day;
    last = day;
    points++;
  }
  if (!points) return null;
  for (let t = hist - 1; t >= 0 && recent.length < RECENT_POINTS; t--) {
    if (!Number.isNaN(v[t]!)) recent.push({ as_of: days[t]!, amount: v[t]!, sample_n: samples ?? 3 + Math.floor(prod.r() * 40), observed_at: `${days[t]}T00:00:00Z` });
  }
  const grading = d.grade ? { company: d.grade.split(" ")[0] as never, score: d.grade.split(" ")[1]! } : null;
  const product = `${prod.kind}:${prod.id}`;
  const key = seriesKey({ product, source: d.source, variant: d.variant as never, basis: d.basis as never, currency: d.currency as never, locale: d.locale as never, condition: d.condition as never, printing: d.printing as never, grading });
  const series: SeriesRow = {
    key, product_kind: prod.kind, product_id: prod.id, source: d.source, variant: d.variant, basis: d.basis, currency: d.currency, locale: d.locale,
    condition: d.condition, printing: d.printing, grading_company: grading?.company ?? null, grading_score: grading?.score ?? null,
    provenance: d.provenance, recent, first_as_of: first, last_as_of: last,
  };
  return { series, points, months: [...byMonth].map(([month, amounts]) => ({ key, month, amounts })) };
}

/** Today's figure as its provider would send it (docs/price-feeds.md). */
function addFeedLine(feed: Map<string, string[]>, prod: Product, d: Def, amount: number, day: string) {
  if (Number.isNaN(amount)) return;
  const line = feedLine(prod, d, amount, day);
  if (!line) return;
  const lines = feed.get(d.source) ?? [];
  lines.push(JSON.stringify(line));
  feed.set(d.source, lines);
}

/**
 * A demo series' figure of `day` as its provider's feed line, null where the provider sends none
 * (SNKRDUNK's asking price). The line must read back (lib/prices/feed.ts) into the series the
 * history was stored as, or that day would begin a second series beside it.
 */
export function feedLine(prod: Pick<Product, "kind" | "id" | "r">, d: Def, amount: number, day: string): Record<string, unknown> | null {
  const product = `${prod.kind}:${prod.id}`;
  let line: Record<string, unknown>;
  switch (d.source) {
    case "CARDMARKET": {
      const field = { LOW: "low", TREND: "trend", AVG_1D: "avg1", AVG_7D: "avg7", AVG_30D: "avg30" }[d.variant]!;
      line = { product, date: day, language: d.locale, printing: d.printing ?? "NORMAL", [field]: amount, provenance: d.provenance };
      break;
    }
    case "TCGPLAYER": {
      const sub = { NORMAL: "Normal", HOLOFOIL: "Holofoil", REVERSE_HOLO: "Reverse Holofoil", FIRST_EDITION: "1st Edition", FIRST_EDITION_HOLOFOIL: "1st Edition Holofoil" }[d.printing ?? "NORMAL"]!;
      line = { product, date: day, subTypeName: sub, [d.variant === "LOW" ? "lowPrice" : "marketPrice"]: amount, provenance: d.provenance };
      break;
    }
    case "EBAY":
      line = { product, date: day, grade: d.grade, median_usd: amount, sold_count: 1 + Math.floor(prod.r() * 30), provenance: d.provenance };
      break;
    case "PRICECHARTING":
      line = d.grade
        ? { product, date: day, graded: { [d.grade]: Math.round(amount * 100) }, provenance: d.provenance }
        : { product, date: day, "loose-price": Math.round(amount * 100), provenance: d.provenance };
      break;
    case "SNKRDUNK":
      // Its feed line carries the sale price; the asking price series is history only here.
      if (d.variant === "LOW") return null;
      line = { product, date: day, language: d.locale, grade: d.grade, price_jpy: Math.round(amount), provenance: d.provenance };
      break;
    default:
      line = {
        product, variant: d.variant, basis: d.basis, amount, currency: d.currency, locale: d.locale, condition: d.condition, printing: d.printing,
        grading: null, as_of: day, sample_n: 1, provenance: d.provenance,
      };
  }
  return line;
}

/** A year of demo euro reference rates, written in the ECB's format and imported through it. */
async function demoRates(days: string[], feedsDir: string): Promise<Fx> {
  const r = rng("demo:fx");
  const series = Object.entries(CURRENCIES).map(([c, start]) => {
    let v = start;
    return [c, days.map(() => (v *= Math.exp(gauss(r) * 0.004)))] as const;
  });
  const csv = ["Date," + series.map(([c]) => c).join(",")];
  for (let t = days.length - 1; t >= 0; t--) csv.push(`${days[t]},${series.map(([c, v]) => (c === "JPY" ? v[t]!.toFixed(2) : v[t]!.toFixed(4))).join(",")}`);
  const dir = path.join(feedsDir, "fx");
  mkdirSync(dir, { recursive: true });
  const text = csv.join("\n") + "\n";
  writeFileSync(path.join(dir, "eurofxref-demo.csv"), text);
  await storeRates(parseEcbCsv(text).rates);
  const table = new Map(series.map(([c, v]) => [c, v.map((x) => Number(c === "JPY" ? x.toFixed(2) : x.toFixed(4)))]));
  return (currency, t) => table.get(currency)![t]!;
}

