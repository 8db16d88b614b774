import { sql } from "drizzle-orm";
import {
  bigserial, boolean, date, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex,
} from "drizzle-orm/pg-core";

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "string" });

// An account owns keys, a plan and a meter. Rate and credits are per account, never per key.
export const accounts = pgTable("accounts", {
  id: text("id").primaryKey(),
  email: text("email").notNull(),
  emailConfirmedAt: ts("email_confirmed_at"),
  /** better-auth user of the dashboard; script accounts get one too, so recovery can set a password. */
  authUserId: text("auth_user_id"),
  plan: text("plan").notNull().default("trial"),
  /** active | past_due | canceled | suspended (lib/billing/sync.ts maps Stripe's states onto these) */
  status: text("status").notNull().default("active"),
  /** month | year of the Stripe subscription; a year's credits are still granted month by month. */
  billingInterval: text("billing_interval"),
  /** When the subscription's payment first failed; the API serves for a grace after it. */
  pastDueSince: ts("past_due_since"),
  /** The open invoice a past-due or suspended account is asked to pay. */
  openInvoiceUrl: text("open_invoice_url"),
  cancelAtPeriodEnd: boolean("cancel_at_period_end").notNull().default(false),
  /** A downgrade waiting for the period's end (a Stripe subscription schedule), shown to the owner. */
  scheduledPlan: text("scheduled_plan"),
  scheduledInterval: text("scheduled_interval"),
  scheduledAt: ts("scheduled_at"),
  trialStartedAt: ts("trial_started_at").notNull().defaultNow(),
  trialExpiresAt: ts("trial_expires_at"),
  periodStart: ts("period_start"),
  periodEnd: ts("period_end"),
  /** Negotiated credits per period (enterprise); null means the plan's own. */
  creditsLimit: integer("credits_limit"),
  /** The temporary Warning-based compatibility mode for page/offset (SPEC.md Versioning). */
  legacyPaging: boolean("legacy_paging").notNull().default(false),
  stripeCustomerId: text("stripe_customer_id"),
  stripeSubscriptionId: text("stripe_subscription_id"),
  createdAt: ts("created_at").notNull().defaultNow(),
  updatedAt: ts("updated_at").notNull().defaultNow(),
}, (t) => [
  uniqueIndex("accounts_email_idx").on(sql`lower(${t.email})`),
  uniqueIndex("accounts_auth_user_idx").on(t.authUserId),
  uniqueIndex("accounts_stripe_customer_idx").on(t.stripeCustomerId),
]);

// Stripe's webhook events, each applied once: a delivery takes the row's lease, applies the event
// and marks it done; a lease left by a crashed instance expires and the next delivery takes it.
export const billingEvents = pgTable("billing_events", {
  id: text("id").primaryKey(),
  type: text("type").notNull(),
  /** processing | done */
  state: text("state").notNull(),
  leaseUntil: ts("lease_until"),
  attempts: integer("attempts").notNull().default(0),
  accountId: text("account_id"),
  lastError: text("last_error"),
  receivedAt: ts("received_at").notNull().defaultNow(),
  doneAt: ts("done_at"),
});

// Secrets are never stored: the SHA-256 of the key finds it, the prefix shows it.
export const apiKeys = pgTable("api_keys", {
  id: text("id").primaryKey(),
  accountId: text("account_id").notNull().references(() => accounts.id, { onDelete: "cascade" }),
  name: text("name").notNull(),
  prefix: text("prefix").notNull(),
  hash: text("hash").notNull(),
  createdAt: ts("created_at").notNull().defaultNow(),
  lastUsedAt: ts("last_used_at"),
  /** After it the key answers 401 like an unknown one; null never expires. */
  expiresAt: ts("expires_at"),
  revokedAt: ts("revoked_at"),
}, (t) => [
  uniqueIndex("api_keys_hash_idx").on(t.hash),
  index("api_keys_account_idx").on(t.accountId),
]);

