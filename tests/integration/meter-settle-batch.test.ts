import { describe, expect, it } from "vitest";
import { verifyKey } from "@/lib/accounts/keys";
import type { Account } from "@/lib/accounts/types";
import { meterDriver } from "@/lib/meter/driver";
import { acquire, settle } from "@/lib/meter/meter";
import type { AcquireInput } from "@/lib/meter/types";
import { makeAccount } from "../helpers/accounts";

// A served answer's settle waits for the account's next acquire, which applies it first in the
// same script (one round trip a call).

async function account(): Promise<Account> {
  const { key } = await makeAccount({ plan: "enterprise", confirmed: true });
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

  it("carry only cards not yet counted, and the distinct cards stay exact", async () => {
    const a = await account();
    const driver = await meterDriver();
    const sent: string[][] = [];
    const original = driver.acquire.bind(driver);
    const spy = async (input: AcquireInput) => {
      if (input.account === a.id) sent.push(...(input.settles ?? []).map((s) => [...s.cardIds]));
      return original(input);
    };
    (driver as { acquire: typeof spy }).acquire = spy;
    try {
      const page = ["base1-1", "base1-2", "base1-3"];
      await call(a, page);
      await call(a, page); // carries the first answer's cards: not counted yet when it was sent
      await call(a, [...page, "base1-4"]); // carries the second's: all counted by now
      const last = await call(a, []); // carries the third's: only the new card
      expect(sent).toEqual([page, [], ["base1-4"]]);
      expect(last.cardsUsed).toBe(4);
    } finally {
      (driver as { acquire: typeof original }).acquire = original;
    }
  });
});
