import { sql } from "drizzle-orm";
import { getDb, rows } from "@/lib/db/client";
import { accountCards, usageLedger } from "@/lib/db/schema";

export type LedgerRow = {
  accountId: string; period: string; day: string; route: string;
  requests: number; credits: number; refunds: number; newCards: number;
};

/**
 * Rows in the order of their key. Instances write batches of the same accounts at once, and an
 * insert locks its rows in the order it lists them: in the order calls came, two batches
 * deadlocked and PostgreSQL refused one (tests/integration/ledger-writers.test.ts).
 */
const byKey = <T>(key: (row: T) => string) => (rows: readonly T[]): T[] =>
  rows.map((row) => ({ row, k: key(row) })).sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : 0)).map((x) => x.row);
const ledgerOrder = byKey<LedgerRow>((r) => `${r.accountId}\u0000${r.period}\u0000${r.day}\u0000${r.route}`);
const cardOrder = byKey<{ accountId: string; period: string; cardId: string }>((r) => `${r.accountId}\u0000${r.period}\u0000${r.cardId}`);

/** Adds a batch of increments to the ledger (one statement; counters add up). */
export async function addLedgerRows(batch: LedgerRow[]): Promise<void> {
  if (!batch.length) return;
  const db = await getDb();
  await db
    .insert(usageLedger)
    .values(ledgerOrder(batch))
    .onConflictDoUpdate({
      target: [usageLedger.accountId, usageLedger.period, usageLedger.day, usageLedger.route],
      set: {
        requests: sql`${usageLedger.requests} + excluded.requests`,
        credits: sql`${usageLedger.credits} + excluded.credits`,
        refunds: sql`${usageLedger.refunds} + excluded.refunds`,
        newCards: sql`${usageLedger.newCards} + excluded.new_cards`,
      },
    });
}

export async function addAccountCards(batch: { accountId: string; period: string; cardId: string }[]): Promise<void> {
  if (!batch.length) return;
  const db = await getDb();
  const sorted = cardOrder(batch);
  for (let i = 0; i < sorted.length; i += 2000) {
    await db.insert(accountCards).values(sorted.slice(i, i + 2000)).onConflictDoNothing();
  }
}

export type RouteTotals = { route: string; credits: number; daily: number; served: number };

/** A period's spending per route: its credits, those of `day`, and its served calls (requests less refunds). */
export async function periodRoutes(accountId: string, period: string, day: string): Promise<RouteTotals[]> {
  return rows<RouteTotals>(sql`
    select route, sum(credits)::int as credits,
           coalesce(sum(credits) filter (where day = ${day}::date), 0)::int as daily,
           sum(requests - refunds)::int as served
    from usage_ledger where account_id = ${accountId} and period = ${period}
    group by route`);
}

export async function periodCards(accountId: string, period: string): Promise<string[]> {
  const found = await rows<{ card_id: string }>(sql`select card_id from account_cards where account_id = ${accountId} and period = ${period}`);
  return found.map((r) => r.card_id);
}

export async function usageByDay(accountId: string, fromDay: string) {
  return rows<{ day: string; requests: number; credits: number; refunds: number; new_cards: number }>(sql`
    select day::text as day, sum(requests)::int as requests, sum(credits)::int as credits, sum(refunds)::int as refunds,
           sum(new_cards)::int as new_cards
    from usage_ledger where account_id = ${accountId} and day >= ${fromDay}::date
    group by day order by day`);
}

export async function usageByRoute(accountId: string, fromDay: string) {
  return rows<{ route: string; requests: number; credits: number; refunds: number }>(sql`
    select route, sum(requests)::int as requests, sum(credits)::int as credits, sum(refunds)::int as refunds
    from usage_ledger where account_id = ${accountId} and day >= ${fromDay}::date
    group by route order by sum(credits) desc, route`);
}
