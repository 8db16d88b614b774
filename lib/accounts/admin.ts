import { ApiError } from "@/lib/api/errors";
import type { Link } from "@/lib/api/list";
import { ownCursor } from "@/lib/api/paging";
import { getDb } from "@/lib/db/client";
import { meterDriver } from "@/lib/meter/driver";
import { isoDay, OPERATOR_ADJUSTMENT, record } from "@/lib/meter/ledger";
import { ensureSeeded } from "@/lib/meter/rebuild";
import type { Plan } from "@/lib/meter/costs";
import { TRIAL_DAYS } from "@/lib/meter/plans";
import { allowance, utcDay } from "@/lib/meter/policy";
import { afterConfirmed, markConfirmed } from "./confirm";
import { announceAccountChange } from "./invalidate";
import { getMe } from "./me";
import { listKeys } from "./keys";
import { keyJson } from "./present";
import { insertAudit, selectAccount, selectAudit, updateAccount } from "./queries/accounts";
import type { Account } from "./types";

// Operator actions (CONTRACT.md §6). Each one is written to the audit log with who, what and
// when, in the same transaction as the change.

export type Operator = { actor: string; note: string | null; ip: string | null };

async function load(id: string): Promise<Account> {
  const a = await selectAccount(id);
  if (!a) throw new ApiError("ACCOUNT_NOT_FOUND", `No account with id '${id}'.`, { account_id: id });
  return a;
}

async function audited(op: Operator, accountId: string, action: string, details: Record<string, unknown>, change: (tx: Parameters<Parameters<Awaited<ReturnType<typeof getDb>>["transaction"]>[0]>[0]) => Promise<void>) {
  const db = await getDb();
  await db.transaction(async (tx) => {
    await change(tx);
    await insertAudit(tx, { actor: op.actor, action, accountId, details: op.note ? { ...details, operator_note: op.note } : details, ip: op.ip });
  });
  await announceAccountChange(accountId);
}

export async function adminGetAccount(id: string) {
  const account = await load(id);
  const me = (await getMe(account)).body.data;
  const keys = await listKeys(id);
  return { body: { data: { ...me, trial_started_at: account.trialStartedAt, period_start: account.periodStart, period_end: account.periodEnd, legacy_paging: account.legacyPaging, keys: keys.map(keyJson) } } };
}

export async function adminConfirmEmail(op: Operator, id: string) {
  const account = await load(id);
  await audited(op, id, "confirm_email", { was_confirmed: !!account.emailConfirmedAt }, (tx) => markConfirmed(id, tx));
  await afterConfirmed((await selectAccount(id))!);
  return adminGetAccount(id);
}

/** A manual plan (an enterprise contract, support): a new period starts now. */
export async function adminSetPlan(op: Operator, id: string, input: { plan: Plan; resets_at?: string; credits_limit?: number | null }) {
  const before = await load(id);
  const now = new Date();
  const set: Record<string, unknown> = { plan: input.plan, status: "active" };
  // The same paid plan again only moves the current period's end (CONTRACT.md §6): what it has
  // spent stays spent. Any other change starts a period now.
  const same = input.plan !== "trial" && input.plan === before.plan && before.periodStart !== null && !periodOver(before, now);
  const resets = input.resets_at ?? (input.plan === "trial" ? null : same ? before.periodEnd : new Date(now.getTime() + 30 * 86_400_000).toISOString());
  if (input.plan !== "trial") {
    Object.assign(set, { periodStart: same ? before.periodStart : now.toISOString(), periodEnd: resets, trialExpiresAt: null });
  } else if (before.trialExpiresAt === null) {
    // Back on the trial from a paid plan (which cleared the expiry): it ends 30 days after
    // signup, as every trial does (SPEC.md Limits), maybe at once; POST .../trial moves it.
    set.trialExpiresAt = new Date(Date.parse(before.createdAt) + TRIAL_DAYS * 86_400_000).toISOString();
  }
  // A negotiated limit belongs to its plan: another plan, named without one, has its own credits.
  if (input.credits_limit !== undefined) set.creditsLimit = input.credits_limit;
  else if (input.plan !== before.plan) set.creditsLimit = null;
  await audited(op, id, "set_plan", { from: before.plan, to: input.plan, resets_at: resets, credits_limit: input.credits_limit }, (tx) =>
    updateAccount(id, set as never, tx));
  return adminGetAccount(id);
}

