import { getDb } from "@/lib/db/client";
import { configuredOrigin } from "@/lib/env";
import { enqueue } from "@/lib/mail/outbox";
import { limitMail } from "./abuse";
import { afterConfirmed, markConfirmed } from "./confirm";
import { selectAccount, selectAccountByAuthUser, selectAccountByEmail, updateAccount } from "./queries/accounts";
import { clearFailures } from "./queries/signin";
import { issueToken, redeemToken, retireTokens } from "./tokens";
import type { Account } from "./types";

// Setting a dashboard password, for a person who forgot theirs and for an account a script
// created: a single-use link mailed to the account's address, and nothing else. Whoever opens
// it has proven the mailbox: only then is a dashboard user made (or its password replaced, its
// sessions ended), and the address counts as confirmed.

export const RESET_TTL_MINUTES = 60;
export const MAX_PASSWORD = 128;

/** Mails a link to the address's account, if there is one; the caller answers the same either way. */
export async function requestRecovery(email: string): Promise<void> {
  const account = await selectAccountByEmail(email);
  if (!account) return;
  if (!(await limitMail("reset_password", { email: account.email, accountId: account.id })).ok) return;
  const db = await getDb();
  await db.transaction(async (tx) => {
    await retireTokens(account.id, "reset", tx);
    const token = await issueToken(account.id, "reset", RESET_TTL_MINUTES, tx);
    await enqueue({
      to: account.email,
      subject: "Set your PokéPrice password",
      text: [
        "Someone asked to set or reset the password of this PokéPrice account. If it was you, open:",
        "",
        `${configuredOrigin()}/reset-password?token=${token}`,
        "",
        `The link works once and expires in ${RESET_TTL_MINUTES} minutes. If it was not you, ignore this mail: nothing changes.`,
      ].join("\n"),
      kind: "reset_password",
      accountId: account.id,
    }, tx);
  });
}

export type RecoveryOutcome =
  | { ok: true; email: string }
  | { ok: false; reason: "invalid" | "expired" | "used" | "password_too_short" | "password_too_long" };

export async function completeRecovery(token: string, password: string): Promise<RecoveryOutcome> {
  const { MIN_PASSWORD } = await import("@/lib/auth");
  if (password.length < MIN_PASSWORD) return { ok: false, reason: "password_too_short" };
  if (password.length > MAX_PASSWORD) return { ok: false, reason: "password_too_long" };
  const db = await getDb();
  const redeemed = await db.transaction(async (tx) => {
    const r = await redeemToken(tx, token, "reset");
    if (r.ok) {
      await markConfirmed(r.accountId, tx);
      await retireTokens(r.accountId, "reset", tx);
    }
    return r;
  });
  if (!redeemed.ok) return redeemed;
  const account = (await selectAccount(redeemed.accountId))!;
  const authUserId = await passwordFor(account, password);
  // Whoever proved the address lifts its sign-in lock: the lock's message sends them here, and
  // a stranger's guesses would otherwise keep the owner out for as long as they keep guessing.
  await clearFailures(account.email.toLowerCase());
  await afterConfirmed({ ...account, authUserId });
  return { ok: true, email: account.email };
}

/** The account's dashboard user with this password; made now when the account has none. */
async function passwordFor(account: Account, password: string): Promise<string> {
  const auth = await import("@/lib/auth");
  if (account.authUserId) {
    await auth.setPassword(account.authUserId, password);
    return account.authUserId;
  }
  // A user with the address that no account uses was made by nobody who proved the address.
  const stale = await auth.findUserByEmail(account.email);
  if (stale && !(await selectAccountByAuthUser(stale.id))) await auth.deleteUser(stale.id);
  const made = await auth.createPasswordUser({ email: account.email, password, verified: true });
  if (!made.ok) throw new Error(`a dashboard user for ${account.email} appeared while setting its password`);
  await updateAccount(account.id, { authUserId: made.userId });
  return made.userId;
}
