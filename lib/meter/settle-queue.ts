import { meterDriver } from "./driver";
import type { BatchSettle } from "./types";

// Settles that decide nothing (no card allowance) go to Redis in batches per account: the
// answers of a burst share one script call, so a request costs about one round trip (its
// acquire). A batch leaves after BATCH_MS or at MAX_BATCH answers, or at once when the
// account is near its in-flight limit, so a held slot never refuses the next request.

const BATCH_MS = Number(process.env.SETTLE_BATCH_MS ?? 2);
const MAX_BATCH = 64;

type Item = BatchSettle & { done: (newCards: number | null) => void };
type Queue = { account: string; period: string; day: string; ttlS: number; items: Item[]; timer?: NodeJS.Timeout };

const queues = new Map<string, Queue>();

export function queueSettle(
  at: { account: string; period: string; day: string; ttlS: number },
  item: Item,
  urgent: boolean,
): void {
  const key = `${at.account}\u0000${at.period}\u0000${at.day}`;
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
