import { createHash, randomUUID } from "node:crypto";
import { scriptClient } from "@/lib/meter/driver";
import type { ScriptClient } from "@/lib/meter/redis";

// Centering capacity (SPEC.md Limits): two measurements running and two waiting per deployment,
// across every app instance. With Redis one script decides each step atomically; the embedded
// default keeps the same rule in process. Both hold leases that expire, so a crashed instance
// frees its slots: a running lease lasts RUN_MS, a waiter's only as long as it keeps polling.

export const RUNNING = 2;
export const WAITING = 2;
const RUN_MS = 30_000;
const WAIT_LEASE_MS = 1_000;
const POLL_MS = 25;
/** A waiter gives up after this long and answers 503 like a full queue would. */
const MAX_WAIT_MS = 10_000;

type Step = "run" | "wait" | "full";

// KEYS: running (zset: id → lease end), waiting (zset: id → lease end). ARGV: op, id, now, run_ms, wait_ms, running max, waiting max.
const CAPACITY_LUA = `
local run, q = KEYS[1], KEYS[2]
local op, id, now = ARGV[1], ARGV[2], tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', run, '-inf', now)
redis.call('ZREMRANGEBYSCORE', q, '-inf', now)
if op == 'release' then
  redis.call('ZREM', run, id)
  redis.call('ZREM', q, id)
  return 'released'
end
local running = redis.call('ZCARD', run)
local waiting = redis.call('ZSCORE', q, id)
if waiting or redis.call('ZCARD', q) == 0 then
  if running < tonumber(ARGV[6]) then
    redis.call('ZREM', q, id)
    redis.call('ZADD', run, now + tonumber(ARGV[4]), id)
    return 'run'
  end
end
if waiting or redis.call('ZCARD', q) < tonumber(ARGV[7]) then
  redis.call('ZADD', q, now + tonumber(ARGV[5]), id)
  return 'wait'
end
return 'full'
`;
const SCRIPT = { lua: CAPACITY_LUA, sha: createHash("sha1").update(CAPACITY_LUA).digest("hex") };
const KEYS = ["centering:running", "centering:waiting"];

/** The same rule in process: id → lease end. */
class LocalCapacity {
  readonly running = new Map<string, number>();
  readonly waiting = new Map<string, number>();

  step(op: "take" | "release", id: string, now: number): Step | "released" {
    for (const m of [this.running, this.waiting]) for (const [k, end] of m) if (end <= now) m.delete(k);
    if (op === "release") {
      this.running.delete(id);
      this.waiting.delete(id);
      return "released";
    }
    const queued = this.waiting.has(id);
    if ((queued || this.waiting.size === 0) && this.running.size < RUNNING) {
      this.waiting.delete(id);
      this.running.set(id, now + RUN_MS);
      return "run";
    }
    if (queued || this.waiting.size < WAITING) {
      this.waiting.set(id, now + WAIT_LEASE_MS);
      return "wait";
    }
    return "full";
  }
}

const local = new LocalCapacity();

async function step(client: ScriptClient | undefined, op: "take" | "release", id: string): Promise<Step | "released"> {
  if (!client) return local.step(op, id, Date.now());
  try {
    return (await client.run(SCRIPT, KEYS, [op, id, Date.now(), RUN_MS, WAIT_LEASE_MS, RUNNING, WAITING])) as Step | "released";
  } catch {
    // Redis unreachable: each instance keeps the rule on its own rather than refusing everyone.
    return local.step(op, id, Date.now());
  }
}

export type CapacitySlot = { release: () => Promise<void> };

/**
 * A running slot, after waiting in the queue if need be; null when the queue is full too.
 * `client`: the Redis scripts to use (default: the meter's, in process without Redis).
 */
export async function takeSlot(opts: { client?: ScriptClient } = {}): Promise<CapacitySlot | null> {
  const client = opts.client ?? (await scriptClient());
  const id = randomUUID();
  const deadline = Date.now() + MAX_WAIT_MS;
  for (let s = await step(client, "take", id); ; s = await step(client, "take", id)) {
    if (s === "run") return { release: async () => void (await step(client, "release", id)) };
    if (s === "full" || Date.now() > deadline) {
      await step(client, "release", id);
      return null;
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

/** For tests: the in-process state, emptied. */
export function resetLocalCapacity(): void {
  local.running.clear();
  local.waiting.clear();
}
