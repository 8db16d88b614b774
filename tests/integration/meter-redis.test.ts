import { randomUUID } from "node:crypto";
import Redis from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { ioredisClient } from "@/lib/meter/ioredis";
import { ScriptMeter } from "@/lib/meter/redis";
import { keys, Outcome, type AcquireInput } from "@/lib/meter/types";
import { acquireInput, meterContract, T0 } from "../helpers/meter-contract";

// The same contract on the real Redis of the machine (REDIS_URL or 127.0.0.1:6379). Other
// tests share it: a lost account is one account's keys deleted, never the whole store.
meterContract("redis (ioredis)", async () => {
  const redis = new Redis(process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379");
  const lose = async (account: string) => {
    const found = await redis.keys(`m:{${account}}:*`);
    if (found.length) await redis.del(...found);
  };
  return { meter: new ScriptMeter(ioredisClient(redis)), lose };
});

// The acquire pushes expiries out in steps rather than on every call (lib/meter/lua.ts): no
// key it writes may be left without one, nor with less than what it must outlive.
describe("the acquire script's expiries on Redis", () => {
  const redis = new Redis(process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379");
  const meter = new ScriptMeter(ioredisClient(redis));
  afterAll(() => meter.close());
  const input = (account: string, over: Partial<AcquireInput> = {}) => acquireInput({ account, rate: 1000, burst: 1000, ...over });
  const ttls = async (account: string, day: string) => {
    const k = keys(account, "p1", day, "");
    const out: Record<string, number> = {};
    for (const name of ["bucket", "leases", "credits", "seeded", "daily"] as const) out[name] = await redis.pttl(k[name]);
    return out;
  };

  it("every key written has an expiry, at least what it must outlive, on a new day's counter too", async () => {
    const account = `t-${randomUUID()}`;
    await meter.seed({ account, creditPeriod: "p1", day: "20261122", credits: 0, daily: 0, cardIds: [], features: {}, periodTtlS: 3600 });
    // Calls a second apart within one minute, then one on the next day: its daily counter is new.
    for (let s = 0; s < 5; s++) expect((await meter.acquire(input(account, { now: T0 + s * 1000 }))).outcome).toBe(Outcome.OK);
    const t = await ttls(account, "20261122");
    expect(t.bucket).toBeGreaterThanOrEqual(120_000 - 4000 - 1000);
    expect(t.leases).toBeGreaterThanOrEqual(60_000 + 1000 - 4000 - 1000);
    for (const name of ["credits", "seeded", "daily"] as const) expect(t[name], name).toBeGreaterThan(0);
    await redis.persist(keys(account, "p1", "", "").credits);
    // A minute later the period's counters have their expiry set again.
    expect((await meter.acquire(input(account, { now: T0 + 61_000 }))).outcome).toBe(Outcome.OK);
    expect(await redis.pttl(keys(account, "p1", "", "").credits)).toBeGreaterThan(3_000_000);
    const nextDay = input(account, { now: T0 + 86_400_000, day: "20261123" });
    expect((await meter.acquire(nextDay)).outcome).toBe(Outcome.OK);
    const d = await redis.pttl(keys(account, "p1", "20261123", "").daily);
    expect(d).toBeGreaterThan(172_000_000);
  });

  it("the leases' key made again after its last lease left gets an expiry at once", async () => {
    const account = `t-${randomUUID()}`;
    await meter.seed({ account, creditPeriod: "p1", day: "20261122", credits: 0, daily: 0, cardIds: [], features: {}, periodTtlS: 3600 });
    const a = input(account);
    expect((await meter.acquire(a)).outcome).toBe(Outcome.OK);
    const generation = (await meter.peek(account, "p1", "20261122", [])).generation!;
    // Its one lease settled: the sorted set is gone, and the bucket's hash still says it lives.
    await meter.settleMany(account, "p1", "20261122", 3600, [{ leaseId: a.leaseId, generation, refundCredits: 0, charged: 1, cardIds: [] }], 0);
    expect(await redis.exists(keys(account, "p1", "", "").leases)).toBe(0);
    expect((await meter.acquire(input(account, { now: T0 + 1000 }))).outcome).toBe(Outcome.OK);
    expect(await redis.pttl(keys(account, "p1", "", "").leases)).toBeGreaterThanOrEqual(61_000 - 1000);
  });

  it("expired leases count for nothing and are dropped with the minute", async () => {
    const account = `t-${randomUUID()}`;
    await meter.seed({ account, creditPeriod: "p1", day: "20261122", credits: 0, daily: 0, cardIds: [], features: {}, periodTtlS: 3600 });
    for (let s = 0; s < 3; s++) expect((await meter.acquire(input(account, { now: T0 + s, maxInFlight: 3 }))).outcome).toBe(Outcome.OK);
    expect((await meter.acquire(input(account, { now: T0 + 10, maxInFlight: 3 }))).outcome).toBe(Outcome.CONCURRENCY);
    // The three leases lapse after 60 s: in force again, and the old ones gone from the set.
    const r = await meter.acquire(input(account, { now: T0 + 60_500, maxInFlight: 3 }));
    expect(r).toMatchObject({ outcome: Outcome.OK, inFlight: 1 });
    expect(await redis.zcard(keys(account, "p1", "", "").leases)).toBe(1);
  });
});
