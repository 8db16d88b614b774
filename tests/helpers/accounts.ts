import { randomUUID } from "node:crypto";
import { createKey } from "@/lib/accounts/keys";
import { insertAccount, updateAccount } from "@/lib/accounts/queries/accounts";
import { newAccountId } from "@/lib/accounts/ids";
import type { Plan } from "@/lib/meter/costs";
import { getDb } from "@/lib/db/client";

// Accounts made straight through lib/accounts for tests: a fresh one per test where state
// matters, and one roomy key per database for tests about something else than the meter.

export type TestAccount = { id: string; key: string; email: string };

export async function makeAccount(opts: { plan?: Plan; confirmed?: boolean; trialExpiresAt?: string; email?: string } = {}): Promise<TestAccount> {
  const db = await getDb();
  const id = newAccountId();
  const email = opts.email ?? `test-${randomUUID()}@example.com`;
  let key = "";
  await db.transaction(async (tx) => {
    await insertAccount(tx, { id, email, trialExpiresAt: opts.trialExpiresAt ?? new Date(Date.now() + 30 * 86_400_000).toISOString() });
    key = (await createKey(id, "test", tx)).secret;
    const set: Record<string, unknown> = {};
    if (opts.confirmed) set.emailConfirmedAt = new Date().toISOString();
    if (opts.plan && opts.plan !== "trial") {
      Object.assign(set, { plan: opts.plan, periodStart: new Date().toISOString(), periodEnd: new Date(Date.now() + 30 * 86_400_000).toISOString(), trialExpiresAt: null });
    }
    if (Object.keys(set).length) await updateAccount(id, set as never, tx);
  });
  return { id, key, email };
}

const slot = globalThis as unknown as { __testKeys?: Map<string, Promise<string>> };

/** One enterprise key per database: unlimited credits, 400 requests per second. */
export function roomyKey(): Promise<string> {
  const where = process.env.DATABASE_URL ?? `pglite:${process.env.PGLITE_DIR}`;
  const keys = (slot.__testKeys ??= new Map());
  if (!keys.has(where)) keys.set(where, makeAccount({ plan: "enterprise", confirmed: true }).then((a) => a.key));
  return keys.get(where)!;
}

export function forgetRoomyKeys(): void {
  slot.__testKeys?.clear();
}
