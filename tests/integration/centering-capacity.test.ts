import Redis from "ioredis";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { resetLocalCapacity, takeSlot, type CapacitySlot } from "@/lib/centering/capacity";
import { ioredisClient } from "@/lib/meter/ioredis";
import type { ScriptClient } from "@/lib/meter/redis";
import { makeAccount } from "../helpers/accounts";
import { call } from "../helpers/api";
import { cardScan, imageForm } from "../helpers/images";

// Two measurements running and two waiting per deployment; the fifth concurrent request is
// refused at once. The same rule in process and on Redis, where several instances share it.

const redis = new Redis(process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379");
afterAll(() => redis.disconnect());

const settled = async <T>(p: Promise<T>, ms = 150) => Promise.race([p, new Promise<"pending">((r) => setTimeout(() => r("pending"), ms))]);

function contract(name: string, client: () => ScriptClient | undefined) {
  describe(`centering capacity (${name})`, () => {
    beforeEach(async () => {
      resetLocalCapacity();
      await redis.del("centering:running", "centering:waiting");
    });

    it("runs two, queues two, refuses the fifth, and lets a waiter in when a slot frees", async () => {
      const c = client();
      const running = (await Promise.all([takeSlot({ client: c }), takeSlot({ client: c })])) as CapacitySlot[];
      expect(running.every(Boolean)).toBe(true);
      const waiters = [takeSlot({ client: c }), takeSlot({ client: c })];
      expect(await settled(waiters[0]!)).toBe("pending");
      expect(await settled(waiters[1]!)).toBe("pending");
      expect(await takeSlot({ client: c })).toBeNull();
      await running[0]!.release();
      const first = await Promise.race(waiters);
      expect(first).not.toBeNull();
      await running[1]!.release();
      const both = (await Promise.all(waiters)) as CapacitySlot[];
      expect(both.every(Boolean)).toBe(true);
      for (const s of both) await s.release();
      // Everything released: two run at once again.
      const again = await Promise.all([takeSlot({ client: c }), takeSlot({ client: c })]);
      expect(again.every(Boolean)).toBe(true);
      for (const s of again) await s!.release();
    });

    it("twenty concurrent requests: never more than two running, four admitted before any release", async () => {
      const c = client();
      let active = 0;
      let peak = 0;
      const outcomes = await Promise.all(Array.from({ length: 20 }, async () => {
        const slot = await takeSlot({ client: c });
        if (!slot) return "refused";
        active++;
        peak = Math.max(peak, active);
        await new Promise((r) => setTimeout(r, 60));
        active--;
        await slot.release();
        return "served";
      }));
      expect(peak).toBeLessThanOrEqual(2);
      expect(outcomes.filter((o) => o === "served")).toHaveLength(4);
      expect(outcomes.filter((o) => o === "refused")).toHaveLength(16);
    });
  });
}

contract("in process", () => undefined);
contract("redis", () => ioredisClient(redis));

describe("POST /v1/centering/measure at capacity", () => {
  it("503 PROVIDER_UNAVAILABLE with Retry-After: 2, nothing charged, the trial call given back", async () => {
    const a = await makeAccount({ confirmed: true });
    const scan = await cardScan({ left_right: 55, top_bottom: 50 });
    const measure = () => call("POST", "/v1/centering/measure", { body: imageForm(scan), headers: { "x-api-key": a.key } });
    // The deployment's capacity taken: two running, two waiting (the route's own semaphore).
    const running = (await Promise.all([takeSlot(), takeSlot()])) as CapacitySlot[];
    const waiters = [takeSlot(), takeSlot()];
    const refused = await measure();
    for (const s of running) await s.release();
    for (const s of await Promise.all(waiters)) await s?.release();
    expect(refused.status).toBe(503);
    expect((await refused.json()).error.code).toBe("PROVIDER_UNAVAILABLE");
    expect(refused.headers.get("retry-after")).toBe("2");
    expect(refused.headers.get("x-credits-cost")).toBe("0");
    // The refused call did not use one of the five trial measurements.
    for (let i = 0; i < 5; i++) expect((await measure()).status).toBe(200);
    const sixth = await measure();
    expect(sixth.status).toBe(403);
    expect((await sixth.json()).error.code).toBe("PLAN_REQUIRED");
  });
});
