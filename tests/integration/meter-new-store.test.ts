import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeAccount } from "../helpers/accounts";
import { startLeanServer, startRedis, type Proc } from "../helpers/servers";

// A new deployment: an app instance on a Redis that has never held anything. The accounts made
// after it started had every call counted by that Redis, so their first calls are served at once,
// not refused for the grace a Redis that came back empty gives the other instances' ledgers.

let redis: Proc;
let app: Proc;

beforeAll(async () => {
  redis = await startRedis();
  app = await startLeanServer({ DATABASE_URL: process.env.DATABASE_URL!, REDIS_URL: redis.url, METER_REBUILD_GRACE_MS: "20000" });
}, 60_000);

afterAll(async () => {
  await app?.stop();
  await redis?.stop();
});

describe("a new deployment's empty Redis", () => {
  it("serves a trial account made after the start on its first calls", async () => {
    const { key } = await makeAccount({ confirmed: true });
    for (const path of ["/v1/me", "/v1/sets?limit=1"]) {
      const res = await fetch(app.url + path, { headers: { "x-api-key": key } });
      expect([path, res.status, res.headers.get("x-error-code")]).toEqual([path, 200, null]);
    }
  });
});
