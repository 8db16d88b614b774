import Redis from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminSetCredits } from "@/lib/accounts/admin";
import { selectAccount } from "@/lib/accounts/queries/accounts";
import type { Account } from "@/lib/accounts/types";
import { closeMeter, meterDriver } from "@/lib/meter/driver";
import { flushLedger } from "@/lib/meter/ledger";
import { acquire, settle, type AcquireOutcome, type Lease } from "@/lib/meter/meter";
import { allowance, utcDay } from "@/lib/meter/policy";
import { flushSettles } from "@/lib/meter/settle-queue";
import { makeAccount } from "../helpers/accounts";
import { query } from "../helpers/db";
import { sleep } from "../helpers/meter";
import { startRedis, type Proc } from "../helpers/servers";

// Redis loses its data between a call's acquire and its settle (the test's own redis-server,
// emptied with FLUSHALL as a restart would), through the meter's own acquire and settle in
// this process, with the ledger in PostgreSQL. Whatever happens in between, the rebuilt
// counters end equal to the ledger: nothing free, nothing charged twice.

const GRACE_MS = 400;
let redis: Proc;
let admin: Redis;

beforeAll(async () => {
  redis = await startRedis();
  admin = new Redis(redis.url);
  process.env.REDIS_URL = redis.url;
  process.env.METER_REBUILD_GRACE_MS = String(GRACE_MS);
  await closeMeter();
}, 30_000);

afterAll(async () => {
  await closeMeter();
  admin?.disconnect();
  await redis?.stop();
  delete process.env.REDIS_URL;
  delete process.env.METER_REBUILD_GRACE_MS;
});

type Call = { route: string; cost: number; feature?: string };
const listSets: Call = { route: "listSets", cost: 1 };
const confirm: Call = { route: "confirmCentering", cost: 5, feature: "centering_confirm" };

async function account(opts: Parameters<typeof makeAccount>[0] = { confirmed: true }): Promise<Account> {
  return (await selectAccount((await makeAccount(opts)).id))!;
}

/** An acquire that the meter grants, waiting out a rebuild's grace or hold. */
async function acquired(a: Account, call: Call): Promise<Lease> {
  for (let i = 0; i < 50; i++) {
    const out = await acquire(a, call);
    if (out.ok) return out.lease;
    expect(out.error.code).toBe("METER_UNAVAILABLE");
    await sleep(50);
  }
  throw new Error("the meter never granted the call");
}

/** Served or refunded calls, settled and written down. */
async function spend(a: Account, call: Call, n: number, status = 200): Promise<void> {
  for (let i = 0; i < n; i++) await settle(await acquired(a, call), status);
  await written(a);
}

/** Every settle of the account sent and every ledger row written. */
async function written(a: Account): Promise<void> {
  await flushSettles(a.id);
  await sleep(50); // settles of counted features run after their answer
  await flushLedger();
}

async function ledger(a: Account): Promise<{ credits: number; confirms: number }> {
  const [row] = await query<{ credits: number; confirms: number }>(
    `select coalesce(sum(credits), 0)::int as credits,
            coalesce(sum(requests - refunds) filter (where route = 'confirmCentering'), 0)::int as confirms
     from usage_ledger where account_id = $1`, [a.id]);
  return row!;
}

const peek = async (a: Account) => (await meterDriver()).peek(a.id, allowance(a).period.key, utcDay(), ["centering_confirm"]);
const counters = async (a: Account) => (await admin.keys(`m:{${a.id}}:*`)).filter((k) => !/:(tb|lf)$/.test(k)).sort();
/** One account's keys gone, as after an eviction: the store's marker stays. */
const loseAccount = async (a: Account) => {
  const found = await admin.keys(`m:{${a.id}}:*`);
  if (found.length) await admin.del(...found);
};
const refusal = (out: AcquireOutcome) => (out.ok ? "granted" : out.error.code);

