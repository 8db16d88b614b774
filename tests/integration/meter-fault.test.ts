import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeAccount, type TestAccount } from "../helpers/accounts";
import { query } from "../helpers/db";
import { meterCounting, sleep } from "../helpers/meter";
import { startLeanServer, startRedis, type Proc } from "../helpers/servers";

// Two app instances on one database and the test's own redis-server, under load from a trial
// and a paid account. Redis is killed in the middle of the load (the trial is refused with 503
// METER_UNAVAILABLE, the paid plan served uncounted with X-RateLimit-Degraded: 1), restarted
// empty on the same port, and the load goes on. Once it stops and both instances have written
// their ledgers, every account's counters equal the durable record in PostgreSQL, and that
// record equals what the answers charged: nothing lost, nothing free.

type Phase = "before" | "outage" | "after";
type Call = { route: string; path: string; method?: "GET" | "POST"; body?: string };
type Seen = { account: string; route: string; phase: Phase; status: number; code?: string; cost: number; degraded: boolean; retryAfter: number };

const sets: Call = { route: "listSets", path: "/v1/sets?limit=1" };
const cards: Call = { route: "listCards", path: "/v1/cards?limit=100&select=id" };
const missing: Call = { route: "getCard", path: "/v1/cards/no-such-card" };
const edges = (left: number, top: number, right: number, bottom: number) => ({ left, top, right, bottom });
const confirm: Call = {
  route: "confirmCentering", path: "/v1/centering/confirm", method: "POST",
  body: JSON.stringify({ front: { outer: edges(60, 55, 690, 935), inner: edges(100, 95, 650, 895) } }),
};

let redis: Proc;
let apps: Proc[] = [];
let trial: TestAccount;
let paid: TestAccount;
let phase: Phase = "before";
const seen: Seen[] = [];

beforeAll(async () => {
  redis = await startRedis();
  [trial, paid] = await Promise.all([makeAccount({ confirmed: true }), makeAccount({ plan: "growth", confirmed: true })]);
  const env = { DATABASE_URL: process.env.DATABASE_URL!, REDIS_URL: redis.url, REDIS_TIMEOUT_MS: "200" };
  apps = await Promise.all([startLeanServer(env), startLeanServer(env)]);
  for (const a of [trial, paid]) await meterCounting(apps[0]!.url, a.key);
}, 90_000);

afterAll(async () => {
  await Promise.allSettled(loads.map((stop) => stop()));
  await Promise.all(apps.map((a) => a.stop()));
  await redis?.stop();
});

async function send(app: Proc, account: TestAccount, call: Call): Promise<Seen> {
  const at = phase;
  const headers: Record<string, string> = { "x-api-key": account.key };
  if (call.body) headers["content-type"] = "application/json";
  const res = await fetch(app.url + call.path, { method: call.method ?? "GET", headers, body: call.body });
  const body = (await res.json().catch(() => null)) as { error?: { code: string } } | null;
  const s: Seen = {
    account: account.id, route: call.route, phase: at, status: res.status, code: body?.error?.code,
    cost: Number(res.headers.get("x-credits-cost")), degraded: res.headers.get("x-ratelimit-degraded") === "1",
    retryAfter: Number(res.headers.get("retry-after") ?? 0),
  };
  seen.push(s);
  return s;
}

/** A call the test needs served: retried while the account's own pace or in-flight limit refuses it. */
async function paced(app: Proc, account: TestAccount, call: Call): Promise<Seen> {
  for (let i = 0; ; i++) {
    const s = await send(app, account, call);
    if (i >= 50 || (s.code !== "RATE_LIMITED" && s.code !== "CONCURRENCY_LIMIT")) return s;
    await sleep(100);
  }
}

const loads: (() => Promise<void>)[] = [];

/** Clients that alternate between the two instances until stopped. */
function load(account: TestAccount, calls: Call[], pauseMs: number, clients: number): () => Promise<void> {
  let running = true;
  const client = async (i: number) => {
    for (let n = 0; running; n++) {
      await send(apps[(i + n) % apps.length]!, account, calls[n % calls.length]!);
      await sleep(pauseMs);
    }
  };
  const done = Promise.all(Array.from({ length: clients }, (_, i) => client(i)));
  const stop = async () => {
    running = false;
    await done;
  };
  loads.push(stop);
  return stop;
}

