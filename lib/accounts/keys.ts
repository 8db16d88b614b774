import { sql } from "drizzle-orm";
import { ApiError } from "@/lib/api/errors";
import { keysetPage, type Link } from "@/lib/api/list";
import { col, type SortSpec } from "@/lib/api/paging";
import { getDb } from "@/lib/db/client";
import { flushSettles } from "@/lib/meter/settle-queue";
import { flushRequestLog } from "@/lib/usage/log";
import { requestsPerKey } from "@/lib/usage/queries/read";
import { displayPrefix, hashSecret, newKeyId, newSecret } from "./ids";
import { countKeys, insertKey, lockKeys, revokeKey, selectByKeyHash, selectKeys, touchKey } from "./queries/accounts";
import type { Account, KeyRecord } from "./types";

// Key verification returns an outcome, never throws for an unknown key. Lookups are cached
// briefly per process: the hot path then costs no database round trip. A key revoked here is
// forgotten at once; on other instances within KEY_CACHE_MS.

export const KEY_CACHE_MS = 5_000;
const TOUCH_EVERY_MS = 60_000;

export type KeyOutcome =
  | { ok: true; keyId: string; account: Account }
  | { ok: false; reason: "unknown" }
  /** The key's account is known: its owner's request log holds the refused call. */
  | { ok: false; reason: "expired"; expiredAt: string; keyId: string; account: Account };

type Cached = { value: KeyOutcome; at: number; lastTouch: number; expiresAt: number };
const slot = globalThis as unknown as { __keyCache?: Map<string, Cached> };
const cache = () => (slot.__keyCache ??= new Map());

export async function verifyKey(secret: string, now = Date.now()): Promise<KeyOutcome> {
  const hash = hashSecret(secret);
  const hit = cache().get(hash);
  if (hit && now - hit.at < KEY_CACHE_MS) {
    // A cached key still expires on time, not up to KEY_CACHE_MS late.
    if (now >= hit.expiresAt && hit.value.ok) return expired(hit.expiresAt, hit.value);
    touch(hit, now);
    return hit.value;
  }
  const found = await selectByKeyHash(hash);
  const expiresAt = found?.expiresAt ? Date.parse(found.expiresAt) : Infinity;
  if (found && now >= expiresAt) return expired(expiresAt, found);
  const value: KeyOutcome = found ? { ok: true, keyId: found.keyId, account: found.account } : { ok: false, reason: "unknown" };
  const lastTouch = found?.lastUsedAt ? Date.parse(found.lastUsedAt) : 0;
  const entry: Cached = { value, at: now, lastTouch, expiresAt };
  if (cache().size > 50_000) cache().clear();
  cache().set(hash, entry);
  touch(entry, now);
  return value;
}

const expired = (at: number, k: { keyId: string; account: Account }): KeyOutcome =>
  ({ ok: false, reason: "expired", expiredAt: new Date(at).toISOString(), keyId: k.keyId, account: k.account });

/** last_used_at, written at most once a minute per key and never on the request's path. */
function touch(entry: Cached, now: number): void {
  if (!entry.value.ok || now - entry.lastTouch < TOUCH_EVERY_MS) return;
  entry.lastTouch = now;
  void touchKey(entry.value.keyId).catch(() => undefined);
}

/** Drops every cached lookup of an account (its plan or keys changed on this instance). */
export function forgetAccount(accountId: string): void {
  for (const [hash, c] of cache()) if (c.value.ok && c.value.account.id === accountId) cache().delete(hash);
}

/** Drops every cached lookup (a missed change notification may have left any of them stale). */
export function forgetAllAccounts(): void {
  cache().clear();
}

export function forgetKeyHash(hash: string): void {
  cache().delete(hash);
}

export type NewKey = KeyRecord & { secret: string };

