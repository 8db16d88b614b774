import { z } from "zod";
import { REFERENCE } from "@/lib/catalog/reference";
import type { SourceCode } from "./sources";

// Price feeds: one NDJSON file per source and delivery, one provider record per line. An
// adapter per source turns the provider's own shape into observations (docs/price-feeds.md);
// every line is validated whole, and a bad line is counted, reported and skipped, never
// applied in part.

const day = z.iso.date();
const product = z.string().regex(/^(card|sealed):.+$/, "product must be card:<id> or sealed:<sku or slug>");
const money = z.number().positive().finite().max(10_000_000);
const count = z.number().int().min(0).nullable().optional();

/** Everything that names a series: the product and every descriptor but the figure and its day. */
export const SeriesFields = z.object({
  source: z.string(),
  product,
  variant: z.enum(REFERENCE.price_variants).exclude(["INDEX"]),
  basis: z.enum(REFERENCE.price_bases).exclude(["DERIVED"]),
  currency: z.enum(REFERENCE.currencies),
  locale: z.enum(REFERENCE.locales).nullable(),
  condition: z.enum(REFERENCE.conditions).nullable(),
  printing: z.enum(REFERENCE.printings).nullable(),
  grading: z.object({ company: z.enum(REFERENCE.grading_companies).optional(), score: z.string().min(1).max(8) }).nullable(),
  provenance: z.string().min(1).max(80),
});

export const gradedRule = [
  (o: { variant: string; grading: unknown }) => (o.variant === "MEDIAN_GRADED") === (o.grading !== null),
  { message: "graded rows are MEDIAN_GRADED, and MEDIAN_GRADED rows are graded" },
] as const;

export const Observation = SeriesFields.extend({
  amount: money,
  as_of: day,
  /** When the figure was read; the start of `as_of` (UTC) when the provider gives no time. */
  observed_at: z.iso.datetime({ offset: true }).optional(),
  sample_n: count,
}).refine(...gradedRule);
export type Observation = z.output<typeof Observation>;

/** A figure's bounds, for callers that check many figures without a schema per figure. */
export const validAmount = (v: number): boolean => Number.isFinite(v) && v > 0 && v <= 10_000_000;

const graded = (grade: string | null | undefined) => {
  if (!grade) return null;
  const m = /^([A-Z]{3})\s+(\d{1,2}(?:\.\d)?)$/.exec(grade.trim());
  // An unparseable grade is a bad line, not an ungraded figure.
  if (!m) return { company: undefined, score: "?" + grade };
  return { company: m[1] as (typeof REFERENCE.grading_companies)[number], score: m[2]! };
};

type Adapter = { line: z.ZodType; toObservations: (row: any) => unknown[] };

// Cardmarket price guide: one product, language and printing per line, EUR.
const CardmarketRow = z.object({
  product, date: day, language: z.string(), printing: z.string(), sellers: count,
  low: money.nullable().optional(), trend: money.nullable().optional(),
  avg1: money.nullable().optional(), avg7: money.nullable().optional(), avg30: money.nullable().optional(),
  provenance: z.string().optional(),
});

// TCGplayer pricing: one product and sub-type per line, USD.
const TCG_SUBTYPES: Record<string, string> = {
  Normal: "NORMAL", Holofoil: "HOLOFOIL", "Reverse Holofoil": "REVERSE_HOLO", "1st Edition": "FIRST_EDITION",
  "1st Edition Holofoil": "FIRST_EDITION_HOLOFOIL", "1st Edition Normal": "FIRST_EDITION",
};
const TcgplayerRow = z.object({
  product, date: day, subTypeName: z.enum(Object.keys(TCG_SUBTYPES) as [string, ...string[]]),
  lowPrice: money.nullable().optional(), marketPrice: money.nullable().optional(), provenance: z.string().optional(),
});

// eBay sold listings: the median of one product's sales, ungraded or one grade, USD.
const EbayRow = z.object({
  product, date: day, grade: z.string().nullable(), median_usd: money, sold_count: z.number().int().min(1),
  language: z.string().optional(), provenance: z.string().optional(),
});

// PriceCharting: guide prices in US cents, ungraded ("loose") and per grade.
const PricechartingRow = z.object({
  product, date: day, "loose-price": z.number().int().positive().nullable().optional(),
  graded: z.record(z.string(), z.number().int().positive()).optional(), "sales-volume": count, provenance: z.string().optional(),
});

// SNKRDUNK: Japanese marketplace, JPY, one product and grade per line.
const SnkrdunkRow = z.object({
  product, date: day, language: z.string(), grade: z.string().nullable(), price_jpy: z.number().int().positive(),
  lowest_ask_jpy: z.number().int().positive().nullable().optional(), trades: count, provenance: z.string().optional(),
});

const label = (row: { provenance?: string }, fallback: string) => row.provenance ?? fallback;

