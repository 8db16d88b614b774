import { FEATURE_ROUTES } from "./plans";
import { addAccountCards, addLedgerRows, periodCards, periodRoutes, type LedgerRow, type RouteTotals } from "./queries/ledger";

// Spending is recorded in memory and written to PostgreSQL in batches: every FLUSH_MS, when
// the buffer grows, at once when the meter's Redis fails or comes back, and when the process
// stops (drainMeter, awaited by the servers). Readers merge what is not written yet, so an
// account always sees its own latest calls.

const FLUSH_MS = 2_000;
const MAX_BUFFER = 5_000;
/** Urgent flushes of a burst of failures are coalesced to one per this many ms. */
const URGENT_GAP_MS = 100;

type State = {
  rows: Map<string, LedgerRow>; cards: { accountId: string; period: string; cardId: string }[];
  timer?: NodeJS.Timeout; urgent?: NodeJS.Timeout; lastUrgent: number; flushing?: Promise<void>;
};
const slot = globalThis as unknown as { __ledger?: State };

function state(): State {
  if (!slot.__ledger) {
    slot.__ledger = { rows: new Map(), cards: [], lastUrgent: 0 };
    // A signal is the server's to handle (it awaits drainMeter); this covers a script whose
    // event loop simply runs dry.
    process.once("beforeExit", () => void flushLedger());
  }
  return slot.__ledger;
}

/**
 * How long after Redis is first seen empty no account is rebuilt: every instance writes what it
 * recorded before the loss within FLUSH_MS, and a rebuild must read it. METER_REBUILD_GRACE_MS
 * overrides it (it must stay above the flush interval).
 */
export function rebuildGraceMs(): number {
  // Asked on every metered request: the setting is read once a call, and parsed when it changes.
  const raw = process.env.METER_REBUILD_GRACE_MS;
  if (raw !== grace.raw) {
    const v = Number(raw);
    grace = { raw, ms: raw && Number.isFinite(v) && v >= 0 ? v : FLUSH_MS + 1_000 };
  }
  return grace.ms;
}
let grace: { raw: string | undefined; ms: number } = { raw: undefined, ms: FLUSH_MS + 1_000 };

function schedule(s: State): void {
  if (s.timer) return;
  s.timer = setTimeout(() => {
    s.timer = undefined;
    void writeLedger();
  }, FLUSH_MS);
  s.timer.unref?.();
}

/** The ledger row's route of an operator's setting of a period's credits (no API route made it). */
export const OPERATOR_ADJUSTMENT = "operator_adjustment";

export function record(e: Omit<LedgerRow, "requests"> & { requests?: number }): void {
  const s = state();
  const key = `${e.accountId}\u0000${e.period}\u0000${e.day}\u0000${e.route}`;
  const row = s.rows.get(key) ?? { accountId: e.accountId, period: e.period, day: e.day, route: e.route, requests: 0, credits: 0, refunds: 0, newCards: 0 };
  row.requests += e.requests ?? 1;
  row.credits += e.credits;
  row.refunds += e.refunds;
  row.newCards += e.newCards;
  s.rows.set(key, row);
  if (s.rows.size > MAX_BUFFER) void writeLedger();
  else schedule(s);
}

export function recordCards(accountId: string, period: string, cardIds: string[]): void {
  if (!cardIds.length) return;
  const s = state();
  for (const cardId of cardIds) s.cards.push({ accountId, period, cardId });
  schedule(s);
}

/**
 * Writes the buffer now rather than at the next tick: the meter's Redis failed or came back, or
 * a settle found its period unseeded, and a rebuild will read the ledger soon.
 */
export function flushLedgerSoon(): void {
  const s = state();
  if (s.urgent) return;
  const wait = Math.max(0, s.lastUrgent + URGENT_GAP_MS - Date.now());
  s.urgent = setTimeout(() => {
    s.urgent = undefined;
    s.lastUrgent = Date.now();
    void writeLedger();
  }, wait);
  s.urgent.unref?.();
}

/**
 * Everything this process recorded, and what it still has to settle, written down: drainMeter.
 * The settles come first because an answer's row is recorded once its settle is answered.
 */
export async function flushLedger(): Promise<void> {
  await (await import("./drain")).drainMeter();
}

/** Writes what is buffered. A failed write keeps its rows for the next attempt. */
export async function writeLedger(): Promise<void> {
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
      void import("@/lib/usage/alerts").then((m) => m.afterLedgerWrite(rows, cards), (err) => console.error("[usage-alerts] not loaded:", (err as Error).message));
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

/** How many rows and cards wait to be written (the drain's check that nothing is left). */
export function unwrittenLedger(): number {
  const s = state();
  return s.rows.size + s.cards.length;
}

/** Unwritten rows of an account (merged into what readers see). */
export function pending(accountId: string): LedgerRow[] {
  return [...state().rows.values()].filter((r) => r.accountId === accountId);
}

export type Rebuilt = { credits: number; daily: number; cardIds: string[]; features: Record<string, number> };

/**
 * Every counter of an account's period, from the ledger and this instance's unwritten rows: the
 * credits, those of `day`, the distinct cards, and the served calls of each counted feature.
 */
export async function rebuildPeriod(accountId: string, period: string, day: string, features: string[] = []): Promise<Rebuilt> {
  const iso = isoDay(day);
  const [written, cards] = await Promise.all([periodRoutes(accountId, period, iso), periodCards(accountId, period)]);
  const buffered: RouteTotals[] = pending(accountId).filter((r) => r.period === period).map((r) => ({
    route: r.route, credits: r.credits, daily: r.day === iso ? r.credits : 0, served: r.requests - r.refunds,
  }));
  const routes = [...written, ...buffered];
  const sum = (of: RouteTotals[], field: "credits" | "daily" | "served") => of.reduce((n, r) => n + r[field], 0);
  const pendingCards = state().cards.filter((c) => c.accountId === accountId && c.period === period).map((c) => c.cardId);
  return {
    credits: sum(routes, "credits"),
    daily: sum(routes, "daily"),
    cardIds: [...new Set([...cards, ...pendingCards])],
    features: Object.fromEntries(features.map((f) => [f, sum(routes.filter((r) => FEATURE_ROUTES[f]?.includes(r.route)), "served")])),
  };
}

/** 20261122 → 2026-11-22 */
export const isoDay = (day: string) => (day.includes("-") ? day : `${day.slice(0, 4)}-${day.slice(4, 6)}-${day.slice(6, 8)}`);
