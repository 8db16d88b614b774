import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeAccount, type TestAccount } from "../helpers/accounts";
import { startLeanServer, startRedis, type Proc } from "../helpers/servers";

// Redis stops in the middle of a run (the test's own redis-server). The trial is refused with
// 503 METER_UNAVAILABLE; a paid plan is served, uncounted, with X-RateLimit-Degraded: 1. When
// Redis is back (empty), nothing recorded before the stop is missing from /v1/me/usage, and
// the meter rebuilds each account's spending from the ledger.

let redis: Proc;
let app: Proc;
let trial: TestAccount;
let paid: TestAccount;

const get = (account: TestAccount, path: string) => fetch(app.url + path, { headers: { "x-api-key": account.key } });

beforeAll(async () => {
  redis = await startRedis();
  trial = await makeAccount({ confirmed: true });
  paid = await makeAccount({ plan: "growth", confirmed: true });
  app = await startLeanServer({ DATABASE_URL: process.env.DATABASE_URL!, REDIS_URL: redis.url, REDIS_TIMEOUT_MS: "200" });
}, 60_000);

afterAll(async () => {
  await app?.stop();
  await redis?.stop();
});

async function spend(account: TestAccount, n: number): Promise<number> {
  let charged = 0;
  for (let i = 0; i < n; i++) {
    const res = await get(account, `/v1/cards?limit=${50 * (i + 1)}&select=id`);
    expect(res.status).toBe(200);
    charged += Number(res.headers.get("x-credits-cost"));
    await res.arrayBuffer();
  }
  return charged;
}

describe("the meter when Redis goes away", () => {
  it("refuses the trial, serves paid plans degraded, and loses nothing", async () => {
    const trialBefore = await spend(trial, 4); // 1 + 2 + 3 + 4 credits
    const paidBefore = await spend(paid, 4);
    expect(trialBefore).toBe(10);
    expect(paidBefore).toBe(10);

    await redis.stop();

    const refused = await get(trial, "/v1/sets");
    expect(refused.status).toBe(503);
    const err = (await refused.json()) as { error: { code: string } };
    expect(err.error.code).toBe("METER_UNAVAILABLE");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(refused.headers.get("x-credits-cost")).toBe("0");

    const degraded = await get(paid, "/v1/sets");
    expect(degraded.status).toBe(200);
    expect(degraded.headers.get("x-ratelimit-degraded")).toBe("1");
    expect(degraded.headers.get("x-credits-cost")).toBe("0");
    await degraded.arrayBuffer();

    redis = await startRedis(redis.port);
    // ioredis reconnects by itself: wait for a counted answer.
    let back = false;
    for (let i = 0; i < 50 && !back; i++) {
      const res = await get(paid, "/v1/me");
      back = res.status === 200 && res.headers.get("x-ratelimit-degraded") === null;
      await res.arrayBuffer();
      if (!back) await new Promise((r) => setTimeout(r, 200));
    }
    expect(back).toBe(true);

    for (const [account, before] of [[trial, trialBefore], [paid, paidBefore]] as const) {
      const usage = (await (await get(account, "/v1/me/usage?days=1")).json()) as { data: { totals: { credits: number; requests: number } } };
      expect(usage.data.totals.credits).toBe(before);
      // The fresh Redis was seeded from the ledger: the balance continues where it was.
      const me = (await (await get(account, "/v1/me")).json()) as { data: { quota: { credits_used: number } } };
      expect(me.data.quota.credits_used).toBe(before);
    }
    // And the next trial call is counted on top of it.
    const next = await get(trial, "/v1/sets");
    expect(next.status).toBe(200);
    expect(Number(next.headers.get("x-quota-remaining"))).toBe(800 - trialBefore - 1);
  }, 60_000);
});