async function ledger(account: TestAccount) {
  const [row] = await query<{ credits: number; confirms: number }>(
    `select coalesce(sum(credits), 0)::int as credits,
            coalesce(sum(requests - refunds) filter (where route = 'confirmCentering'), 0)::int as confirms
     from usage_ledger where account_id = $1`, [account.id]);
  return row!;
}

async function me(app: Proc, account: TestAccount) {
  const res = await fetch(`${app.url}/v1/me`, { headers: { "x-api-key": account.key } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { quota: { credits_used: number }; trial_calls?: Record<string, { used: number }> } }).data;
}

const of = (account: TestAccount, p?: Phase) => seen.filter((s) => s.account === account.id && (!p || s.phase === p));
const charged = (account: TestAccount) => of(account).filter((s) => s.status < 300).reduce((n, s) => n + s.cost, 0);

describe("the meter when Redis dies under load and comes back empty", () => {
  it("refuses the trial, serves the paid plan uncounted, and ends with counters equal to the ledger", async () => {
    const stops = [load(trial, [sets, sets, missing], 400, 2), load(paid, [cards, sets, missing], 10, 4)];
    await sleep(1500);
    for (const app of apps) expect((await paced(app, trial, confirm)).status).toBe(200);
    await sleep(500);

    await redis.stop();
    phase = "outage";
    await sleep(1000);
    for (const app of apps) {
      const refused = await send(app, trial, sets);
      expect({ status: refused.status, code: refused.code, cost: refused.cost }).toEqual({ status: 503, code: "METER_UNAVAILABLE", cost: 0 });
      expect(refused.retryAfter).toBeGreaterThan(0);
      expect(await send(app, paid, sets)).toMatchObject({ status: 200, degraded: true, cost: 0 });
      expect((await send(app, trial, confirm)).code).toBe("METER_UNAVAILABLE");
    }
    await sleep(500);

    redis = await startRedis(redis.port);
    phase = "after";
    for (const app of apps) for (const a of [trial, paid]) await meterCounting(app.url, a.key);
    for (const app of apps) expect((await paced(app, trial, confirm)).status).toBe(200);
    await sleep(1500);
    for (const stop of stops) await stop();
    // The last batched settles, then both instances' 2 s ledger batches.
    await sleep(3000);

    // While Redis was gone: no trial call served, every paid answer uncounted.
    const outage = [...of(trial, "outage"), ...of(paid, "outage")];
    expect(of(trial, "outage").length).toBeGreaterThan(2);
    expect(of(trial, "outage").filter((s) => s.code !== "METER_UNAVAILABLE")).toEqual([]);
    expect(of(paid, "outage").filter((s) => !s.degraded || s.cost !== 0)).toEqual([]);
    expect(outage.filter((s) => s.status >= 500 && s.code !== "METER_UNAVAILABLE")).toEqual([]);
    // Before and after, both accounts were counted.
    for (const a of [trial, paid]) {
      expect(of(a, "before").filter((s) => s.status === 200 && !s.degraded).length).toBeGreaterThan(3);
      expect(of(a, "after").filter((s) => s.status === 200 && !s.degraded).length).toBeGreaterThan(3);
    }

    const servedConfirms = of(trial).filter((s) => s.route === "confirmCentering" && s.status === 200).length;
    expect(servedConfirms).toBe(4);
    for (const a of [trial, paid]) {
      const record = await ledger(a);
      // Nothing lost: the ledger holds every credit an answer charged.
      expect(record.credits).toBe(charged(a));
      // Nothing free: both instances' meters count exactly what the ledger says.
      for (const app of apps) {
        const data = await me(app, a);
        expect(data.quota.credits_used, `${a === trial ? "trial" : "paid"} on ${app.port}`).toBe(record.credits);
        if (a === trial) expect(data.trial_calls!.centering_confirm!.used).toBe(record.confirms);
      }
      if (a === trial) expect(record.confirms).toBe(servedConfirms);
    }
    console.log(`[meter-fault] ${seen.length} answers; trial ${charged(trial)} credits, paid ${charged(paid)} credits; outage answers ${outage.length}`);
  }, 90_000);
});