describe("the meter after Redis loses its data", () => {
  it("a refund settled between the loss and the rebuild creates no counter, and the rebuild gives nothing free", async () => {
    const a = await account();
    await spend(a, { route: "listSets", cost: 2 }, 3);
    const lease = await acquired(a, { route: "listCards", cost: 5 });
    await admin.flushall();
    await settle(lease, 500);
    // No counter of the period (the seed would have kept a negative one): a hold at most.
    expect((await counters(a)).filter((k) => !k.includes(":h:"))).toEqual([]);
    await written(a);
    const next = await acquired(a, listSets);
    expect(next.result!.creditsUsed).toBe(6 + 1);
    await settle(next, 200);
    await written(a);
    expect((await ledger(a)).credits).toBe(7);
    expect((await peek(a)).creditsUsed).toBe(7);
  });

  it("a served answer settled after a rebuild of another generation adds its charge; a refund adds nothing", async () => {
    const a = await account();
    await spend(a, { route: "listSets", cost: 2 }, 2);
    const served = await acquired(a, { route: "listCards", cost: 5 });
    const refunded = await acquired(a, { route: "listCards", cost: 3 });
    await admin.flushall();
    // Another request rebuilds from the ledger, which knows neither call yet.
    const other = await acquired(a, listSets);
    expect(other.result!.creditsUsed).toBe(4 + 1);
    await settle(other, 200);
    await settle(served, 200);
    await settle(refunded, 404);
    await written(a);
    expect((await ledger(a)).credits).toBe(10);
    expect((await peek(a)).creditsUsed).toBe(10);
  });

  it("the trial's counted calls are rebuilt from the ledger: served calls less refunds", async () => {
    const a = await account();
    await spend(a, confirm, 3);
    await spend(a, confirm, 1, 503);
    await admin.flushall();
    const next = await acquired(a, confirm);
    expect(next.result!.featureUsed).toBe(4);
    expect(next.result!.creditsUsed).toBe(20);
    await settle(next, 200);
    await written(a);
    expect(await ledger(a)).toEqual({ credits: 20, confirms: 4 });
    expect((await peek(a)).features.centering_confirm).toBe(4);
  });

  it("no account is rebuilt within the grace after Redis comes back empty; then a new account is served at once", async () => {
    const trial = await account();
    const paid = await account({ plan: "growth", confirmed: true });
    await spend(trial, listSets, 1);
    await spend(paid, listSets, 1);
    await admin.flushall();
    const emptied = Date.now();
    const refused = await acquire(trial, listSets);
    expect(refusal(refused)).toBe("METER_UNAVAILABLE");
    expect(Number(!refused.ok && refused.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    const uncounted = await acquire(paid, listSets);
    expect(uncounted.ok && uncounted.lease.degraded).toBe(true);
    // The served call's headers are its settle's.
    const served = await settle((uncounted as { lease: Lease }).lease, 200);
    expect(served.headers["x-ratelimit-degraded"]).toBe("1");
    const later = await acquired(trial, listSets);
    expect(Date.now() - emptied).toBeGreaterThanOrEqual(GRACE_MS - 50);
    expect(later.result!.creditsUsed).toBe(2);
    // Redis has now been up longer than the grace: a brand-new account waits for nothing.
    const fresh = await account();
    expect(refusal(await acquire(fresh, listSets))).toBe("granted");
  });

  it("an account made after Redis came back empty is served within the grace: the store saw all its calls", async () => {
    const old = await account();
    await spend(old, listSets, 1);
    await admin.flushall();
    expect(refusal(await acquire(old, listSets))).toBe("METER_UNAVAILABLE");
    const made = await account();
    expect(refusal(await acquire(made, listSets))).toBe("granted");
    // And on a store first opened empty (a new deployment): the marker is set when the meter opens.
    await admin.flushall();
    await closeMeter();
    await meterDriver();
    const first = await account();
    expect(refusal(await acquire(first, listSets))).toBe("granted");
    expect(refusal(await acquire(old, listSets))).toBe("METER_UNAVAILABLE");
  });

  it("a settle that finds the period unseeded writes its ledger row at once and holds the rebuild until then", async () => {
    const a = await account();
    await spend(a, listSets, 2);
    const lease = await acquired(a, { route: "listCards", cost: 5 });
    await loseAccount(a);
    await settle(lease, 200);
    await flushSettles(a.id);
    expect(refusal(await acquire(a, listSets))).toBe("METER_UNAVAILABLE");
    // Well before the ledger's 2 s batch: the row is in PostgreSQL already.
    await sleep(300);
    expect((await ledger(a)).credits).toBe(7);
    const next = await acquired(a, listSets);
    expect(next.result!.creditsUsed).toBe(8);
  });

  it("an operator setting the credits of an unseeded period keeps its other counters", async () => {
    const a = await account();
    await spend(a, confirm, 2);
    await spend(a, listSets, 1);
    await loseAccount(a);
    await adminSetCredits({ actor: "vitest", note: null, ip: null }, a.id, { used: 100 });
    const after = await peek(a);
    expect(after).toMatchObject({ creditsUsed: 100, dailyUsed: 11, features: { centering_confirm: 2 } });
    await flushLedger();
    expect((await ledger(a)).credits).toBe(100);
    const [audit] = await query<{ details: { from: number; to: number } }>(
      "select details from audit_log where account_id = $1 and action = 'set_credits_used'", [a.id]);
    expect(audit!.details).toMatchObject({ from: 11, to: 100 });
  });
});
