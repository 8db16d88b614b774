import Redis from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyKey } from "@/lib/accounts/keys";
import type { Account } from "@/lib/accounts/types";
import { closeMeter, meterDriver } from "@/lib/meter/driver";
import { flushLedger } from "@/lib/meter/ledger";
import { acquire, settle } from "@/lib/meter/meter";
import { allowance, utcDay } from "@/lib/meter/policy";
import { flushSettles } from "@/lib/meter/settle-queue";
import type { AcquireInput } from "@/lib/meter/types";
import { makeAccount } from "../helpers/accounts";
import { query } from "../helpers/db";
import { DAY_MS } from "../helpers/meter";
import { startRedis, type Proc } from "../helpers/servers";

// A served answer's settle waits for the account's next acquire, which applies it first in the
// same script (one round trip a call).

async function account(plan: "enterprise" | "growth" = "enterprise"): Promise<Account> {
  const { key } = await makeAccount({ plan, confirmed: true });
  const found = await verifyKey(key);
  if (!found.ok) throw new Error("the key matches no account");
  return found.account;
}

/** One metered call that returned `cards`; its acquire's result. */
async function call(a: Account, cards: string[]) {
  const got = await acquire(a, { route: "listSetCards", cost: 1 });
  if (!got.ok) throw got.error;
  expect((await settle(got.lease, 200, cards)).ok).toBe(true);
  return got.lease.result!;
}

describe("queued settles", () => {
  // Otherwise a slot more per call until the in-flight limit forces the queue out: with
  // enterprise's 32, a pool of 8 connections was refused CONCURRENCY_LIMIT.
  it("leave with the account's next acquire: calls that follow one another hold one slot", async () => {
    const a = await account();
    for (let i = 0; i < 6; i++) expect((await call(a, ["base1-4"])).inFlight).toBe(1);
  });

  it("carry only cards already counted; an answer with others is counted before it goes out", async () => {
    const a = await account();
    const driver = await meterDriver();
    const sent: string[][] = [];
    const [acq, one] = [driver.acquire.bind(driver), driver.settle.bind(driver)];
    const d = driver as { acquire: typeof acq; settle: typeof one };
    d.acquire = async (input: AcquireInput) => {
      if (input.account === a.id) sent.push(...(input.settles ?? []).map((s) => ["batched", ...s.cardIds]));
      return acq(input);
    };
    d.settle = async (input) => {
      if (input.account === a.id) sent.push(["alone", ...input.cardIds]);
      return one(input);
    };
    try {
      const page = ["base1-1", "base1-2", "base1-3"];
      const used = async (cards: string[]) => {
        const got = await acquire(a, { route: "listSetCards", cost: 1 });
        if (!got.ok) throw got.error;
        const out = await settle(got.lease, 200, cards);
        if (!out.ok) throw out.error;
        return out.headers["x-cards-used"];
      };
      expect(await used(page)).toBe("3"); // new cards: counted alone, the header after them
      expect(await used(page)).toBe("3"); // known: queued, nothing sent
      expect(await used([...page, "base1-4"])).toBe("4"); // carries the second's settle; its new card alone
      const last = await call(a, []);
      expect(sent).toEqual([["alone", ...page], ["batched"], ["alone", "base1-4"]]);
      expect(last.cardsUsed).toBe(4);
    } finally {
      Object.assign(d, { acquire: acq, settle: one });
    }
  });
});

// ── the cards a batched settle leaves out ────────────────────────────────────
// This process remembers the cards already counted into an account's distinct cards, per
// period and generation of its counters (unknownCards/rememberCards in lib/meter/meter.ts), and
// a batched settle sends only the answer's others. Every counter must come out as if the whole
// answer were sent: checked here against a model of the meter without that memory, call by
// call (the headers, the new cards each settle reports to the request log) and at the end (the
// counters, the ledger), on the in-process meter and on Redis's scripts, across a rebuild of
// the counters (a new generation) and a new period.

