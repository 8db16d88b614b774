import Redis from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { selectAccount } from "@/lib/accounts/queries/accounts";
import { period } from "@/lib/meter/policy";
import { keys } from "@/lib/meter/types";
import { makeAccount, type TestAccount } from "../helpers/accounts";
import { query } from "../helpers/db";
import { meterCounting } from "../helpers/meter";
import { startLeanServer, startRedis, type Proc } from "../helpers/servers";

// Two app processes on one Redis, 100 concurrent clients on one confirmed trial account for
// 10 s. The meter's decisions are atomic across instances: the credits spent equal the sum
// of X-Credits-Cost of the 2xx answers exactly, the in-flight limit (3) is never exceeded,
// and nothing answers 5xx.

const SECONDS = 10;
const CLIENTS = 100;

let redis: Proc;
let apps: Proc[] = [];
let account: TestAccount;

beforeAll(async () => {
  redis = await startRedis();
  account = await makeAccount({ confirmed: true });
  // The question here is atomicity, not speed: on a loaded two-core CI machine a script call can
  // take longer than the production timeout, which would turn a trial call into a 503.
  const env = { DATABASE_URL: process.env.DATABASE_URL!, REDIS_URL: redis.url, REDIS_TIMEOUT_MS: "3000" };
  apps = await Promise.all([startLeanServer(env), startLeanServer(env)]);
  // A Redis that just started rebuilds no account before its grace: the load starts after it.
  await meterCounting(apps[0]!.url, account.key);
}, 90_000);

afterAll(async () => {
  await Promise.all(apps.map((a) => a.stop()));
  await redis?.stop();
});

describe("the meter across two app processes", () => {
  it(`${CLIENTS} clients for ${SECONDS} s on one trial account`, async () => {
    const a = (await selectAccount(account.id))!;
    const leasesKey = keys(account.id, period(a).key, "", "").leases;
    const watcher = new Redis(redis.url);
    let maxInFlight = 0;
    let watching = true;
    const watch = (async () => {
      while (watching) {
        // Live leases only: the script drops expired ones lazily.
        const n = await watcher.zcount(leasesKey, Date.now(), "+inf");
        maxInFlight = Math.max(maxInFlight, n);
        await new Promise((r) => setTimeout(r, 2));
      }
    })();

    const statuses = new Map<number, number>();
    const codes = new Map<string, number>();
    let charged = 0;
    let served = 0;
    const until = Date.now() + SECONDS * 1000;
    const paths = ["/v1/sets?limit=1", "/v1/cards/base1-4?select=name", "/v1/series", "/v1/me"];
    const client = async (i: number) => {
      for (let n = 0; Date.now() < until; n++) {
        const app = apps[(i + n) % apps.length]!;
        const res = await fetch(app.url + paths[(i + n) % paths.length], { headers: { "x-api-key": account.key } });
        const body = (await res.json()) as { error?: { code: string } };
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (body.error) codes.set(body.error.code, (codes.get(body.error.code) ?? 0) + 1);
        const cost = Number(res.headers.get("x-credits-cost") ?? "NaN");
        expect(Number.isNaN(cost), `X-Credits-Cost on ${res.status}`).toBe(false);
        if (res.status >= 200 && res.status < 300) {
          served++;
          charged += cost;
        } else {
          expect(cost).toBe(0);
        }
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, (_, i) => client(i)));
    watching = false;
    await watch;

    // Settles run after each answer: give the last ones a moment, then ask the meter.
    await new Promise((r) => setTimeout(r, 1500));
    const spent = Number((await watcher.get(keys(account.id, period(a).key, "", "").credits)) ?? 0);
    await watcher.quit();

    console.log(`[concurrency] statuses ${JSON.stringify(Object.fromEntries(statuses))}, codes ${JSON.stringify(Object.fromEntries(codes))}, served ${served}, charged ${charged}, max in flight ${maxInFlight}`);
    expect([...statuses.keys()].filter((s) => s >= 500)).toEqual([]);
    expect(served).toBeGreaterThan(0);
    expect(codes.get("RATE_LIMITED") ?? 0).toBeGreaterThan(0);
    expect(spent).toBe(charged);
    expect(maxInFlight).toBeLessThanOrEqual(3);

    // The durable ledger agrees once both instances have written their batches.
    await Promise.all(apps.map((p) => p.stop()));
    apps = [];
    const [row] = await query<{ credits: number }>("select coalesce(sum(credits), 0)::int as credits from usage_ledger where account_id = $1", [account.id]);
    expect(row!.credits).toBe(charged);
  }, 60_000);
});
