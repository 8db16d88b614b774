import { bigserial, boolean, index, integer, pgTable, primaryKey, smallint, text, timestamp } from "drizzle-orm/pg-core";

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "string" });

// One row per call an account's key made, kept 30 days (lib/usage/retention.ts). Written in
// batches off the request path (lib/usage/log.ts); narrow types keep a row near 100 bytes.
export const requestLog = pgTable("request_log", {
  id: bigserial("id", { mode: "number" }).primaryKey(),
  accountId: text("account_id").notNull(),
  at: ts("at").notNull(),
  keyId: text("key_id"),
  method: text("method").notNull(),
  /** The route's path template, `/v1/cards/{id}`, so calls group by route. */
  route: text("route").notNull(),
  status: smallint("status").notNull(),
  errorCode: text("error_code"),
  credits: integer("credits").notNull(),
  cardsAdded: integer("cards_added").notNull(),
  refunded: boolean("refunded").notNull(),
  /** Time to the answer, in tenths of a millisecond. */
  latency: integer("latency").notNull(),
  requestId: text("request_id").notNull(),
}, (t) => [
  index("request_log_account_idx").on(t.accountId, t.at.desc(), t.id.desc()),
  // The lookup of a request id (an error answer's, in GET /v1/me/requests), filtered to the
  // caller's account. On the id alone: the ids the API makes begin with their time
  // (lib/api/respond.ts), so every insert lands on the index's rightmost page, which PostgreSQL
  // splits to fill its pages; led by the account, each account's newest end split its pages in
  // half. In batches of 2,000 (2 million rows of 32 accounts): 47.5 bytes and 9-10 µs a row, against
  // 148 bytes and 11-12 µs with the account first, and 107 bytes and 15-22 µs for random ids. A
  // btree, not a hash index: a client may send one X-Request-Id with every call, which a hash
  // index walks as one chain on each insert (89-161 µs an insert after 200,000 of them); a btree
  // keeps such duplicates as one posting list.
  index("request_log_request_idx").on(t.requestId),
  // Only the retention's purge reads by time alone. Rows arrive in time order, so a BRIN index
  // (a few pages for the whole table) serves it at almost no cost per insert; a btree on `at`
  // cost about 13 bytes a row and 15 % of a batch's insert time.
  index("request_log_at_brin").using("brin", t.at),
]);

// The request log summed per hour, route, key and status: the analytics read this, not the
// log, so a month of a busy account is a few thousand rows. Same batches as the log.
export const usageHourly = pgTable("usage_hourly", {
  accountId: text("account_id").notNull(),
  hour: ts("hour").notNull(),
  /** Method and template: `GET /v1/cards/{id}`. */
  route: text("route").notNull(),
  /** '' for calls without a key row (none today; kept so the key is part of the primary key). */
  keyId: text("key_id").notNull(),
  status: smallint("status").notNull(),
  requests: integer("requests").notNull().default(0),
  credits: integer("credits").notNull().default(0),
  refunds: integer("refunds").notNull().default(0),
  cardsAdded: integer("cards_added").notNull().default(0),
}, (t) => [primaryKey({ columns: [t.accountId, t.hour, t.route, t.keyId, t.status] })]);

// A usage alert mailed to the owner, once per account, period and kind (credits_80,
// credits_100, cards_80, cards_100, trial_ending): the primary key is the de-duplication.
export const usageAlerts = pgTable("usage_alerts", {
  accountId: text("account_id").notNull(),
  period: text("period").notNull(),
  kind: text("kind").notNull(),
  sentAt: ts("sent_at").notNull().defaultNow(),
}, (t) => [primaryKey({ columns: [t.accountId, t.period, t.kind] })]);
