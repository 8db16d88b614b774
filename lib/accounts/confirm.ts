import { sql } from "drizzle-orm";
import { getDb, type Db } from "@/lib/db/client";
import { configuredOrigin } from "@/lib/env";
import { enqueue } from "@/lib/mail/outbox";
import { announceAccountChange } from "./invalidate";
import { forgetAccount } from "./keys";
import { selectAccount, updateAccount } from "./queries/accounts";
import { issueToken, peekToken, redeemToken, type Tx } from "./tokens";
import type { Account } from "./types";

// Our own confirmation link, for script accounts and persons alike: single-use, expiring,
// stored only as a hash, pointing at the configured origin. Confirming grants the full trial
// and verifies the dashboard user.

export const CONFIRM_TTL_HOURS = 48;

export async function sendConfirmation(account: Pick<Account, "id" | "email">, tx?: Tx): Promise<void> {
  const db = tx ?? (await getDb());
  const token = await issueToken(account.id, "confirm", CONFIRM_TTL_HOURS * 60, db);
  await enqueue({
    to: account.email,
    subject: "Confirm your email for the PokéPrice API",
    text: [
      "Confirm this address to unlock the full trial: 800 credits over 30 days, photo identification and centering calls.",
      "",
      `${configuredOrigin()}/confirm-email?token=${token}`,
      "",
      `The link works once and expires in ${CONFIRM_TTL_HOURS} hours. If you did not sign up, ignore this mail.`,
    ].join("\n"),
    kind: "confirm_email",
    accountId: account.id,
  }, db);
}

export type ConfirmOutcome =
  | { ok: true; account: Account }
  | { ok: false; reason: "invalid" | "expired" | "used" | "wrong_password" };

/**
 * What a confirmation link would do, leaving it unused: the page asks for the dashboard
 * password when the account has one, and confirms only when that form is sent (a GET of the
 * link, a mail scanner's prefetch, confirms nothing).
 */
export async function inspectConfirmation(token: string): Promise<{ ok: true; account: Account } | { ok: false; reason: "invalid" | "expired" | "used" }> {
  const t = await peekToken(token, "confirm");
  if (!t.ok) return t;
  return { ok: true, account: (await selectAccount(t.accountId))! };
}

/**
 * Redeems a confirmation link: the address counts as confirmed (the full trial). A dashboard
 * password turns on only when `password` is given and is the one the account was registered
 * with: whoever registered an address may not be its owner, and the link alone (opened by the
 * owner, who did not choose that password, or by a mail scanner) must not let them in. A wrong
 * password leaves the link unused.
 */
export async function confirmEmail(token: string, opts: { password?: string } = {}): Promise<ConfirmOutcome> {
  let signIn = false;
  if (opts.password !== undefined) {
    const t = await inspectConfirmation(token);
    if (!t.ok) return t;
    const { passwordMatches } = await import("@/lib/auth");
    if (!t.account.authUserId || !(await passwordMatches(t.account.authUserId, opts.password))) return { ok: false, reason: "wrong_password" };
    signIn = true;
  }
  const db = await getDb();
  const outcome = await db.transaction(async (tx) => {
    const r = await redeemToken(tx, token, "confirm");
    if (r.ok) await markConfirmed(r.accountId, tx);
    return r;
  });
  if (!outcome.ok) return outcome;
  const account = (await selectAccount(outcome.accountId))!;
  await afterConfirmed(account, signIn);
  return { ok: true, account };
}

/**
 * Whether a confirmation link still has something to do: the address unconfirmed, or its
 * dashboard sign-in not turned on yet (the address confirmed without the password, by the API).
 */
export async function awaitsConfirmation(account: Account): Promise<boolean> {
  if (!account.emailConfirmedAt) return true;
  if (!account.authUserId) return false;
  const { findUserByEmail } = await import("@/lib/auth");
  return (await findUserByEmail(account.email))?.emailVerified === false;
}

/** Marks the address confirmed (idempotent: the first confirmation's time is kept). */
export async function markConfirmed(accountId: string, tx?: Tx | Db): Promise<void> {
  await updateAccount(accountId, { emailConfirmedAt: sql`coalesce(email_confirmed_at, now())` as never }, tx);
  forgetAccount(accountId);
}

/**
 * After a confirmation, the dashboard sign-in is verified too when `signIn` (its password was
 * proven with the link, or set through recovery's, or an operator confirmed the account).
 */
export async function afterConfirmed(account: Account, signIn = true): Promise<void> {
  await announceAccountChange(account.id);
  if (!account.authUserId || !signIn) return;
  const { markEmailVerified } = await import("@/lib/auth");
  await markEmailVerified(account.authUserId);
}