// The first answer of an Idempotency-Key, replayed for 24 hours. A secret in it (the new API key)
// is kept only encrypted with the server's secret, in secret_enc; the stored answer lacks it.
export const idempotencyKeys = pgTable("idempotency_keys", {
  scope: text("scope").notNull(),
  key: text("key").notNull(),
  requestHash: text("request_hash").notNull(),
  status: integer("status"),
  response: jsonb("response"),
  secretEnc: text("secret_enc"),
  createdAt: ts("created_at").notNull().defaultNow(),
  expiresAt: ts("expires_at").notNull(),
}, (t) => [primaryKey({ columns: [t.scope, t.key] }), index("idempotency_keys_expires_idx").on(t.expiresAt)]);

// Failed dashboard sign-ins per address: enough of them in a window lock the address's
// sign-in for that window, whatever the caller's network address.
export const signinFailures = pgTable("signin_failures", {
  id: bigserial("id", { mode: "number" }).primaryKey(),
  email: text("email").notNull(),
  at: ts("at").notNull().defaultNow(),
}, (t) => [index("signin_failures_email_idx").on(t.email, t.at)]);

// Mail is written here in the transaction that causes it and delivered afterwards, with
// retries, so none is lost while the mail server is down.
export const emailOutbox = pgTable("email_outbox", {
  id: bigserial("id", { mode: "number" }).primaryKey(),
  toAddress: text("to_address").notNull(),
  subject: text("subject").notNull(),
  textBody: text("text_body").notNull(),
  htmlBody: text("html_body"),
  kind: text("kind").notNull(),
  accountId: text("account_id"),
  createdAt: ts("created_at").notNull().defaultNow(),
  sendAfter: ts("send_after").notNull().defaultNow(),
  sentAt: ts("sent_at"),
  attempts: integer("attempts").notNull().default(0),
  lastError: text("last_error"),
}, (t) => [index("email_outbox_pending_idx").on(t.sendAfter).where(sql`${t.sentAt} is null`)]);

// Single-use, expiring tokens of our own links (email confirmation). Stored hashed.
export const emailTokens = pgTable("email_tokens", {
  tokenHash: text("token_hash").primaryKey(),
  accountId: text("account_id").notNull().references(() => accounts.id, { onDelete: "cascade" }),
  kind: text("kind").notNull(),
  expiresAt: ts("expires_at").notNull(),
  usedAt: ts("used_at"),
  createdAt: ts("created_at").notNull().defaultNow(),
});

export const auditLog = pgTable("audit_log", {
  id: bigserial("id", { mode: "number" }).primaryKey(),
  at: ts("at").notNull().defaultNow(),
  actor: text("actor").notNull(),
  action: text("action").notNull(),
  accountId: text("account_id"),
  details: jsonb("details").$type<Record<string, unknown>>(),
  ip: text("ip"),
}, (t) => [index("audit_log_account_idx").on(t.accountId, t.at)]);

// The durable usage record: Redis holds the hot counters, this holds what was spent, per
// account, day and route. Written in batches; /v1/me/usage and the meter's rebuild read it.
export const usageLedger = pgTable("usage_ledger", {
  accountId: text("account_id").notNull(),
  /** The credit period the spending counted against (the trial, or a paid period). */
  period: text("period").notNull(),
  day: date("day", { mode: "string" }).notNull(),
  route: text("route").notNull(),
  requests: integer("requests").notNull().default(0),
  credits: integer("credits").notNull().default(0),
  refunds: integer("refunds").notNull().default(0),
  newCards: integer("new_cards").notNull().default(0),
}, (t) => [primaryKey({ columns: [t.accountId, t.period, t.day, t.route] })]);

// Distinct cards an account retrieved in a period: exact, so the allowance survives Redis.
export const accountCards = pgTable("account_cards", {
  accountId: text("account_id").notNull(),
  period: text("period").notNull(),
  cardId: text("card_id").notNull(),
}, (t) => [primaryKey({ columns: [t.accountId, t.period, t.cardId] })]);
