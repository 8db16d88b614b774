import { createHash } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { ApiError, type ErrorCode } from "@/lib/api/errors";
import { getDb } from "@/lib/db/client";
import { idempotencyKeys } from "@/lib/db/schema";
import { seal, unseal } from "./seal";

// An Idempotency-Key replays its first answer for 24 hours when the same body comes again, and
// refuses (409) any other body (CONTRACT.md §2). The row is claimed before the work starts, so
// two concurrent requests with one key never both do the work. A secret in the answer (the new
// API key) is stored sealed with the server's secret, never in plain text, and rows are purged
// once their 24 hours are over.

export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;
const SEAL_PURPOSE = "idempotent-answer";

export type Stored = { status: number; body: unknown };
type Answer = Stored & { replayed: boolean };

export function requestHash(body: unknown): string {
  return createHash("sha256").update(JSON.stringify(body)).digest("hex");
}

type Data = { data?: Record<string, unknown> };

/**
 * The answer with `data[field]` emptied (in its place, so that the replay keeps the fields'
 * order), and that secret apart. Stored as its JSON text: a jsonb object keeps its keys in an
 * order of its own, and the replay must be the identical answer.
 */
function split(body: unknown, field: string | undefined): { body: string; secret: string | null } {
  const data = (body as Data)?.data;
  if (!field || !data || typeof data[field] !== "string") return { body: JSON.stringify(body), secret: null };
  return { body: JSON.stringify({ ...(body as object), data: { ...data, [field]: "" } }), secret: data[field] as string };
}

/** A stored answer: its JSON text (an object in rows from before the text was kept). */
const stored = (response: unknown): unknown => (typeof response === "string" ? JSON.parse(response) : response);

function join(body: unknown, field: string | undefined, secret: string): unknown {
  const data = (body as Data).data!;
  return { ...(body as object), data: { ...data, [field!]: secret } };
}

/** Rows whose 24 hours are over: an index range, a few at a time, on each claim. */
async function purgeExpired(): Promise<void> {
  const db = await getDb();
  await db.execute(sql`delete from idempotency_keys where ctid in (
    select ctid from idempotency_keys where expires_at <= now() limit 500)`);
}

/**
 * `keep`: refusals that are the request's answer, not a failure to make one (an address that
 * has an account): stored and replayed like a success, so that the key then refuses another
 * body as it would after one. Any other error frees the key for a retry.
 */
export async function withIdempotency(
  scope: string, key: string, body: unknown, work: () => Promise<Stored>, opts: { secretField?: string; keep?: readonly ErrorCode[] } = {},
): Promise<Answer> {
  const db = await getDb();
  const hash = requestHash(body);
  await purgeExpired();
  // This key's own expired claim goes whatever the purge reached: the key may be used afresh.
  await db.delete(idempotencyKeys).where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key), sql`${idempotencyKeys.expiresAt} <= now()`));
  // A retry sent while the first request is still at work waits for its answer and gets it, as
  // a later retry would (CONTRACT.md §2: the identical response); the key freed meanwhile (the
  // first attempt failed) is claimed by the retry, which then does the work itself.
  const deadline = Date.now() + PENDING_WAIT_MS;
  for (;;) {
    const claimed = await db
      .insert(idempotencyKeys)
      .values({ scope, key, requestHash: hash, expiresAt: sql`now() + interval '24 hours'` as never })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
    if (claimed.length) break;
    const prior = await replay(scope, key, hash, opts.secretField);
    if (prior !== PENDING) return prior;
    if (Date.now() >= deadline) {
      throw new ApiError("IDEMPOTENCY_CONFLICT", "A request with this Idempotency-Key is still being processed. Retry in a moment.", { idempotency_key: key }, { "retry-after": "1" });
    }
    await new Promise((r) => setTimeout(r, PENDING_POLL_MS));
  }
  try {
    const result = await work();
    const { body: kept, secret } = split(result.body, opts.secretField);
    await db.update(idempotencyKeys)
      .set({ status: result.status, response: kept as never, secretEnc: secret === null ? null : seal(secret, SEAL_PURPOSE) })
      .where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key)));
    return { ...result, replayed: false };
  } catch (err) {
    if (err instanceof ApiError && opts.keep?.includes(err.code)) {
      const refusal = JSON.stringify({ error: { code: err.code, message: err.message, details: err.details ?? null } });
      await db.update(idempotencyKeys).set({ status: err.status, response: refusal as never })
        .where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key)));
      throw err;
    }
    // A failed first attempt leaves nothing to replay: the same key may try again.
    await db.delete(idempotencyKeys).where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key)));
    throw err;
  }
}

/** Whether `key` holds a claim of its 24 hours (answered, or being answered): a request with it makes nothing new. */
export async function claimed(scope: string, key: string): Promise<boolean> {
  const db = await getDb();
  const [row] = await db.select({ key: idempotencyKeys.key }).from(idempotencyKeys).where(liveClaim(scope, key));
  return !!row;
}

/** The key's row while its 24 hours last. */
const liveClaim = (scope: string, key: string) =>
  and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key), sql`${idempotencyKeys.expiresAt} > now()`);

/** How long a retry waits for the first request's answer, and how often it looks. */
const PENDING_WAIT_MS = 10_000;
const PENDING_POLL_MS = 50;
/** The key's first request is still at work, or its claim was just freed: try to claim it again. */
const PENDING = Symbol("pending");

async function replay(scope: string, key: string, hash: string, secretField: string | undefined): Promise<Answer | typeof PENDING> {
  const db = await getDb();
  const [prior] = await db.select().from(idempotencyKeys).where(liveClaim(scope, key));
  if (prior && prior.requestHash !== hash) {
    throw new ApiError("IDEMPOTENCY_CONFLICT", "This Idempotency-Key was already used with a different request body.", { idempotency_key: key });
  }
  if (!prior || prior.status === null) return PENDING;
  const answer = stored(prior.response) as { error?: { code: ErrorCode; message: string; details: Record<string, unknown> | null } };
  // A kept refusal is given again as the error it was, under this request's id.
  if (answer?.error) throw new ApiError(answer.error.code, answer.error.message, answer.error.details ?? undefined);
  if (!prior.secretEnc) return { status: prior.status, body: answer, replayed: true };
  const secret = unseal(prior.secretEnc, SEAL_PURPOSE);
  // Sealed under another server secret (it was rotated): the answer cannot be given again.
  if (secret === undefined) {
    throw new ApiError("IDEMPOTENCY_CONFLICT", "The first answer of this Idempotency-Key can no longer be replayed. Use a new key.", { idempotency_key: key });
  }
  return { status: prior.status, body: join(answer, secretField, secret), replayed: true };
}