/** The meter without any memory of cards: every answer's cards counted whole. */
class Model {
  cards = new Set<string>();
  credits = 0;
  /** New cards over every answer (the ledger's sum; a rebuild that lost cards counts them again). */
  added = 0;
  /** An answer of `cost` credits that returned `ids`: its new distinct cards. */
  serve(ids: string[], cost = 1): number {
    this.credits += cost;
    let fresh = 0;
    for (const id of new Set(ids)) if (!this.cards.has(id)) (this.cards.add(id), fresh++);
    this.added += fresh;
    return fresh;
  }
}

type Spy = { sent: string[][]; stop: () => void };

/** The cards each batched settle of `accountId` carries to the meter (with an acquire, or on its own). */
async function spySettles(accountId: string): Promise<Spy> {
  const driver = await meterDriver();
  const sent: string[][] = [];
  const { acquire: acq, settleMany, settle: one } = driver;
  const d = driver as { acquire: typeof acq; settleMany: typeof settleMany; settle: typeof one };
  d.acquire = async (input: AcquireInput) => {
    if (input.account === accountId) sent.push(...(input.settles ?? []).map((s) => [...s.cardIds]));
    return acq.call(driver, input);
  };
  d.settleMany = async (account, period, day, ttl, items, hold) => {
    if (account === accountId) sent.push(...items.map((s) => [...s.cardIds]));
    return settleMany.call(driver, account, period, day, ttl, items, hold);
  };
  // An answer with cards not yet known settles on its own, awaited (its X-Cards-Used is the count after it).
  d.settle = async (input) => {
    if (input.account === accountId) sent.push([...input.cardIds]);
    return one.call(driver, input);
  };
  return { sent, stop: () => Object.assign(d, { acquire: acq, settleMany, settle: one }) };
}

/**
 * One served call that returned `ids`, checked against the model: the headers show the counters
 * after the answer (every earlier settle applied, its charge and its cards included); the new
 * cards its settle reports (what the request log and the ledger record) are checked once it is
 * answered.
 */
async function served(a: Account, model: Model, ids: string[], checks: Promise<void>[]): Promise<void> {
  const got = await acquire(a, { route: "listSetCards", cost: 1 });
  if (!got.ok) throw got.error;
  const reported = new Promise<number>((resolve) => (got.lease.onSettled = (o) => resolve(o.newCards)));
  const out = await settle(got.lease, 200, ids);
  if (!out.ok) throw out.error;
  const quota = allowance(a).credits;
  expect(out.headers["x-quota-remaining"]).toBe(String(quota - model.credits - 1));
  expect(out.headers["x-credits-cost"]).toBe("1");
  const fresh = model.serve(ids);
  expect(out.headers["x-cards-used"]).toBe(String(model.cards.size));
  checks.push(reported.then((n) => expect(n, `new cards of the answer of ${ids.length} cards`).toBe(fresh)));
}

/** Every settle of the account answered and checked; its counters and ledger equal the model's. */
async function settledAs(a: Account, model: Model, checks: Promise<void>[]): Promise<void> {
  await flushSettles(a.id);
  await Promise.all(checks.splice(0));
  const at = allowance(a);
  const counters = await (await meterDriver()).peek(a.id, at.period.key, utcDay(), []);
  expect({ credits: counters.creditsUsed, cards: counters.cardsUsed }).toEqual({ credits: model.credits, cards: model.cards.size });
  await flushLedger();
  const [ledger] = await query<{ credits: number; new_cards: number }>(
    `select coalesce(sum(credits), 0)::int as credits, coalesce(sum(new_cards), 0)::int as new_cards from usage_ledger where account_id = $1 and period = $2`,
    [a.id, at.period.key]);
  const cards = await query<{ card_id: string }>(`select card_id from account_cards where account_id = $1 and period = $2`, [a.id, at.period.key]);
  expect(ledger).toEqual({ credits: model.credits, new_cards: model.added });
  expect(new Set(cards.map((c) => c.card_id))).toEqual(model.cards);
}

const PAGE = Array.from({ length: 40 }, (_, i) => `sv2-${i + 1}`);
const MORE = Array.from({ length: 10 }, (_, i) => `sv2-${i + 36}`); // 5 of PAGE, 5 new

