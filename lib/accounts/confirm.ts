import { sql } from "drizzle-orm";
import { getDb, type Db } from "@/lib/db/client";
import { configuredOrigin } from "@/lib/env";
import { enqueue } from "@/lib/mail/outbox";
import { announceAccountChange } from "./invalidate";
import { forgetAccount } from "./keys";
import { selectAccount, updateAccount } from "./queries/accounts";
import { issueToken, redeemToken, type Tx } from "./tokens";
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

export type ConfirmOutcome = { ok: true; account: Account } | { ok: false; reason: "invalid" | "expired" | "used" };

export async function confirmEmail(token: string): Promise<ConfirmOutcome> {
  const db = await getDb();
  const outcome = await db.transaction(async (tx) => {
    const r = await redeemToken(tx, token, "confirm");
    if (r.ok) await markConfirmed(r.accountId, tx);
    return r;
  });
  if (!outcome.ok) return outcome;
  const account = (await selectAccount(outcome.accountId))!;
  await afterConfirmed(account);
  return { ok: true, account };
}

/** Marks the address confirmed (idempotent: the first confirmation's time is kept). */
export async function markConfirmed(accountId: string, tx?: Tx | Db): Promise<void> {
  await updateAccount(accountId, { emailConfirmedAt: sql`coalesce(email_confirmed_at, now())` as never }, tx);
  forgetAccount(accountId);
}

/** A confirmed address also verifies the account's dashboard sign-in, when it has one. */
export async function afterConfirmed(account: Account): Promise<void> {
  await announceAccountChange(account.id);
  if (!account.authUserId) return;
  const { markEmailVerified } = await import("@/lib/auth");
  await markEmailVerified(account.authUserId);
}
