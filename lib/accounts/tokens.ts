import { and, eq, isNull, sql } from "drizzle-orm";
import { getDb, type Db } from "@/lib/db/client";
import { emailTokens } from "@/lib/db/schema";
import { hashSecret, newToken } from "./ids";

// The single-use, expiring tokens of our mailed links (confirm the address, set a password).
// Only their hash is stored; a token of one kind never redeems as another.

export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
export type TokenKind = "confirm" | "reset";
export type Redeemed = { ok: true; accountId: string } | { ok: false; reason: "invalid" | "expired" | "used" };

export async function issueToken(accountId: string, kind: TokenKind, ttlMinutes: number, tx?: Tx | Db): Promise<string> {
  const db = tx ?? (await getDb());
  const token = newToken();
  await db.insert(emailTokens).values({
    tokenHash: hashSecret(token), accountId, kind,
    expiresAt: sql`now() + make_interval(mins => ${ttlMinutes})` as never,
  });
  return token;
}

/** What redeeming the token would give, leaving it unused (a page showing what its link does). */
export async function peekToken(token: string, kind: TokenKind): Promise<Redeemed> {
  const db = await getDb();
  const [t] = await db.select().from(emailTokens).where(and(eq(emailTokens.tokenHash, hashSecret(token)), eq(emailTokens.kind, kind)));
  if (!t) return { ok: false, reason: "invalid" };
  if (t.usedAt) return { ok: false, reason: "used" };
  if (Date.parse(t.expiresAt) <= Date.now()) return { ok: false, reason: "expired" };
  return { ok: true, accountId: t.accountId };
}

/** Marks the token used, inside `tx`, so what it unlocks commits with it or not at all. */
export async function redeemToken(tx: Tx, token: string, kind: TokenKind): Promise<Redeemed> {
  const hash = hashSecret(token);
  const [t] = await tx.select().from(emailTokens).where(and(eq(emailTokens.tokenHash, hash), eq(emailTokens.kind, kind)));
  if (!t) return { ok: false, reason: "invalid" };
  if (t.usedAt) return { ok: false, reason: "used" };
  if (Date.parse(t.expiresAt) <= Date.now()) return { ok: false, reason: "expired" };
  const used = await tx.update(emailTokens).set({ usedAt: sql`now()` as never })
    .where(and(eq(emailTokens.tokenHash, hash), isNull(emailTokens.usedAt))).returning({ id: emailTokens.accountId });
  if (!used.length) return { ok: false, reason: "used" };
  return { ok: true, accountId: t.accountId };
}

/** Earlier unused tokens of a kind stop working when a newer one is mailed or one is used. */
export async function retireTokens(accountId: string, kind: TokenKind, tx?: Tx | Db): Promise<void> {
  const db = tx ?? (await getDb());
  await db.update(emailTokens).set({ usedAt: sql`now()` as never })
    .where(and(eq(emailTokens.accountId, accountId), eq(emailTokens.kind, kind), isNull(emailTokens.usedAt)));
}