export const ADAPTERS: Record<Exclude<SourceCode, "INDEX">, Adapter> = {
  CARDMARKET: {
    line: CardmarketRow,
    toObservations: (r: z.output<typeof CardmarketRow>) => {
      const base = {
        source: "CARDMARKET", product: r.product, currency: "EUR", locale: r.language, condition: "NEAR_MINT", printing: r.printing,
        grading: null, as_of: r.date, sample_n: r.sellers ?? null, provenance: label(r, "Cardmarket"),
      };
      const rows: [string, string, number | null | undefined][] = [
        ["LOW", "ASKING", r.low], ["TREND", "SOLD", r.trend], ["AVG_1D", "SOLD", r.avg1], ["AVG_7D", "SOLD", r.avg7], ["AVG_30D", "SOLD", r.avg30],
      ];
      return rows.filter(([, , v]) => v != null).map(([variant, basis, amount]) => ({ ...base, variant, basis, amount }));
    },
  },
  TCGPLAYER: {
    line: TcgplayerRow,
    toObservations: (r: z.output<typeof TcgplayerRow>) => {
      const base = {
        source: "TCGPLAYER", product: r.product, currency: "USD", locale: "en", condition: "NEAR_MINT", printing: TCG_SUBTYPES[r.subTypeName],
        grading: null, as_of: r.date, sample_n: null, provenance: label(r, "TCGplayer"),
      };
      const out = [];
      if (r.lowPrice != null) out.push({ ...base, variant: "LOW", basis: "ASKING", amount: r.lowPrice });
      if (r.marketPrice != null) out.push({ ...base, variant: "MARKET", basis: "SOLD", amount: r.marketPrice });
      return out;
    },
  },
  EBAY: {
    line: EbayRow,
    toObservations: (r: z.output<typeof EbayRow>) => {
      const grading = graded(r.grade);
      return [{
        source: "EBAY", product: r.product, variant: grading ? "MEDIAN_GRADED" : "MARKET", basis: "SOLD", amount: r.median_usd, currency: "USD",
        locale: r.language ?? "en", condition: null, printing: null, grading, as_of: r.date, sample_n: r.sold_count,
        provenance: label(r, "eBay sold listings"),
      }];
    },
  },
  PRICECHARTING: {
    line: PricechartingRow,
    toObservations: (r: z.output<typeof PricechartingRow>) => {
      const base = {
        source: "PRICECHARTING", product: r.product, basis: "GUIDE", currency: "USD", locale: "en", condition: null, printing: null,
        as_of: r.date, sample_n: r["sales-volume"] ?? null, provenance: label(r, "PriceCharting"),
      };
      const out: unknown[] = [];
      if (r["loose-price"] != null) out.push({ ...base, variant: "MARKET", grading: null, amount: r["loose-price"] / 100 });
      for (const [grade, cents] of Object.entries(r.graded ?? {})) {
        out.push({ ...base, variant: "MEDIAN_GRADED", grading: graded(grade), amount: cents / 100 });
      }
      return out;
    },
  },
  SNKRDUNK: {
    line: SnkrdunkRow,
    toObservations: (r: z.output<typeof SnkrdunkRow>) => {
      const grading = graded(r.grade);
      const base = {
        source: "SNKRDUNK", product: r.product, currency: "JPY", locale: r.language, condition: grading ? null : "NEAR_MINT", printing: null,
        grading, as_of: r.date, provenance: label(r, "SNKRDUNK"),
      };
      const out: unknown[] = [{ ...base, variant: grading ? "MEDIAN_GRADED" : "MARKET", basis: "SOLD", amount: r.price_jpy, sample_n: r.trades ?? null }];
      if (!grading && r.lowest_ask_jpy != null) out.push({ ...base, variant: "LOW", basis: "ASKING", amount: r.lowest_ask_jpy, sample_n: null });
      return out;
    },
  },
  // Community reports arrive in the observation shape itself.
  COMMUNITY: { line: z.looseObject({}), toObservations: (r: Record<string, unknown>) => [{ provenance: "Community reports", ...r, source: "COMMUNITY" }] },
};

export type LineResult = { ok: true; observations: Observation[] } | { ok: false; error: string };

/** One feed line, whole or not at all. */
export function parseLine(source: Exclude<SourceCode, "INDEX">, text: string): LineResult {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, error: "not JSON" };
  }
  const adapter = ADAPTERS[source];
  const row = adapter.line.safeParse(raw);
  if (!row.success) return { ok: false, error: describe(row.error) };
  const observations: Observation[] = [];
  for (const candidate of adapter.toObservations(row.data)) {
    const o = Observation.safeParse(candidate);
    if (!o.success) return { ok: false, error: describe(o.error) };
    observations.push(o.data);
  }
  if (!observations.length) return { ok: false, error: "no figure on the line" };
  return { ok: true, observations };
}

const describe = (e: z.ZodError) => e.issues.slice(0, 3).map((i) => `${i.path.join(".") || "line"}: ${i.message}`).join("; ");

/** The series an observation belongs to: every field but the figure and its date. */
export function seriesKey(o: Pick<Observation, "source" | "product" | "variant" | "basis" | "currency" | "locale" | "condition" | "printing" | "grading">): string {
  return [o.product, o.source, o.variant, o.basis, o.currency, o.locale ?? "", o.condition ?? "", o.printing ?? "", o.grading?.company ?? "", o.grading?.score ?? ""].join("|");
}