export async function createKey(accountId: string, name: string, tx?: Parameters<typeof insertKey>[0], expiresAt: string | null = null): Promise<NewKey> {
  if (expiresAt !== null && Date.parse(expiresAt) <= Date.now()) {
    throw new ApiError("INVALID_PARAMETER", "expires_at must be in the future.", { parameter: "expires_at", value: expiresAt });
  }
  const secret = newSecret();
  const id = newKeyId();
  const prefix = displayPrefix(secret);
  const expires = expiresAt === null ? null : new Date(expiresAt).toISOString();
  // One instant for the row and the answer: the list then shows the created_at the answer gave.
  const createdAt = new Date().toISOString();
  await insertKey(tx ?? (await getDb()), { id, accountId, name, prefix, hash: hashSecret(secret), expiresAt: expires, createdAt });
  return { id, name, prefix, secret, createdAt, lastUsedAt: null, expiresAt: expires };
}

/** Live keys an account may hold: enough for every service and environment, not a store of secrets. */
export const MAX_KEYS = 50;

/** A key the owner asks for (POST /v1/keys, the dashboard): refused past MAX_KEYS live keys. */
export async function addKey(accountId: string, name: string, expiresAt: string | null): Promise<NewKey> {
  return (await getDb()).transaction(async (tx) => {
    await lockKeys(tx, accountId);
    if ((await countKeys(accountId, tx)) >= MAX_KEYS) {
      throw new ApiError("TOO_MANY_KEYS", `The account already holds ${MAX_KEYS} live keys, the most it may: delete one it no longer uses.`, { max_keys: MAX_KEYS });
    }
    return createKey(accountId, name, tx, expiresAt);
  });
}

/** The account's live keys (expired ones included, marked so), each with its calls of the last 30 days. */
export async function listKeys(accountId: string, now = Date.now()): Promise<(KeyRecord & { requests30d: number })[]> {
  // This instance's latest calls counted: the owner sees the call they just made.
  await flushSettles(accountId);
  await flushRequestLog(false);
  const [keys, counts] = await Promise.all([selectKeys(accountId), requestsPerKey(accountId, new Date(now - 30 * 86_400_000).toISOString())]);
  return keys.map((k) => ({ ...k, requests30d: counts.get(k.id) ?? 0 }));
}

// The keys list pages as every list does (SPEC.md Pagination): oldest first, by its creation
// and id. An account holds at most MAX_KEYS, so a page is cut from all of them in memory.
const KEY_SORT: SortSpec = {
  resource: "keys", tiebreaker: "id", default: "created_at",
  keys: { created_at: { columns: [col(sql`created_at`, "timestamp", false)] }, id: { columns: [col(sql`id`, "text", false)] } },
};

/** GET /v1/keys: a page of the account's live keys. */
export async function keyPage(accountId: string, input: { limit: number; cursor?: string }, link: Link) {
  const keys = (await listKeys(accountId)).map((k) => ({ ...k, __k0: k.createdAt, __k1: k.id }));
  const after = (k: { __k0: string; __k1: string }, [at, id]: unknown[]) => k.__k0 > (at as string) || (k.__k0 === at && k.__k1 > (id as string));
  return keysetPage({
    spec: KEY_SORT, input, link,
    fetch: async (_order, cursor, limit) => (cursor ? keys.filter((k) => after(k, cursor)) : keys).slice(0, limit + 1),
  });
}

/** A new secret for the key's name; the old secret stops working at once. */
export async function rotateKey(accountId: string, keyId: string): Promise<NewKey | undefined> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const keys = await selectKeys(accountId, tx);
    const old = keys.find((k) => k.id === keyId);
    if (!old) return undefined;
    const revoked = await revokeKey(tx, accountId, keyId);
    if (!revoked) return undefined;
    forgetKeyHash(revoked.hash);
    // The new secret keeps a future expiry; an expired key's rotation is a key that never expires.
    const keep = old.expiresAt && Date.parse(old.expiresAt) > Date.now() ? old.expiresAt : null;
    return createKey(accountId, old.name, tx, keep);
  });
}

export async function deleteKey(accountId: string, keyId: string): Promise<boolean> {
  const revoked = await revokeKey(await getDb(), accountId, keyId);
  if (revoked) forgetKeyHash(revoked.hash);
  return !!revoked;
}
