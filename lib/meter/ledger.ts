import { addAccountCards, addLedgerRows, periodCards, periodTotals, type LedgerRow } from "./queries/ledger";

// Spending is recorded in memory and written to PostgreSQL in batches: every FLUSH_MS, when
// the buffer grows, and when the process stops. Readers merge what is not written yet, so
// an account always sees its own latest calls.

const FLUSH_MS = 2_000;
const MAX_BUFFER = 5_000;

type State = { rows: Map<string, LedgerRow>; cards: { accountId: string; period: string; cardId: string }[]; timer?: NodeJS.Timeout; flushing?: Promise<void> };
const slot = globalThis as unknown as { __ledger?: State };

function state(): State {
  if (!slot.__ledger) {
    slot.__ledger = { rows: new Map(), cards: [] };
    const stop = () => void flushLedger();
    process.once("beforeExit", stop);
    process.once("SIGTERM", stop);
  }
  return slot.__ledger;
}

function schedule(s: State): void {
  if (s.timer) return;
  s.timer = setTimeout(() => {
    s.timer = undefined;
    void flushLedger();
  }, FLUSH_MS);
  s.timer.unref?.();
}

export function record(e: Omit<LedgerRow, "requests"> & { requests?: number }): void {
  const s = state();
  const key = `${e.accountId}\u0000${e.period}\u0000${e.day}\u0000${e.route}`;
  const row = s.rows.get(key) ?? { accountId: e.accountId, period: e.period, day: e.day, route: e.route, requests: 0, credits: 0, refunds: 0, newCards: 0 };
  row.requests += e.requests ?? 1;
  row.credits += e.credits;
  row.refunds += e.refunds;
  row.newCards += e.newCards;
  s.rows.set(key, row);
  if (s.rows.size > MAX_BUFFER) void flushLedger();
  else schedule(s);
}

export function recordCards(accountId: string, period: string, cardIds: string[]): void {
  if (!cardIds.length) return;
  const s = state();
  for (const cardId of cardIds) s.cards.push({ accountId, period, cardId });
  schedule(s);
}

/** Writes what is buffered. A failed write keeps its rows for the next attempt. */
export async function flushLedger(): Promise<void> {
  const s = state();
  if (s.flushing) await s.flushing;
  if (!s.rows.size && !s.cards.length) return;
  const rows = [...s.rows.values()];
  const cards = s.cards;
  s.rows = new Map();
  s.cards = [];
  s.flushing = (async () => {
    try {
      await addLedgerRows(rows);
      await addAccountCards(cards);
    } catch (err) {
      console.error("[ledger] write failed, retrying later:", (err as Error).message);
      for (const r of rows) record({ ...r });
      s.cards.push(...cards);
    }
  })();
  try {
    await s.flushing;
  } finally {
    s.flushing = undefined;
  }
}

/** Unwritten rows of an account (merged into what readers see). */
export function pending(accountId: string): LedgerRow[] {
  return [...state().rows.values()].filter((r) => r.accountId === accountId);
}

/** What the meter needs to rebuild an account's period after Redis lost it. */
export async function rebuildPeriod(accountId: string, period: string, day: string) {
  const [totals, cards] = await Promise.all([periodTotals(accountId, period, day), periodCards(accountId, period)]);
  const buffered = pending(accountId).filter((r) => r.period === period);
  const credits = totals.credits + buffered.reduce((n, r) => n + r.credits, 0);
  const daily = totals.daily + buffered.filter((r) => r.day === isoDay(day)).reduce((n, r) => n + r.credits, 0);
  const pendingCards = state().cards.filter((c) => c.accountId === accountId && c.period === period).map((c) => c.cardId);
  return { credits, daily, cardIds: [...new Set([...cards, ...pendingCards])] };
}

/** 20261122 → 2026-11-22 */
export const isoDay = (day: string) => (day.includes("-") ? day : `${day.slice(0, 4)}-${day.slice(4, 6)}-${day.slice(6, 8)}`);
