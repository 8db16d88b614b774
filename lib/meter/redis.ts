import { createHash } from "node:crypto";
import { ACQUIRE, AGE, HIT, PEEK, SEED, SET_CREDITS, SETTLE, SETTLE_MANY } from "./lua";
import {
  keys, MARKER_KEY, newGeneration, SETTLE_STATES, type AcquireInput, type AcquireResult, type BatchSettle, type MeterDriver, type OutcomeCode,
  type SeedInput, type SeedResult, type SettleInput, type SettleResult,
} from "./types";

// The scripts run through a client that only needs eval/evalsha: ioredis (REDIS_URL, ioredis.ts)
// or @upstash/redis over REST (UPSTASH_REDIS_REST_URL). Both send EVALSHA first and the script
// itself only when Redis answers NOSCRIPT.

export interface ScriptClient {
  readonly name: string;
  run(script: Script, keys: string[], args: (string | number)[]): Promise<unknown>;
  close(): Promise<void>;
}

export type Script = { lua: string; sha: string };

const script = (lua: string): Script => ({ lua, sha: createHash("sha1").update(lua).digest("hex") });
const S = {
  acquire: script(ACQUIRE), settle: script(SETTLE), seed: script(SEED), hit: script(HIT), peek: script(PEEK), setCredits: script(SET_CREDITS),
  settleMany: script(SETTLE_MANY), age: script(AGE),
};

export const isNoScript = (err: unknown) => String((err as Error)?.message ?? err).includes("NOSCRIPT");

type UpstashLike = {
  evalsha(sha: string, keys: string[], args: (string | number)[]): Promise<unknown>;
  eval(lua: string, keys: string[], args: (string | number)[]): Promise<unknown>;
};

export function upstashClient(redis: UpstashLike): ScriptClient {
  return {
    name: "upstash",
    async run(s, k, a) {
      try {
        return await redis.evalsha(s.sha, k, a);
      } catch (err) {
        if (!isNoScript(err)) throw err;
        return redis.eval(s.lua, k, a);
      }
    },
    async close() {},
  };
}

const n = (v: unknown) => Number(v ?? 0);

// A loop, not flatMap with an arrow: asked on every acquire, and tsx's esbuild names each closure.
function batchArgs(items: BatchSettle[]): (string | number)[] {
  const out: (string | number)[] = [];
  for (const it of items) {
    out.push(it.leaseId, it.generation, it.refundCredits, it.charged, it.cardIds.length);
    for (const id of it.cardIds) out.push(id);
  }
  return out;
}

const SEED_RESULTS: Record<number, SeedResult> = { 1: "seeded", 0: "exists", [-1]: "held" };

export class ScriptMeter implements MeterDriver {
  /** Public so that other deployment-wide counters (centering capacity) share the connection. */
  constructor(readonly client: ScriptClient) {}

  readonly shared = true;

  get name() {
    return this.client.name;
  }

  async acquire(i: AcquireInput): Promise<AcquireResult> {
    const k = keys(i.account, i.creditPeriod, i.day, i.feature);
    const r = (await this.client.run(S.acquire, [k.bucket, k.leases, k.credits, k.seeded, k.daily, k.feature, k.cards, k.hold, k.minute], [
      i.now ?? "", i.rate, i.burst, i.perMinute, i.maxInFlight, i.leaseId, i.leaseTtlMs, i.cost, i.creditLimit,
      i.dailyCap, i.featureLimit, i.periodTtlS, i.holdMs ?? 0, ...batchArgs(i.settles ?? []),
    ])) as unknown[];
    return {
      outcome: n(r[0]) as OutcomeCode, tokens: n(r[1]), fullInMs: n(r[2]), creditsUsed: n(r[3]), dailyUsed: n(r[4]),
      retryAfterMs: n(r[5]), featureUsed: n(r[6]), cardsUsed: n(r[7]), inFlight: n(r[8]), generation: String(r[9] ?? ""),
      settled: r.slice(10).map(n),
    };
  }

  async settle(i: SettleInput): Promise<SettleResult> {
    const k = keys(i.account, i.creditPeriod, i.day, i.feature);
    const r = (await this.client.run(S.settle, [k.leases, k.credits, k.daily, k.feature, k.cards, k.seeded, k.hold], [
      i.leaseId, i.refund ? 1 : 0, i.cost, i.featureCounted ? 1 : 0, i.cardLimit, i.periodTtlS, i.partial, i.generation, i.holdMs,
      ...i.cardIds,
    ])) as unknown[];
    return { allowed: n(r[0]) === 1, cardsBefore: n(r[1]), cardsAfter: n(r[2]), newCards: n(r[3]), state: SETTLE_STATES[n(r[4])]! };
  }

  async settleMany(account: string, period: string, day: string, periodTtlS: number, items: BatchSettle[], holdMs: number): Promise<number[]> {
    const k = keys(account, period, day, "");
    const r = (await this.client.run(S.settleMany, [k.leases, k.seeded, k.credits, k.daily, k.cards, k.hold], [
      periodTtlS, holdMs, ...batchArgs(items),
    ])) as unknown[];
    return r.map(n);
  }

  async seed(i: SeedInput): Promise<SeedResult> {
    const k = keys(i.account, i.creditPeriod, i.day, "");
    const features = Object.entries(i.features);
    const fk = features.map(([f]) => keys(i.account, i.creditPeriod, i.day, f).feature);
    const r = await this.client.run(S.seed, [k.credits, k.seeded, k.daily, k.cards, k.hold, ...fk], [
      newGeneration(), i.credits, i.daily, i.periodTtlS, ...features.map(([, v]) => v), ...i.cardIds,
    ]);
    return SEED_RESULTS[n(r)]!;
  }

  async peek(account: string, period: string, day: string, features: string[]) {
    const k = keys(account, period, day, "");
    const fk = features.map((f) => keys(account, period, day, f).feature);
    const r = (await this.client.run(S.peek, [k.credits, k.daily, k.cards, k.seeded, ...fk], [])) as unknown[];
    return {
      creditsUsed: n(r[0]), dailyUsed: n(r[1]), cardsUsed: n(r[2]), generation: r[3] ? String(r[3]) : null,
      features: Object.fromEntries(features.map((f, i) => [f, n(r[4 + i])])),
    };
  }

  async setCredits(account: string, period: string, used: number, periodTtlS: number) {
    const k = keys(account, period, "", "");
    const r = (await this.client.run(S.setCredits, [k.credits, k.seeded], [used, periodTtlS])) as unknown[];
    return n(r[0]) === 1 ? n(r[1]) : null;
  }

  async age() {
    return n(await this.client.run(S.age, [MARKER_KEY], []));
  }

  async hit(key: string, limit: number, windowS: number) {
    const r = (await this.client.run(S.hit, [key], [limit, windowS])) as unknown[];
    return { allowed: n(r[0]) === 1, count: n(r[1]), retryAfterS: Math.max(1, n(r[2])) };
  }

  close() {
    return this.client.close();
  }
}
