import { and, eq, isNull, sql } from "drizzle-orm";
import { getDb, type Db } from "@/lib/db/client";
import { emailTokens } from "@/lib/db/schema";
import { enqueue } from "@/lib/mail/outbox";
import { forgetAccount } from "./keys";
import { hashSecret, newToken } from "./ids";
import { selectAccount, updateAccount } from "./queries/accounts";
import type { Account } from "./types";

// Our own confirmation link, for script accounts and persons alike: single-use, expiring,
// stored only as a hash. Confirming grants the full trial and verifies the dashboard user.

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export const CONFIRM_TTL_HOURS = 48;

export async function sendConfirmation(account: Pick<Account, "id" | "email">, origin: string, tx?: Tx): Promise<void> {
  const db = tx ?? (await getDb());
  const token = newToken();
  await db.insert(emailTokens).values({
    tokenHash: hashSecret(token), accountId: account.id, kind: "confirm",
    expiresAt: sql`now() + make_interval(hours => ${CONFIRM_TTL_HOURS})` as never,
  });
  const url = `${origin}/confirm-email?token=${token}`;
  await enqueue({
    to: account.email,
    subject: "Confirm your email for the PokéPrice API",
    text: [
      "Confirm this address to unlock the full trial: 800 credits over 30 days, photo identification and centering calls.",
      "",
      url,
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
  const hash = hashSecret(token);
  const outcome = await db.transaction(async (tx) => {
    const [t] = await tx.select().from(emailTokens).where(and(eq(emailTokens.tokenHash, hash), eq(emailTokens.kind, "confirm")));
    if (!t) return { ok: false as const, reason: "invalid" as const };
    if (t.usedAt) return { ok: false as const, reason: "used" as const };
    if (Date.parse(t.expiresAt) <= Date.now()) return { ok: false as const, reason: "expired" as const };
    const used = await tx.update(emailTokens).set({ usedAt: sql`now()` as never })
      .where(and(eq(emailTokens.tokenHash, hash), isNull(emailTokens.usedAt))).returning({ id: emailTokens.accountId });
    if (!used.length) return { ok: false as const, reason: "used" as const };
    await markConfirmed(t.accountId, tx);
    return { ok: true as const, accountId: t.accountId };
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
  forgetAccount(account.id);
  if (!account.authUserId) return;
  const { markEmailVerified } = await import("@/lib/auth");
  await markEmailVerified(account.authUserId);
}
