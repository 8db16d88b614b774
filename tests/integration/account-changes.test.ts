import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { announceAccountChange, closeAccountBus } from "@/lib/accounts/invalidate";
import { rows } from "@/lib/db/client";
import { makeAccount } from "../helpers/accounts";
import { startLeanServer, startRedis, type Proc } from "../helpers/servers";

// A plan or state change (a Stripe webhook on one instance, an operator) reaches every other
// instance on its next request: announced over the meter's Redis, each instance drops its cached
// lookups of the account. Without the announcement an instance keeps its lookup for up to 5 s.

let redis: Proc;
let other: Proc;

beforeAll(async () => {
  redis = await startRedis();
  other = await startLeanServer({ DATABASE_URL: process.env.DATABASE_URL!, REDIS_URL: redis.url });
  process.env.REDIS_URL = redis.url;
}, 60_000);

afterAll(async () => {
  delete process.env.REDIS_URL;
  await closeAccountBus();
  await other?.stop();
  await redis?.stop();
});

const status = async (key: string) => {
  const res = await fetch(`${other.url}/v1/sets?limit=1`, { headers: { "x-api-key": key } });
  await res.arrayBuffer();
  return res.status;
};

async function eventually(fn: () => Promise<number>, want: number, ms = 2000): Promise<number> {
  const until = Date.now() + ms;
  let got = await fn();
  while (got !== want && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 50));
    got = await fn();
  }
  return got;
}

describe("account changes reach every instance", () => {
  it("an announced cancellation refuses on the other instance at once; an unannounced one waits for its cache", async () => {
    const told = await makeAccount({ plan: "growth", confirmed: true });
    const silent = await makeAccount({ plan: "growth", confirmed: true });
    expect(await status(told.key)).toBe(200);
    expect(await status(silent.key)).toBe(200);
    // The other instance subscribes on its first keyed request.
    await new Promise((r) => setTimeout(r, 300));

    const started = Date.now();
    await rows(sql`update accounts set status = 'canceled' where id in (${told.id}, ${silent.id})`);
    await announceAccountChange(told.id);
    expect(await eventually(() => status(told.key), 403)).toBe(403);
    expect(Date.now() - started).toBeLessThan(2000);
    // The account not announced is still served from the other instance's cache (KEY_CACHE_MS).
    expect(await status(silent.key)).toBe(200);
  }, 60_000);
});
