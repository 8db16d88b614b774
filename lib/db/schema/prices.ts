import { sql } from "drizzle-orm";
import {
  customType, date, doublePrecision, index, integer, json, pgTable, primaryKey, serial, text, timestamp, uniqueIndex, uuid,
} from "drizzle-orm/pg-core";

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => "bytea" });

/** A series' newest points, newest first: what current quotes read, the delay rule included. */
export type RecentPoint = { as_of: string; amount: number; sample_n: number | null; observed_at: string };
/**
 * How a recent point is stored: [as_of, amount, sample_n], plus observed_at only when it is not
 * the start of as_of (the usual case), which keeps a series row small (lib/prices/queries/recent.ts).
 */
export type StoredPoint = [string, number, number | null] | [string, number, number | null, string];

// One row per price series: one product's figures from one source in one variant, basis,
// currency, locale, condition, printing and grade. `key_hash` is the md5 of those fields
// joined, so a feed row finds its series with one unique lookup on 16 bytes.
export const priceSeries = pgTable("price_series", {
  id: serial("id").primaryKey(),
  keyHash: uuid("key_hash").notNull(),
  productKind: text("product_kind").notNull(), // card | sealed
  productId: text("product_id").notNull(),
  source: text("source").notNull(),
  variant: text("variant").notNull(),
  basis: text("basis").notNull(),
  currency: text("currency").notNull(),
  locale: text("locale"),
  condition: text("condition"),
  printing: text("printing"),
  gradingCompany: text("grading_company"),
  gradingScore: text("grading_score"),
  provenance: text("provenance").notNull(),
  // json, not jsonb: the three points as text are half the size, and they are only ever read whole.
  recent: json("recent").$type<StoredPoint[]>().notNull(),
  firstAsOf: date("first_as_of", { mode: "string" }).notNull(),
  lastAsOf: date("last_as_of", { mode: "string" }).notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
}, (t) => [
  uniqueIndex("price_series_key_hash_idx").on(t.keyHash),
  index("price_series_product_idx").on(t.productKind, t.productId),
]);

// History: one row per series and month, the month's daily amounts packed as little-endian
// float32 (NaN where the day has no point). About 6 bytes per point on disk with the row and
// its index, against ~60 for a row per point; one card's year is a dozen rows per series.
export const priceMonths = pgTable("price_months", {
  seriesId: integer("series_id").notNull(),
  /** yyyymm, e.g. 202611. */
  month: integer("month").notNull(),
  amounts: bytea("amounts").notNull(),
}, (t) => [primaryKey({ columns: [t.seriesId, t.month] })]);

// Euro foreign exchange reference rates (ECB format: units of the currency per 1 EUR).
export const fxRates = pgTable("fx_rates", {
  day: date("day", { mode: "string" }).notNull(),
  currency: text("currency").notNull(),
  perEur: doublePrecision("per_eur").notNull(),
}, (t) => [primaryKey({ columns: [t.currency, t.day] })]);

// Feed files refresh-prices has applied, by content: a file seen before is skipped.
export const priceFeeds = pgTable("price_feeds", {
  sha256: text("sha256").primaryKey(),
  source: text("source").notNull(),
  name: text("name").notNull(),
  rows: integer("rows").notNull(),
  rejected: integer("rejected").notNull(),
  appliedAt: timestamp("applied_at", { withTimezone: true, mode: "string" }).notNull().default(sql`now()`),
});

// How each product's composite index moved over each window, computed by refresh-index:
// what GET /v1/prices/movers ranks.
export const indexMoves = pgTable("index_moves", {
  window: text("window").notNull(),
  productKind: text("product_kind").notNull(),
  productId: text("product_id").notNull(),
  fromDate: date("from_date", { mode: "string" }).notNull(),
  fromEur: doublePrecision("from_eur").notNull(),
  toDate: date("to_date", { mode: "string" }).notNull(),
  toEur: doublePrecision("to_eur").notNull(),
  changePct: doublePrecision("change_pct").notNull(),
}, (t) => [
  primaryKey({ columns: [t.window, t.productKind, t.productId] }),
  index("index_moves_rank_idx").on(t.window, t.productKind, t.changePct),
]);

// The bulk files build-bulk wrote: one current file per type, replaced by each build.
export const bulkFiles = pgTable("bulk_files", {
  type: text("type").primaryKey(),
  name: text("name").notNull(),
  storageKey: text("storage_key").notNull(),
  size: integer("size").notNull(),
  sha256: text("sha256").notNull(),
  rows: integer("rows").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
});

// Every series of a product with its recent points, as one JSON text: what quotes read. A page
// of 250 cards with prices is 250 rows here instead of thousands of series rows to parse, and
// PostgreSQL compresses these texts. Rebuilt by the jobs that write series (lib/prices/docs.ts).
export const priceDocs = pgTable("price_docs", {
  productKind: text("product_kind").notNull(),
  productId: text("product_id").notNull(),
  doc: text("doc").notNull(),
}, (t) => [primaryKey({ columns: [t.productKind, t.productId] })]);
