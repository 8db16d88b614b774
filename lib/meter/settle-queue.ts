import { meterDriver } from "./driver";
import type { BatchSettle } from "./types";

// Settles that decide nothing (no card allowance) wait here per account, so that a request
// costs one round trip: the account's next acquire takes them along in its own script
// (takeSettles). When no request follows, they leave on their own after BATCH_MS, at
// MAX_BATCH answers, or at once when the account is near its in-flight limit, so a slot held
// here never refuses a request on another instance for long.

const BATCH_MS = Number(process.env.SETTLE_BATCH_MS ?? 100);
const MAX_BATCH = 64;

export type QueuedSettle = BatchSettle & { done: (newCards: number | null) => void };
type At = { account: string; period: string; day: string; ttlS: number };
type Queue = At & { items: QueuedSettle[]; timer?: NodeJS.Timeout };

const queues = new Map<string, Queue>();
const keyOf = (account: string, period: string, day: string) => `${account}\u0000${period}\u0000${day}`;

export function queueSettle(at: At, item: QueuedSettle, urgent: boolean): void {
  const key = keyOf(at.account, at.period, at.day);
  let q = queues.get(key);
  if (!q) {
    q = { ...at, items: [] };
    queues.set(key, q);
  }
  q.items.push(item);
  if (urgent || q.items.length >= MAX_BATCH) {
    void flush(key);
  } else if (!q.timer) {
    q.timer = setTimeout(() => void flush(key), BATCH_MS);
    q.timer.unref?.();
  }
}

/** Hands the account's pending settles to an acquire that will apply them in its script. */
export function takeSettles(account: string, period: string, day: string): QueuedSettle[] {
  const key = keyOf(account, period, day);
  const q = queues.get(key);
  if (!q) return [];
  queues.delete(key);
  if (q.timer) clearTimeout(q.timer);
  return q.items;
}

/** The acquire that took them failed before Redis applied them: they leave on their own. */
export function returnSettles(at: At, items: QueuedSettle[]): void {
  for (const it of items) queueSettle(at, it, false);
}

/** Sends an account's pending settles now, so that a read of its counters sees them. */
export async function flushSettles(account: string): Promise<void> {
  const prefix = `${account}\u0000`;
  await Promise.all([...queues.keys()].filter((k) => k.startsWith(prefix)).map(flush));
}

async function flush(key: string): Promise<void> {
  const q = queues.get(key);
  if (!q) return;
  queues.delete(key);
  if (q.timer) clearTimeout(q.timer);
  try {
    const fresh = await (await meterDriver()).settleMany(q.account, q.period, q.day, q.ttlS, q.items);
    q.items.forEach((it, i) => it.done(fresh[i] ?? 0));
  } catch (err) {
    // Leases expire by themselves; charges already made stand.
    console.error("[meter] batched settle failed:", (err as Error)?.message ?? err);
    for (const it of q.items) it.done(null);
  }
}
