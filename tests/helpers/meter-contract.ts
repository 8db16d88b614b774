import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Outcome, UNSETTLED, type AcquireInput, type BatchSettle, type MeterDriver, type SeedInput, type SettleInput } from "@/lib/meter/types";

// One contract, replayed on every meter driver: the Lua scripts on Redis and the in-process
// maps of the embedded default must decide alike. Times are passed explicitly.

export const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);

/** An acquire's input at T0 for a new account: 5 a second, a burst of 10, 1 credit, no limit on credits. */
export const acquireInput = (over: Partial<AcquireInput> = {}): AcquireInput => ({
  account: `t-${randomUUID()}`, now: T0, rate: 5, burst: 10, perMinute: 0, maxInFlight: 100, leaseId: randomUUID(),
  leaseTtlMs: 60_000, cost: 1, creditLimit: -1, creditPeriod: "p1", periodTtlS: 3600, dailyCap: -1, day: "20261122",
  feature: "", featureLimit: -1, ...over,
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A driver, and how to make it lose one account's keys (what a Redis restart does to all of them). */
export type ContractSubject = { meter: MeterDriver; lose: (account: string) => Promise<void> };

export function meterContract(name: string, make: () => Promise<ContractSubject>) {
  describe(`meter contract: ${name}`, () => {
    let m: MeterDriver;
    let lose: ContractSubject["lose"];
    beforeAll(async () => {
      ({ meter: m, lose } = await make());
    });
    afterAll(async () => {
      await m.close();
    });

    const base = acquireInput;
    const seed = (i: AcquireInput, over: Partial<SeedInput> = {}) =>
      m.seed({ account: i.account, creditPeriod: i.creditPeriod, day: i.day, credits: 0, daily: 0, cardIds: [], features: {}, periodTtlS: 3600, ...over });
    const ready = async (i: AcquireInput) => {
      await seed(i);
      return i;
    };
    const generation = async (i: AcquireInput) => (await m.peek(i.account, i.creditPeriod, i.day, [])).generation ?? "";
    const again = (i: AcquireInput, over: Partial<AcquireInput> = {}) => m.acquire({ ...i, leaseId: randomUUID(), ...over });
    /** Settles under the period's current generation unless the test names one. */
    const settle = async (i: AcquireInput, over: Partial<SettleInput> = {}) =>
      m.settle({
        account: i.account, leaseId: i.leaseId, refund: false, cost: i.cost, partial: 0, creditPeriod: i.creditPeriod, day: i.day,
        feature: i.feature, featureCounted: i.featureLimit >= 0, cardIds: [], cardLimit: -1, periodTtlS: 3600,
        generation: over.generation ?? (await generation(i)), holdMs: 0, ...over,
      });
    const batch = async (i: AcquireInput, items: Omit<BatchSettle, "generation" | "charged">[], over: Partial<BatchSettle> = {}) => {
      const g = await generation(i);
      return items.map((it) => ({ generation: g, charged: 0, ...it, ...over }));
    };
    const peek = (i: AcquireInput, features: string[] = []) => m.peek(i.account, i.creditPeriod, i.day, features);

    it("refuses an account whose counters were never seeded, reserving nothing", async () => {
      const i = base();
      const r = await m.acquire(i);
      expect(r).toMatchObject({ outcome: Outcome.UNSEEDED, generation: "", retryAfterMs: 0 });
      expect(await seed(i, { credits: 7, daily: 3, cardIds: ["x"] })).toBe("seeded");
      const ok = await again(i);
      expect(ok).toMatchObject({ outcome: Outcome.OK, creditsUsed: 8, dailyUsed: 4, cardsUsed: 1 });
      expect(ok.generation).toBe(await generation(i));
      expect(ok.generation).not.toBe("");
      // A second seed (another instance, or a late one) never overwrites live counters.
      expect(await seed(i)).toBe("exists");
      expect((await again(i, { now: T0 + 1000 })).creditsUsed).toBe(9);
    });

    it("token bucket: a burst, then the pace", async () => {
      const i = await ready(base());
      for (let k = 0; k < 10; k++) expect((await again(i)).outcome, `request ${k}`).toBe(Outcome.OK);
      const refused = await again(i);
      expect(refused).toMatchObject({ outcome: Outcome.RATE_LIMITED, tokens: 0, retryAfterMs: 200 });
      // A refusal reserves nothing: the credits of ten requests, not eleven.
      expect(refused.creditsUsed).toBe(10);
      expect((await again(i, { now: T0 + 199 })).outcome).toBe(Outcome.RATE_LIMITED);
      const next = await again(i, { now: T0 + 200 });
      expect(next.outcome).toBe(Outcome.OK);
      expect(next.fullInMs).toBe(2000);
    });

    it("per-minute window", async () => {
      const i = await ready(base({ rate: 1000, burst: 1000, perMinute: 3 }));
      for (let k = 0; k < 3; k++) expect((await again(i)).outcome).toBe(Outcome.OK);
      const refused = await again(i, { now: T0 + 15_000 });
      expect(refused).toMatchObject({ outcome: Outcome.RATE_LIMITED, retryAfterMs: 45_000 });
      expect((await again(i, { now: T0 + 60_000 })).outcome).toBe(Outcome.OK);
    });

    it("per-minute window: any 60 s, not the clock's minutes", async () => {
      const i = await ready(base({ rate: 1000, burst: 1000, perMinute: 3 }));
      for (let k = 0; k < 3; k++) expect((await again(i, { now: T0 + 30_000 + k })).outcome).toBe(Outcome.OK);
      // A new minute on the clock, but the three are still within 60 s.
      expect(await again(i, { now: T0 + 61_000 })).toMatchObject({ outcome: Outcome.RATE_LIMITED, retryAfterMs: 29_000 });
      expect((await again(i, { now: T0 + 90_000 })).outcome).toBe(Outcome.OK);
      // The window rolls one call at a time: the second of the three leaves it a millisecond later.
      expect((await again(i, { now: T0 + 90_000 })).outcome).toBe(Outcome.RATE_LIMITED);
      expect((await again(i, { now: T0 + 90_001 })).outcome).toBe(Outcome.OK);
    });

    it("requests in flight, with leases that expire", async () => {
      const i = await ready(base({ maxInFlight: 2 }));
      const a = { ...i, leaseId: "a" };
      expect((await m.acquire(a)).outcome).toBe(Outcome.OK);
      expect((await m.acquire({ ...i, leaseId: "b" })).outcome).toBe(Outcome.OK);
      expect(await again(i)).toMatchObject({ outcome: Outcome.CONCURRENCY, retryAfterMs: 1000 });
      await settle(a);
      expect((await again(i)).outcome).toBe(Outcome.OK);
      // A crashed request never holds its slot past the lease.
      expect((await again(i, { now: T0 + 60_001 })).outcome).toBe(Outcome.OK);
    });

    it("credits: reserved before, refused when short, given back on a refund", async () => {
      const i = await ready(base({ cost: 4, creditLimit: 10 }));
      expect((await again(i)).creditsUsed).toBe(4);
      const second = { ...i, leaseId: "second" };
      expect((await m.acquire(second)).creditsUsed).toBe(8);
      expect(await again(i)).toMatchObject({ outcome: Outcome.QUOTA, creditsUsed: 8 });
      await settle(second, { refund: true });
      expect(await again(i)).toMatchObject({ outcome: Outcome.OK, creditsUsed: 8 });
      // A zero-cost call is never refused for credits.
      expect((await again(i, { cost: 0 })).outcome).toBe(Outcome.OK);
    });

    it("daily cap, with the time to midnight", async () => {
      const i = await ready(base({ cost: 5, dailyCap: 10 }));
      await again(i);
      await again(i);
      expect(await again(i)).toMatchObject({ outcome: Outcome.DAILY_CAP, retryAfterMs: 12 * 3600 * 1000, dailyUsed: 10 });
    });

    it("counted feature calls", async () => {
      const i = await ready(base({ feature: "identify", featureLimit: 2 }));
      const first = { ...i, leaseId: "f1" };
      expect((await m.acquire(first)).featureUsed).toBe(1);
      expect((await again(i)).featureUsed).toBe(2);
      expect((await again(i)).outcome).toBe(Outcome.FEATURE);
      await settle(first, { refund: true });
      expect((await again(i)).outcome).toBe(Outcome.OK);
    });

    it("a served answer that cost less gives the rest back and keeps its counted call", async () => {
      const i = await ready(base({ cost: 30, creditLimit: 100, feature: "identify", featureLimit: 5 }));
      const lease = { ...i, leaseId: "p1" };
      expect((await m.acquire(lease)).creditsUsed).toBe(30);
      expect(await settle(lease, { partial: 5 })).toMatchObject({ allowed: true });
      const next = await again(i, { cost: 0 });
      expect(next).toMatchObject({ creditsUsed: 25, dailyUsed: 25, featureUsed: 2 });
    });

    it("distinct cards: the crossing page is served whole, then only known cards answer", async () => {
      const i = await ready(base({ cost: 2, creditLimit: 100 }));
      const call = async (ids: string[]) => {
        const lease = { ...i, leaseId: randomUUID() };
        await m.acquire(lease);
        return settle(lease, { cardIds: ids, cardLimit: 3 });
      };
      expect(await call(["a", "b"])).toMatchObject({ allowed: true, cardsBefore: 0, cardsAfter: 2, newCards: 2 });
      expect(await call(["b", "c", "d"])).toMatchObject({ allowed: true, cardsBefore: 2, cardsAfter: 4, newCards: 2 });
      const refused = await call(["a", "e"]);
      expect(refused).toMatchObject({ allowed: false, cardsBefore: 4, newCards: 1 });
      expect(await call(["a", "d"])).toMatchObject({ allowed: true, cardsAfter: 4, newCards: 0 });
      // The refused call was given back: four calls reserved 8 credits, one was returned.
      expect((await again(i, { cost: 0 })).creditsUsed).toBe(6);
    });

    it("batched settles: slots released, refunds summed, new cards counted per answer", async () => {
      const i = await ready(base({ cost: 3, creditLimit: 100, maxInFlight: 3 }));
      const leases = ["b1", "b2", "b3"].map((leaseId) => ({ ...i, leaseId }));
      for (const l of leases) expect((await m.acquire(l)).outcome).toBe(Outcome.OK);
      expect((await again(i)).outcome).toBe(Outcome.CONCURRENCY);
      const fresh = await m.settleMany(i.account, i.creditPeriod, i.day, 3600, await batch(i, [
        { leaseId: "b1", refundCredits: 0, cardIds: ["x", "y"] },
        { leaseId: "b2", refundCredits: 3, cardIds: [] },
        { leaseId: "b3", refundCredits: 0, cardIds: ["y", "z"] },
      ]), 0);
      expect(fresh).toEqual([2, 0, 1]);
      const after = await again(i);
      // Three slots free again; 9 reserved, 3 given back, 3 more now.
      expect(after).toMatchObject({ outcome: Outcome.OK, creditsUsed: 9, cardsUsed: 3, inFlight: 1 });
    });

    it("an acquire applies the pending settles it carries before it decides", async () => {
      const i = await ready(base({ cost: 2, creditLimit: 100, maxInFlight: 2 }));
      for (const leaseId of ["p1", "p2"]) expect((await m.acquire({ ...i, leaseId })).outcome).toBe(Outcome.OK);
      expect((await again(i)).outcome).toBe(Outcome.CONCURRENCY);
      // Both slots are taken; the settles carried along free them within the same decision.
      const r = await again(i, {
        settles: await batch(i, [
          { leaseId: "p1", refundCredits: 0, cardIds: ["x", "y"] },
          { leaseId: "p2", refundCredits: 0, cardIds: ["y"] },
        ]),
      });
      expect(r).toMatchObject({ outcome: Outcome.OK, creditsUsed: 6, cardsUsed: 2, inFlight: 1, settled: [2, 0] });
      // Applied even when the acquire itself is refused.
      const refused = await again(i, { cost: 200, settles: await batch(i, [{ leaseId: "none", refundCredits: 0, cardIds: ["z"] }]) });
      expect(refused).toMatchObject({ outcome: Outcome.QUOTA, cardsUsed: 3, settled: [1] });
    });

    describe("after the counters are lost", () => {
      it("a settle, a refund or a batch on an unseeded period writes no counter: the seed's figures stand", async () => {
        const i = await ready(base({ cost: 5, creditLimit: 100, feature: "identify", featureLimit: 5 }));
        const served = { ...i, leaseId: "s1" };
        const refunded = { ...i, leaseId: "r1" };
        for (const l of [served, refunded]) expect((await m.acquire(l)).outcome).toBe(Outcome.OK);
        const old = await generation(i);
        await lose(i.account);
        expect(await settle(refunded, { generation: old, refund: true })).toMatchObject({ allowed: true, state: "unseeded" });
        expect(await settle(served, { generation: old, partial: 2, cardIds: ["x"], cardLimit: 10 })).toMatchObject({ allowed: true, state: "unseeded" });
        const late = [{ leaseId: "b1", generation: old, refundCredits: 5, charged: 0, cardIds: ["y"] }];
        expect(await m.settleMany(i.account, i.creditPeriod, i.day, 3600, late, 0)).toEqual([UNSETTLED]);
        const carried = await again(i, { settles: [{ leaseId: "b2", generation: old, refundCredits: 1, charged: 4, cardIds: ["z"] }] });
        expect(carried).toMatchObject({ outcome: Outcome.UNSEEDED, settled: [UNSETTLED] });
        expect(await peek(i, ["identify"])).toEqual({ creditsUsed: 0, dailyUsed: 0, cardsUsed: 0, features: { identify: 0 }, generation: null });
        // What the ledger says is all there is.
        expect(await seed(i, { credits: 12, daily: 12, cardIds: ["x"], features: { identify: 2 } })).toBe("seeded");
        expect(await again(i, { cost: 0 })).toMatchObject({ outcome: Outcome.OK, creditsUsed: 12, dailyUsed: 12, cardsUsed: 1, featureUsed: 3 });
      });

      it("under a generation rebuilt since the acquire, a served answer adds its charge and a refund changes nothing", async () => {
        const i = await ready(base({ cost: 5, creditLimit: 100, feature: "identify", featureLimit: 5 }));
        const a = { ...i, leaseId: "a" };
        const b = { ...i, leaseId: "b" };
        for (const l of [a, b]) expect((await m.acquire(l)).outcome).toBe(Outcome.OK);
        const old = await generation(i);
        await lose(i.account);
        await seed(i, { credits: 20, daily: 20, features: { identify: 3 } });
        const rebuilt = await generation(i);
        expect(rebuilt).not.toBe(old);
        expect(await settle(a, { generation: old, partial: 1, cardIds: ["x"] })).toMatchObject({ allowed: true, state: "reseeded", newCards: 1 });
        expect(await settle(b, { generation: old, refund: true })).toMatchObject({ allowed: true, state: "reseeded" });
        expect(await peek(i, ["identify"])).toMatchObject({ creditsUsed: 24, dailyUsed: 24, cardsUsed: 1, features: { identify: 4 } });
        // The same in a batch, next to an answer of the new generation that gives its reservation back.
        const c = { ...i, leaseId: "c", feature: "", featureLimit: -1 };
        expect((await m.acquire(c)).creditsUsed).toBe(29);
        const fresh = await m.settleMany(i.account, i.creditPeriod, i.day, 3600, [
          { leaseId: "old-served", generation: old, refundCredits: 1, charged: 4, cardIds: ["y"] },
          { leaseId: "old-refund", generation: old, refundCredits: 5, charged: 0, cardIds: [] },
          { leaseId: "c", generation: rebuilt, refundCredits: 5, charged: 0, cardIds: [] },
        ], 0);
        expect(fresh).toEqual([1, 0, 0]);
        expect(await peek(i, ["identify"])).toMatchObject({ creditsUsed: 28, dailyUsed: 28, cardsUsed: 2, features: { identify: 4 } });
      });

      it("a refused card page under a rebuilt generation gives back nothing it never held", async () => {
        const i = await ready(base({ cost: 2, creditLimit: 100 }));
        await m.acquire(i);
        const old = await generation(i);
        await lose(i.account);
        await seed(i, { credits: 10, cardIds: ["a", "b"] });
        expect(await settle(i, { generation: old, cardIds: ["c"], cardLimit: 2 })).toMatchObject({ allowed: false, state: "reseeded", newCards: 1 });
        expect(await peek(i)).toMatchObject({ creditsUsed: 10, cardsUsed: 2 });
      });

      it("the seed restores every counter the ledger knows: credits, the day's, cards and trial calls", async () => {
        const i = base({ cost: 0, feature: "identify", featureLimit: 5 });
        expect(await seed(i, { credits: 40, daily: 10, cardIds: ["a", "b"], features: { identify: 4, centering_measure: 5, centering_confirm: 0 } })).toBe("seeded");
        expect(await peek(i, ["identify", "centering_measure", "centering_confirm"])).toMatchObject({
          creditsUsed: 40, dailyUsed: 10, cardsUsed: 2, features: { identify: 4, centering_measure: 5, centering_confirm: 0 },
        });
        expect(await again(i)).toMatchObject({ outcome: Outcome.OK, featureUsed: 5 });
        expect((await again(i)).outcome).toBe(Outcome.FEATURE);
        expect((await again(i, { feature: "centering_measure" })).outcome).toBe(Outcome.FEATURE);
        expect((await again(i, { feature: "centering_confirm" })).featureUsed).toBe(1);
      });

      it("a settle that finds the period unseeded holds its rebuild back until its hold expires", async () => {
        const i = await ready(base());
        const old = await generation(i);
        await lose(i.account);
        await settle(i, { generation: old, holdMs: 60_000 });
        expect(await seed(i)).toBe("held");
        const r = await again(i);
        expect(r.outcome).toBe(Outcome.UNSEEDED);
        expect(r.retryAfterMs).toBeGreaterThan(50_000);
        expect(r.retryAfterMs).toBeLessThanOrEqual(60_000);
        const j = base();
        await settle(j, { generation: "gone", holdMs: 30 });
        await sleep(60);
        expect(await seed(j)).toBe("seeded");
      });

      it("an operator's credits need a seeded period, and tell what they replaced", async () => {
        const i = base();
        expect(await m.setCredits(i.account, i.creditPeriod, 50, 3600)).toBeNull();
        expect(await peek(i)).toMatchObject({ creditsUsed: 0, generation: null });
        await seed(i, { credits: 7 });
        expect(await m.setCredits(i.account, i.creditPeriod, 50, 3600)).toBe(7);
        expect((await again(i)).creditsUsed).toBe(51);
      });

      it("the store's age counts from the first call that found it without its marker", async () => {
        const first = await m.age();
        expect(first).toBeGreaterThanOrEqual(0);
        await sleep(40);
        expect(await m.age()).toBeGreaterThanOrEqual(first + 30);
      });
    });

    it("simple fixed-window limits", async () => {
      const key = `ip:${randomUUID()}`;
      expect((await m.hit(key, 2, 60)).allowed).toBe(true);
      expect((await m.hit(key, 2, 60)).allowed).toBe(true);
      const third = await m.hit(key, 2, 60);
      expect(third.allowed).toBe(false);
      expect(third.count).toBe(3);
      expect(third.retryAfterS).toBeGreaterThan(0);
    });
  });
}
