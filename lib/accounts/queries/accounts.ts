import { and, eq, isNull, sql } from "drizzle-orm";
import { getDb, rows, type Db } from "@/lib/db/client";
import { iso } from "@/lib/db/sql";
import { accounts, apiKeys, auditLog } from "@/lib/db/schema";
import type { Account, KeyRecord } from "../types";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

const ACCOUNT_COLUMNS = sql`a.id, a.email, ${iso(sql`a.email_confirmed_at`)} as "emailConfirmedAt", a.plan, a.status,
  ${iso(sql`a.trial_started_at`)} as "trialStartedAt", ${iso(sql`a.trial_expires_at`)} as "trialExpiresAt",
  ${iso(sql`a.period_start`)} as "periodStart", ${iso(sql`a.period_end`)} as "periodEnd", a.credits_limit as "creditsLimit",
  a.billing_interval as "billingInterval", ${iso(sql`a.past_due_since`)} as "pastDueSince", a.open_invoice_url as "openInvoiceUrl",
  a.legacy_paging as "legacyPaging", a.auth_user_id as "authUserId", ${iso(sql`a.created_at`)} as "createdAt"`;

/** The account behind a live key, by the key's hash: one index probe. */
export async function selectByKeyHash(hash: string): Promise<{ keyId: string; lastUsedAt: string | null; expiresAt: string | null; account: Account } | undefined> {
  const [r] = await rows<Account & { keyId: string; keyLastUsedAt: string | null; keyExpiresAt: string | null }>(sql`
    select ${ACCOUNT_COLUMNS}, k.id as "keyId", ${iso(sql`k.last_used_at`)} as "keyLastUsedAt", ${iso(sql`k.expires_at`)} as "keyExpiresAt"
    from api_keys k join accounts a on a.id = k.account_id
    where k.hash = ${hash} and k.revoked_at is null`, undefined, { prepare: true });
  if (!r) return undefined;
  const { keyId, keyLastUsedAt, keyExpiresAt, ...account } = r;
  return { keyId, lastUsedAt: keyLastUsedAt, expiresAt: keyExpiresAt, account };
}

export async function selectAccount(id: string, db?: Db | Tx): Promise<Account | undefined> {
  const [r] = await rows<Account>(sql`select ${ACCOUNT_COLUMNS} from accounts a where a.id = ${id}`, db as Db);
  return r;
}

export async function selectAccountByEmail(email: string, db?: Db | Tx): Promise<Account | undefined> {
  const [r] = await rows<Account>(sql`select ${ACCOUNT_COLUMNS} from accounts a where lower(a.email) = ${email.toLowerCase()}`, db as Db);
  return r;
}

export async function selectAccountByAuthUser(authUserId: string): Promise<Account | undefined> {
  const [r] = await rows<Account>(sql`select ${ACCOUNT_COLUMNS} from accounts a where a.auth_user_id = ${authUserId}`);
  return r;
}

export async function insertAccount(tx: Tx, a: { id: string; email: string; trialExpiresAt: string; authUserId?: string | null }): Promise<void> {
  await tx.insert(accounts).values({
    id: a.id, email: a.email.toLowerCase(), trialExpiresAt: a.trialExpiresAt, authUserId: a.authUserId ?? null,
  });
}

export async function updateAccount(
  id: string,
  set: Partial<typeof accounts.$inferInsert>,
  db?: Db | Tx,
): Promise<void> {
  const d = db ?? (await getDb());
  await d.update(accounts).set({ ...set, updatedAt: sql`now()` as never }).where(eq(accounts.id, id));
}

export async function insertKey(tx: Tx | Db, k: { id: string; accountId: string; name: string; prefix: string; hash: string; expiresAt?: string | null; createdAt?: string }): Promise<void> {
  await tx.insert(apiKeys).values(k);
}

/** `db`: the transaction it reads in, when it has one (on PGlite's one connection a read outside it waits for it for ever). */
export async function selectKeys(accountId: string, db?: Tx | Db): Promise<KeyRecord[]> {
  return rows<KeyRecord>(sql`
    select id, name, prefix, ${iso(sql`created_at`)} as "createdAt", ${iso(sql`last_used_at`)} as "lastUsedAt",
           ${iso(sql`expires_at`)} as "expiresAt"
    from api_keys where account_id = ${accountId} and revoked_at is null order by created_at, id`, db as Db | undefined);
}

/** How many live keys the account holds. */
export async function countKeys(accountId: string, db?: Tx | Db): Promise<number> {
  return (await rows<{ n: number }>(sql`select count(*)::int as n from api_keys where account_id = ${accountId} and revoked_at is null`, db as Db | undefined))[0]!.n;
}

/**
 * Holds the account's keys until the transaction ends, so that a count of them and the insert it
 * allows are one step: keys asked for at once (at 48 of 50, six at once) each counted room and
 * made 51.
 */
export async function lockKeys(tx: Tx, accountId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`keys:${accountId}`}))`);
}

/** Revokes a live key of the account; false when there is none with that id. */
export async function revokeKey(tx: Tx | Db, accountId: string, keyId: string): Promise<{ hash: string } | undefined> {
  const [r] = await tx
    .update(apiKeys)
    .set({ revokedAt: sql`now()` as never })
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.accountId, accountId), isNull(apiKeys.revokedAt)))
    .returning({ hash: apiKeys.hash });
  return r;
}

export async function touchKey(keyId: string): Promise<void> {
  await rows(sql`update api_keys set last_used_at = now() where id = ${keyId}`);
}

export type AuditEntry = { id: number; at: string; actor: string; action: string; details: Record<string, unknown> | null; ip: string | null };

/** The account's audit entries newest first, from before the entry `beforeId` when given. */
export async function selectAudit(accountId: string, limit: number, beforeId?: number): Promise<AuditEntry[]> {
  return rows<AuditEntry>(sql`
    select id::int as id, ${iso(sql`at`)} as at, actor, action, details, ip
    from audit_log where account_id = ${accountId} ${beforeId === undefined ? sql`` : sql`and id < ${beforeId}`}
    order by id desc limit ${limit}`);
}

export async function insertAudit(db: Db | Tx, e: { actor: string; action: string; accountId: string | null; details?: Record<string, unknown>; ip?: string | null }) {
  await db.insert(auditLog).values({ actor: e.actor, action: e.action, accountId: e.accountId, details: e.details ?? null, ip: e.ip ?? null });
}