const periodOver = (a: Account, now: Date) => a.periodEnd !== null && Date.parse(a.periodEnd) <= now.getTime();

export async function adminSetTrial(op: Operator, id: string, input: { expires_at: string }) {
  const before = await load(id);
  await audited(op, id, "set_trial_expiry", { from: before.trialExpiresAt, to: input.expires_at }, (tx) =>
    updateAccount(id, { trialExpiresAt: input.expires_at }, tx));
  return adminGetAccount(id);
}

/**
 * Sets the current period's spent credits; the ledger records the difference so a rebuild agrees.
 * An unseeded period is rebuilt from the ledger first, or its other counters (the day's, cards,
 * trial calls) would start from nothing. The audit row is committed before Redis changes: a change
 * is never without its record.
 */
export async function adminSetCredits(op: Operator, id: string, input: { used: number }) {
  const account = await load(id);
  const a = allowance(account);
  const driver = await meterDriver();
  const day = utcDay();
  await ensureSeeded(account);
  const shown = (await driver.peek(id, a.period.key, day, [])).creditsUsed;
  await audited(op, id, "set_credits_used", { period: a.period.key, from: shown, to: input.used }, async () => {});
  const setNow = () => driver.setCredits(id, a.period.key, input.used, a.period.ttlS);
  // Redis may lose the period again between the seed and the change: seeded once more.
  const before = (await setNow()) ?? (await ensureSeeded(account).then(setNow));
  if (before === null) throw new ApiError("METER_UNAVAILABLE", "The meter keeps losing this account's counters. Retry shortly.", { retry_after_s: 5 }, { "retry-after": "5" });
  record({ accountId: id, period: a.period.key, day: isoDay(day), route: OPERATOR_ADJUSTMENT, requests: 0, credits: input.used - before, refunds: 0, newCards: 0 });
  return adminGetAccount(id);
}

export async function adminSetFlags(op: Operator, id: string, input: { legacy_paging?: boolean; status?: "active" | "canceled" | "suspended" }) {
  const before = await load(id);
  const set: Record<string, unknown> = {};
  if (input.legacy_paging !== undefined) set.legacyPaging = input.legacy_paging;
  if (input.status !== undefined) set.status = input.status;
  await audited(op, id, "set_flags", { from: { legacy_paging: before.legacyPaging, status: before.status }, to: input }, (tx) =>
    updateAccount(id, set as never, tx));
  return adminGetAccount(id);
}

/** The audit log's cursor: the last entry's id, bound to its account. */
const auditCursor = (account: string) => ownCursor<number>(
  (id) => ({ a: account, i: id }),
  (v) => (v?.a === account && Number.isSafeInteger(v.i) && v.i > 0 ? v.i : undefined),
);

/** GET /v1/admin/accounts/{account_id}/audit: the account's operator actions, newest first, paged as every list (SPEC.md Pagination). */
export async function adminAudit(id: string, q: { limit: number; cursor?: string }, link: Link) {
  await load(id);
  const cursor = auditCursor(id);
  const before = q.cursor === undefined ? undefined : cursor.decode(q.cursor);
  const found = await selectAudit(id, q.limit + 1, before);
  const data = found.slice(0, q.limit);
  const links: { next?: string } = {};
  if (found.length > q.limit) links.next = link({ limit: q.limit, cursor: cursor.encode(data.at(-1)!.id) });
  return { body: { data, meta: { limit: q.limit, count: data.length, has_more: Boolean(links.next) }, links } };
}