describe.each(["memory", "redis"] as const)("a page asked again (%s meter)", (kind) => {
  let redis: Proc | undefined;
  let admin: Redis | undefined;
  const saved = { url: process.env.REDIS_URL, grace: process.env.METER_REBUILD_GRACE_MS };

  beforeAll(async () => {
    if (kind === "redis") {
      redis = await startRedis();
      admin = new Redis(redis.url);
      process.env.REDIS_URL = redis.url;
      // A rebuild at once: this test's own Redis, one instance.
      process.env.METER_REBUILD_GRACE_MS = "0";
    } else {
      delete process.env.REDIS_URL;
    }
    await closeMeter();
  }, 30_000);

  afterAll(async () => {
    await closeMeter();
    admin?.disconnect();
    await redis?.stop();
    for (const [k, v] of [["REDIS_URL", saved.url], ["METER_REBUILD_GRACE_MS", saved.grace]] as const) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });

  /**
   * The account's counters gone (Redis lost them; for the in-process meter, a new one), and its
   * ledger without the cards: the next acquire rebuilds the period under a new generation whose
   * distinct cards are none of those this process remembers, as a rebuild from a ledger that
   * lacks another instance's unwritten cards would be. Skipping the remembered cards there would
   * count them never again.
   */
  async function rebuildWithoutCards(a: Account): Promise<void> {
    await query(`delete from account_cards where account_id = $1`, [a.id]);
    if (admin) {
      const held = await admin.keys(`m:{${a.id}}:*`);
      if (held.length) await admin.del(...held);
    } else {
      await closeMeter();
    }
  }

  it("sends only the cards not known in the generation; counters exact through a rebuild and a new period", async () => {
    const a = await account("growth");
    const model = new Model();
    const checks: Promise<void>[] = [];
    let spy = await spySettles(a.id);
    try {
      // Generation 1: the first answer's cards are all sent; once its settle is answered, the
      // same page again sends none of them, and a page that overlaps sends its new ones only.
      await served(a, model, PAGE, checks);
      await served(a, model, PAGE, checks);
      await served(a, model, PAGE, checks);
      await served(a, model, MORE, checks);
      await served(a, model, [...MORE, "base1-4"], checks);
      await settledAs(a, model, checks);
      expect(spy.sent).toEqual([PAGE, [], [], MORE.slice(5), ["base1-4"]]);
      const generation1 = (await acquireResult(a)).generation;

      // Rebuilt without the cards: the model loses them too, the credits stay. Everything of the
      // page must be sent again, and counted again.
      await rebuildWithoutCards(a);
      model.cards.clear();
      spy.stop();
      spy = await spySettles(a.id);
      await served(a, model, PAGE, checks);
      await served(a, model, PAGE, checks);
      await served(a, model, MORE, checks);
      await settledAs(a, model, checks);
      expect(spy.sent).toEqual([PAGE, [], MORE.slice(5)]);
      expect((await acquireResult(a)).generation).not.toBe(generation1);
      expect(model.cards.size).toBe(45);

      // A new period: its counters start empty, whatever this process remembers of the last one.
      const next: Account = { ...a, periodStart: new Date(Date.now() - 1000).toISOString(), periodEnd: new Date(Date.now() + 30 * DAY_MS).toISOString() };
      expect(allowance(next).period.key).not.toBe(allowance(a).period.key);
      const nextModel = new Model();
      spy.sent.length = 0;
      await served(next, nextModel, PAGE, checks);
      await served(next, nextModel, PAGE, checks);
      await served(next, nextModel, [...MORE], checks);
      await settledAs(next, nextModel, checks);
      expect(spy.sent).toEqual([PAGE, [], MORE.slice(5)]);
      expect(nextModel.cards.size).toBe(45);
    } finally {
      spy.stop();
    }
  });
});

/** An acquire of nothing (cost 0) that shows the counters' current generation; its settle refunds nothing. */
async function acquireResult(a: Account) {
  const got = await acquire(a, { route: "listSets", cost: 0 });
  if (!got.ok) throw got.error;
  await settle(got.lease, 200);
  await flushSettles(a.id);
  return got.lease.result!;
}
