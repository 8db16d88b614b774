import { ApiError } from "@/lib/api/errors";
import { getDb } from "@/lib/db/client";
import { TRIAL_DAYS } from "@/lib/meter/plans";
import { afterConfirmed, markConfirmed, sendConfirmation } from "./confirm";
import { newAccountId } from "./ids";
import { createKey } from "./keys";
import { insertAccount, selectAccount, selectAccountByAuthUser, selectAccountByEmail, updateAccount } from "./queries/accounts";
import type { Account } from "./types";

// Signing up: scripts get a trial key at once (POST /v1/accounts/free); persons register with
// a password for the dashboard (POST /v1/accounts/register). Both confirm their address
// through the same link. An address that has an account never gets or reveals its key.

export type SignupResult = {
  account_id: string;
  api_key: string;
  plan: "trial";
  email_confirmed: false;
  trial_expires_at: string;
  next_step: { action: "confirm_email"; message: string };
};

function accountExists(email: string): ApiError {
  return new ApiError("ACCOUNT_EXISTS", `An account already exists for ${email}. Its key is never shown again; recover access at /recover.`, {
    next_step: { action: "recover", message: "Set a password through the recovery page, then manage keys in the dashboard.", url: "/recover" },
  });
}

export async function createTrialAccount(email: string, origin: string, opts: { authUserId?: string; keyName?: string } = {}): Promise<SignupResult> {
  const db = await getDb();
  if (await selectAccountByEmail(email)) throw accountExists(email);
  const id = newAccountId();
  const trialExpiresAt = new Date(Date.now() + TRIAL_DAYS * 86_400_000).toISOString();
  let secret = "";
  try {
    await db.transaction(async (tx) => {
      await insertAccount(tx, { id, email, trialExpiresAt, authUserId: opts.authUserId ?? null });
      secret = (await createKey(id, opts.keyName ?? "default", tx)).secret;
      await sendConfirmation({ id, email: email.toLowerCase() }, origin, tx);
    });
  } catch (err) {
    // Two signups racing for one address: the unique index lets exactly one win.
    if ((err as { code?: string; cause?: { code?: string } }).code === "23505" || (err as { cause?: { code?: string } }).cause?.code === "23505") {
      throw accountExists(email);
    }
    throw err;
  }
  const account = (await selectAccount(id))!;
  return {
    account_id: id,
    api_key: secret,
    plan: "trial",
    email_confirmed: false,
    trial_expires_at: account.trialExpiresAt!,
    next_step: {
      action: "confirm_email",
      message: `Open the link we sent to ${account.email} to unlock the full trial (800 credits over 30 days). Until then the key has 50 credits.`,
    },
  };
}

/** A person: a dashboard user with a password (better-auth), and the same trial account. */
export async function registerPerson(input: { email: string; password: string; name?: string }, origin: string): Promise<SignupResult> {
  if (await selectAccountByEmail(input.email)) throw accountExists(input.email);
  const { getAuth } = await import("@/lib/auth");
  const auth = await getAuth();
  let authUserId: string;
  try {
    const res = await auth.api.signUpEmail({ body: { email: input.email.toLowerCase(), password: input.password, name: input.name ?? "" } });
    authUserId = res.user.id;
  } catch (err) {
    const code = (err as { body?: { code?: string } }).body?.code;
    if (code === "PASSWORD_TOO_SHORT" || code === "PASSWORD_TOO_LONG" || code === "INVALID_EMAIL") {
      throw new ApiError("INVALID_PARAMETER", (err as Error).message || code, { parameter: code === "INVALID_EMAIL" ? "email" : "password", reason: code });
    }
    throw err;
  }
  return createTrialAccount(input.email, origin, { authUserId, keyName: "default" });
}

export async function resendConfirmation(accountId: string, origin: string): Promise<{ sent: boolean }> {
  const account = await selectAccount(accountId);
  if (!account || account.emailConfirmedAt) return { sent: false };
  await sendConfirmation(account, origin);
  return { sent: true };
}

/** Confirms the account of a dashboard user (after a password reset proved the mailbox). */
export async function confirmByAuthUser(authUserId: string): Promise<void> {
  const account = await selectAccountByAuthUser(authUserId);
  if (!account || account.emailConfirmedAt) return;
  await markConfirmed(account.id);
}

/** The dashboard user of an account, made on demand so that recovery can set a password. */
export async function ensureDashboardUser(account: Account): Promise<string> {
  if (account.authUserId) return account.authUserId;
  const { createDashboardUser } = await import("@/lib/auth");
  const authUserId = await createDashboardUser(account.email);
  await updateAccount(account.id, { authUserId });
  if (account.emailConfirmedAt) await afterConfirmed({ ...account, authUserId });
  return authUserId;
}
