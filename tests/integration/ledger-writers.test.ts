import { describe, expect, it } from "vitest";
import { query } from "../helpers/db";
import { addAccountCards, addLedgerRows } from "@/lib/meter/queries/ledger";

// Instances write the ledger's batches at the same time, and their batches share rows: every
// instance serves every account. Rows listed in the order calls came lock in a different order
// in each instance, and PostgreSQL then refuses one batch as a deadlock (40P01).

const accounts = (run: string) => Array.from({ length: 300 }, (_, i) => `acct_ledgerorder_${run}_${String(i).padStart(3, "0")}`);

describe("the ledger's writes from instances at once", () => {
  it("adds the same accounts' rows listed in opposite orders without a deadlock, every increment counted", async () => {
    const run = Math.random().toString(36).slice(2, 10);
    const rows = accounts(run).map((accountId) => ({ accountId, period: "2026-11", day: "2026-11-26", route: "GET /v1/cards/{id}", requests: 1, credits: 2, refunds: 0, newCards: 1 }));
    for (let round = 0; round < 4; round++) await Promise.all([addLedgerRows(rows), addLedgerRows([...rows].reverse())]);
    const [sums] = await query<{ n: string; requests: string; credits: string }>(
      "select count(*) as n, sum(requests) as requests, sum(credits) as credits from usage_ledger where account_id like $1", [`acct_ledgerorder_${run}_%`]);
    expect(Number(sums!.n)).toBe(300);
    expect(Number(sums!.requests)).toBe(300 * 2 * 4);
    expect(Number(sums!.credits)).toBe(300 * 2 * 4 * 2);
  });

  it("adds the same accounts' distinct cards listed in opposite orders without a deadlock", async () => {
    const run = Math.random().toString(36).slice(2, 10);
    const cards = accounts(run).flatMap((accountId) => ["base1-4", "base1-2"].map((cardId) => ({ accountId, period: "2026-11", cardId })));
    await Promise.all([addAccountCards(cards), addAccountCards([...cards].reverse())]);
    const [n] = await query<{ n: string }>("select count(*) as n from account_cards where account_id like $1", [`acct_ledgerorder_${run}_%`]);
    expect(Number(n!.n)).toBe(600);
  });
});
