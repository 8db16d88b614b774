import { ApiError } from "@/lib/api/errors";
import { getDb } from "@/lib/db/client";
import { configuredOrigin } from "@/lib/env";
import { enqueue } from "@/lib/mail/outbox";
import { TRIAL_DAYS } from "@/lib/meter/plans";
import { limitIp, limitMail } from "./abuse";
import { awaitsConfirmation, sendConfirmation } from "./confirm";
import { claimed, withIdempotency } from "./idempotency";
import { newAccountId } from "./ids";
import { createKey } from "./keys";
import { insertAccount, selectAccount, selectAccountByAuthUser, selectAccountByEmail } from "./queries/accounts";

// Signing up: scripts get a trial key at once (POST /v1/accounts/free); persons register with a
// password for the dashboard (POST /v1/accounts/register) and make keys there once their
// address is confirmed. An address that has an account never gets or reveals its key.

export type SignupResult = {
  account_id: string;
  api_key: string;
  plan: "trial";
  email_confirmed: false;
  trial_expires_at: string;
  next_step: { action: "confirm_email"; message: string };
};

const isUniqueViolation = (err: unknown) =>
  (err as { code?: string }).code === "23505" || (err as { cause?: { code?: string } }).cause?.code === "23505";

function accountExists(email: string): ApiError {
  return new ApiError("ACCOUNT_EXISTS", `An account already exists for ${email}. Its key is never shown again; recover access at /recover.`, {
    next_step: { action: "recover", message: "Set a password through the recovery page, then manage keys in the dashboard.", url: "/recover" },
  });
}

/** The trial account, its confirmation mail and (for scripts) its first key, in one transaction. */
async function insertTrial(email: string, opts: { authUserId?: string; keyName?: string }): Promise<{ id: string; secret?: string }> {
  const db = await getDb();
  const id = newAccountId();
  let secret: string | undefined;
  await db.transaction(async (tx) => {
    await insertAccount(tx, { id, email, trialExpiresAt: new Date(Date.now() + TRIAL_DAYS * 86_400_000).toISOString(), authUserId: opts.authUserId ?? null });
    if (opts.keyName) secret = (await createKey(id, opts.keyName, tx)).secret;
    await sendConfirmation({ id, email: email.toLowerCase() }, tx);
  });
  return { id, secret };
}

export async function createTrialAccount(email: string, opts: { keyName?: string } = {}): Promise<SignupResult> {
  if (await selectAccountByEmail(email)) throw accountExists(email);
  let created: { id: string; secret?: string };
  try {
    created = await insertTrial(email, { keyName: opts.keyName ?? "default" });
  } catch (err) {
    // Two signups racing for one address: the unique index lets exactly one win.
    if (isUniqueViolation(err)) throw accountExists(email);
    throw err;
  }
  const account = (await selectAccount(created.id))!;
  return {
    account_id: created.id,
    api_key: created.secret!,
    plan: "trial",
    email_confirmed: false,
    trial_expires_at: account.trialExpiresAt!,
    next_step: {
      action: "confirm_email",
      message: `Open the link we sent to ${account.email} to unlock the full trial (800 credits over 30 days). Until then the key has 50 credits.`,
    },
  };
}

/**
 * POST /v1/accounts/free under its Idempotency-Key. Only an attempt that may make an account
 * counts against the caller's address: a key already claimed replays its answer (or refuses
 * another body) for its 24 hours whatever the limit says (CONTRACT.md §2).
 */
export async function scriptSignup(req: Request, key: string, body: { email: string }) {
  if (!(await claimed("accounts_free", key))) {
    const ip = await limitIp(req, "signup");
    if (!ip.ok) throw ip.error;
  }
  return withIdempotency("accounts_free", key, body, async () => ({
    status: 201, body: { data: await createTrialAccount(body.email) },
  }), { secretField: "api_key", keep: ["ACCOUNT_EXISTS"] });
}

export type Registered = { email: string; next_step: { action: "confirm_email"; message: string } };

/**
 * A person: a dashboard user with a password, and a trial account without a key yet. The answer
 * is the same whether or not the address has an account: an existing owner gets a mail instead
 * of a second account, and nothing learns from the answer which case it was.
 */
export async function registerPerson(input: { email: string; password: string; name?: string }): Promise<Registered> {
  const email = input.email.toLowerCase();
  const answer: Registered = {
    email,
    next_step: {
      action: "confirm_email",
      message: `We sent a mail to ${email}. Open its link to confirm the address, then sign in to the dashboard and create your API key there.`,
    },
  };
  const auth = await import("@/lib/auth");
  const existing = await selectAccountByEmail(email);
  if (existing) {
    // The same work as a new registration costs: hashing the password.
    await auth.hashPassword(input.password);
    await mailExistingOwner(existing.id, email);
    return answer;
  }
  // A dashboard user nobody proved the address of and no account uses (a registration that
  // failed halfway) holds a password someone else chose: it goes, it is never adopted.
  const stale = await auth.findUserByEmail(email);
  if (stale && !(await selectAccountByAuthUser(stale.id))) await auth.deleteUser(stale.id);
  const user = await auth.createPasswordUser({ email, password: input.password, name: input.name, verified: false });
  if (!user.ok) return answer;
  try {
    await insertTrial(email, { authUserId: user.userId });
  } catch (err) {
    await auth.deleteUser(user.userId);
    if (!isUniqueViolation(err)) throw err;
  }
  return answer;
}

/** Someone registered with an address that has an account: its owner is told, at most a few times an hour. */
async function mailExistingOwner(accountId: string, email: string): Promise<void> {
  if (!(await limitMail("account_exists", { email, accountId })).ok) return;
  const origin = configuredOrigin();
  await enqueue({
    to: email,
    subject: "Your PokéPrice account",
    text: [
      "Someone asked to register a PokéPrice account with this address, which already has one. No second account was made.",
      "",
      `If it was you, sign in at ${origin}/sign-in. An account created from a script has no password yet: set one at ${origin}/recover.`,
      "",
      "If it was not you, ignore this mail: nothing changed.",
    ].join("\n"),
    kind: "account_exists",
    accountId,
  });
}

export async function resendConfirmation(accountId: string): Promise<{ sent: boolean }> {
  const account = await selectAccount(accountId);
  if (!account || !(await awaitsConfirmation(account))) return { sent: false };
  const allowed = await limitMail("confirm_email", { email: account.email, accountId });
  if (!allowed.ok) throw allowed.error;
  await sendConfirmation(account);
  return { sent: true };
}
