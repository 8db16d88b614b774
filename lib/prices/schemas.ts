import { z } from "zod";
import { REFERENCE } from "@/lib/catalog/reference";
import { INTERVALS, WINDOWS } from "./history";
import { MOVE_WINDOWS } from "./moves";
import { SOURCE_CODES } from "./sources";

// Request and response schemas of the price routes: they validate and they write the OpenAPI document.

export const sourceParam = z.enum(SOURCE_CODES).optional().meta({ description: "Keep one source's rows (codes of GET /v1/prices/sources)." });
export const variantParam = z.enum(REFERENCE.price_variants).optional().meta({ description: "Keep one price variant." });
export const localeParam = z.enum(REFERENCE.locales).optional().meta({ description: "Keep one printing language; rows that state none are excluded." });
export const windowParam = z.enum(WINDOWS).default("30d").meta({ description: "7d, 30d, 90d or 1y, ending today." });
export const moveWindowParam = z.enum(MOVE_WINDOWS).default("30d")
  .meta({ description: "24h (the newest daily index against the day before's), 7d, 30d, 90d or 1y, ending today." });
export const intervalParam = z.enum(INTERVALS).default("day").meta({ description: "One point per day, week (ISO, Monday) or month." });

export const PricesQuery = z.strictObject({ source: sourceParam, variant: variantParam, locale: localeParam });

const Grading = z.object({ company: z.enum(REFERENCE.grading_companies).optional(), score: z.string() }).nullable();

export const QuoteObject = z.object({
  source: z.enum(SOURCE_CODES), variant: z.enum(REFERENCE.price_variants), basis: z.enum(REFERENCE.price_bases), amount: z.number(),
  currency: z.enum(REFERENCE.currencies), locale: z.enum(REFERENCE.locales).nullable(), condition: z.enum(REFERENCE.conditions).nullable(),
  printing: z.enum(REFERENCE.printings).nullable(), grading: Grading, as_of: z.iso.date(), sample_n: z.number().int().nullable(),
  provenance: z.string().meta({ description: "Printable label of the source; demo figures say '(demo data)'." }),
});

export const IndexObject = z.object({
  eur: z.number(), as_of: z.iso.date(), sample_n: z.number().int(),
  by_locale: z.array(z.object({
    locale: z.enum(REFERENCE.locales).nullable(), printing: z.enum(REFERENCE.printings).nullable(), eur: z.number(), as_of: z.iso.date(), sample_n: z.number().int(),
  })),
}).nullable().meta({ description: "Median across sources per locale and printing, in EUR; null without observations." });

const PricesMeta = z.object({
  quotes: z.number().int(), delayed_hours: z.number().int().meta({ description: "The longest source delay among the rows served." }),
  plan_notes: z.array(z.string()).meta({ description: "What the plan withheld." }),
});

export const CardPricesResponse = z.object({
  data: z.object({ card_id: z.string(), index: IndexObject, quotes: z.array(QuoteObject) }), meta: PricesMeta,
});
export const SealedPricesResponse = z.object({
  data: z.object({ sealed_id: z.string(), index: IndexObject, quotes: z.array(QuoteObject) }), meta: PricesMeta,
});
export const CurrentPricesResponse = z.object({
  data: z.array(z.object({ card_id: z.string(), index: IndexObject, quotes: z.array(QuoteObject) })),
  meta: z.object({ count: z.number().int(), missing: z.array(z.string()), quotes: z.number().int(), plan_notes: z.array(z.string()) }),
});

export const HistoryResponse = z.object({
  data: z.object({
    card_id: z.string(), window: z.enum(WINDOWS), interval: z.enum(INTERVALS), from: z.iso.date(), to: z.iso.date(),
    series: z.array(QuoteObject.omit({ amount: true, as_of: true, sample_n: true }).extend({
      points: z.array(z.object({
        date: z.iso.date(), amount: z.number(), low: z.number().optional(), high: z.number().optional(),
        days: z.number().int().optional().meta({ description: "Days behind a week or month point (absent on daily points)." }),
      })),
    })),
  }),
  meta: z.object({ series: z.number().int(), plan_notes: z.array(z.string()) }),
});

export const StatsResponse = z.object({
  data: z.object({
    card_id: z.string(), window: z.enum(WINDOWS), from: z.iso.date(), to: z.iso.date(), currency: z.literal("EUR"), source: z.literal("INDEX"),
    points: z.number().int(), low: z.number().nullable(), high: z.number().nullable(), median: z.number().nullable(), first: z.number().nullable(),
    last: z.number().nullable(), change_pct: z.number().nullable().meta({ description: "(last - first) / first, in percent." }),
    first_date: z.iso.date().nullable(), last_date: z.iso.date().nullable(),
    provenance: z.string().nullable().meta({ description: "Printable label of the index the figures come from ('(demo data)' when the demo generator made it); null without one." }),
  }),
});

export const SourcesResponse = z.object({
  data: z.array(z.object({ source: z.enum(SOURCE_CODES), label: z.string(), min_delay_hours: z.number().int(), is_own: z.boolean() })),
  count: z.number().int(),
});
