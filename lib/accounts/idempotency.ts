import { createHash } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { ApiError } from "@/lib/api/errors";
import { getDb } from "@/lib/db/client";
import { idempotencyKeys } from "@/lib/db/schema";

// An Idempotency-Key replays its first answer for 24 hours when the same body comes again, and
// refuses (409) any other body. The row is claimed before the work starts, so two concurrent
// requests with one key never both do the work.

export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;

export type Stored = { status: number; body: unknown };

export function requestHash(body: unknown): string {
  return createHash("sha256").update(JSON.stringify(body)).digest("hex");
}

export async function withIdempotency(scope: string, key: string, body: unknown, work: () => Promise<Stored>): Promise<Stored & { replayed: boolean }> {
  const db = await getDb();
  const hash = requestHash(body);
  // Expired claims are gone for good: the key may be used afresh.
  await db.delete(idempotencyKeys).where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key), sql`${idempotencyKeys.expiresAt} <= now()`));
  const claimed = await db
    .insert(idempotencyKeys)
    .values({ scope, key, requestHash: hash, expiresAt: sql`now() + interval '24 hours'` as never })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  if (!claimed.length) {
    const [prior] = await db.select().from(idempotencyKeys).where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key)));
    if (prior && prior.requestHash !== hash) {
      throw new ApiError("IDEMPOTENCY_CONFLICT", "This Idempotency-Key was already used with a different request body.", { idempotency_key: key });
    }
    if (!prior || prior.status === null) {
      throw new ApiError("IDEMPOTENCY_CONFLICT", "A request with this Idempotency-Key is still being processed. Retry in a moment.", { idempotency_key: key });
    }
    return { status: prior.status, body: prior.response, replayed: true };
  }
  try {
    const result = await work();
    await db.update(idempotencyKeys).set({ status: result.status, response: result.body as never })
      .where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key)));
    return { ...result, replayed: false };
  } catch (err) {
    // A failed first attempt leaves nothing to replay: the same key may try again.
    await db.delete(idempotencyKeys).where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key)));
    throw err;
  }
}
