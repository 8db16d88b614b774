import { sql } from "drizzle-orm";
import { bigserial, boolean, check, index, integer, numeric, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "string" });

// A collector's cards (issue 14, docs/collection.md). They belong to the dashboard account of
// the session, never to an API key; every read and write names the account.
export const collectionItems = pgTable("collection_items", {
  id: bigserial("id", { mode: "number" }).primaryKey(),
  accountId: text("account_id").notNull().references(() => accounts.id, { onDelete: "cascade" }),
  cardId: text("card_id").notNull(),
  quantity: integer("quantity").notNull(),
  /** NM | LP | MP | HP | DMG */
  condition: text("condition").notNull(),
  /** One of the reference printings (NORMAL, HOLOFOIL, REVERSE_HOLO, FIRST_EDITION, FIRST_EDITION_HOLOFOIL). */
  printing: text("printing").notNull(),
  /** A reference locale: en, ja, zh, fr, de, es, it, pt, ko. */
  language: text("language").notNull(),
  /** Price paid per copy, in `currency`; null when not known. */
  pricePaid: numeric("price_paid", { precision: 12, scale: 2, mode: "number" }),
  currency: text("currency").notNull().default("EUR"),
  addedAt: ts("added_at").notNull().defaultNow(),
}, (t) => [
  index("collection_items_account_idx").on(t.accountId, t.addedAt, t.id),
  check("collection_items_quantity_check", sql`${t.quantity} between 1 and 100000`),
]);

// A price alert on one card: a mail when its composite index crosses the threshold, once per
// crossing. `armed` is the claim: the check mails only in the transaction that turns it off,
// and turns it on again when the price is back on the other side.
export const watchlist = pgTable("watchlist", {
  id: bigserial("id", { mode: "number" }).primaryKey(),
  accountId: text("account_id").notNull().references(() => accounts.id, { onDelete: "cascade" }),
  cardId: text("card_id").notNull(),
  /** above | below */
  direction: text("direction").notNull(),
  threshold: numeric("threshold", { precision: 12, scale: 2, mode: "number" }).notNull(),
  armed: boolean("armed").notNull().default(true),
  lastPrice: numeric("last_price", { precision: 12, scale: 2, mode: "number" }),
  lastAlertedAt: ts("last_alerted_at"),
  createdAt: ts("created_at").notNull().defaultNow(),
}, (t) => [
  uniqueIndex("watchlist_account_card_direction_idx").on(t.accountId, t.cardId, t.direction),
  index("watchlist_card_idx").on(t.cardId),
]);

export type CollectionItemRow = typeof collectionItems.$inferSelect;
export type WatchRow = typeof watchlist.$inferSelect;
