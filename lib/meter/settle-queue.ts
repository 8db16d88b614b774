import { meterDriver } from "./driver";
import { holdMs } from "./rebuild";
import type { BatchSettle } from "./types";

// Settles that decide nothing (no card allowance) wait here per account, so that a request
// costs one round trip: the account's next acquire takes them along in its own script
// (takeSettles). When no request follows, they leave on their own after BATCH_MS, at
// MAX_BATCH answers, or at once when the account is near its in-flight limit, so a slot held
// here never refuses a request on another instance for long.

const BATCH_MS = Number(process.env.SETTLE_BATCH_MS ?? 100);
const MAX_BATCH = 64;

/** `done` hears the answer's new distinct cards, UNSETTLED (the period was unseeded), or null when the call failed. */
export type QueuedSettle = BatchSettle & { done: (newCards: number | null) => void };
type At = { account: string; period: string; day: string; ttlS: number };
type Queue = At & { items: QueuedSettle[]; timer?: NodeJS.Timeout };

// On globalThis: the custom server loads this module once for /v1 and once more inside Next's
// bundle (the dashboard), and a dashboard read must see the API's pending settles.
const slot = globalThis as unknown as { __settles?: { queues: Map<string, Queue>; underWay: Set<Promise<unknown>> } };
slot.__settles ??= { queues: new Map(), underWay: new Set() };
const queues = slot.__settles.queues;
/** Settles sent and not answered yet, so that a drain before exit waits for them. */
const underWay = slot.__settles.underWay;
const keyOf = (account: string, period: string, day: string) => `${account}\u0000${period}\u0000${day}`;

export function queueSettle(at: At, item: QueuedSettle, urgent: boolean): void {
  const key = keyOf(at.account, at.period, at.day);
  let q = queues.get(key);
  if (!q) {
    q = { account: at.account, period: at.period, day: at.day, ttlS: at.ttlS, items: [] };
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

/**
 * Sends an account's pending settles now and waits for those already under way, so that a read
 * of its counters (or of its ledger rows, recorded once a settle is answered) sees them.
 */
export async function flushSettles(account: string): Promise<void> {
  const prefix = `${account}\u0000`;
  await Promise.all([...queues.keys()].filter((k) => k.startsWith(prefix)).map(flush));
  await Promise.allSettled([...underWay]);
}

/** Keeps a settle sent outside this queue (meter.ts) in view of drainSettles. */
export function track<T>(settle: Promise<T>): Promise<T> {
  underWay.add(settle);
  const forget = () => void underWay.delete(settle);
  settle.then(forget, forget);
  return settle;
}

/** Sends every pending settle and waits until each one sent is answered (before the process exits). */
export async function drainSettles(): Promise<void> {
  await Promise.all([...queues.keys()].map(flush));
  while (underWay.size) await Promise.allSettled([...underWay]);
}

function flush(key: string): Promise<void> {
  const q = queues.get(key);
  if (!q) return Promise.resolve();
  queues.delete(key);
  if (q.timer) clearTimeout(q.timer);
  return track(send(q));
}

async function send(q: Queue): Promise<void> {
  try {
    const driver = await meterDriver();
    const fresh = await driver.settleMany(q.account, q.period, q.day, q.ttlS, q.items, holdMs(driver));
    q.items.forEach((it, i) => it.done(fresh[i] ?? 0));
  } catch (err) {
    // Leases expire by themselves; charges already made stand.
    console.error("[meter] batched settle failed:", (err as Error)?.message ?? err);
    for (const it of q.items) it.done(null);
  }
}
