// The meter's contract, implemented once in Lua for Redis (lib/meter/lua.ts) and once in
// TypeScript for the embedded default (lib/meter/memory.ts). The same tests run on both.

export type AcquireInput = {
  account: string;
  /** Milliseconds since the epoch; undefined lets Redis use its own clock (one clock for all instances). */
  now?: number;
  rate: number;
  burst: number;
  perMinute: number;
  maxInFlight: number;
  leaseId: string;
  leaseTtlMs: number;
  cost: number;
  /** -1: unlimited. */
  creditLimit: number;
  creditPeriod: string;
  /** Seconds the period's counters live (period end plus a margin). */
  periodTtlS: number;
  /** -1: no daily cap. */
  dailyCap: number;
  day: string;
  /** A counted feature (trial calls of identify or centering); -1 limit: none. */
  feature: string;
  featureLimit: number;
  /** This instance's pending settles of the same account, period and day, applied first. */
  settles?: BatchSettle[];
};

export const Outcome = { OK: 0, RATE_LIMITED: 1, CONCURRENCY: 2, QUOTA: 3, DAILY_CAP: 4, FEATURE: 5, UNSEEDED: 6 } as const;
export type OutcomeCode = (typeof Outcome)[keyof typeof Outcome];

export type AcquireResult = {
  outcome: OutcomeCode;
  /** Whole tokens left in the bucket after this request. */
  tokens: number;
  /** Milliseconds until the bucket is full again. */
  fullInMs: number;
  /** Credits used in the period, after this request's reservation. */
  creditsUsed: number;
  dailyUsed: number;
  /** On a refusal, milliseconds until trying again can succeed (0 when it cannot). */
  retryAfterMs: number;
  featureUsed: number;
  /** Distinct cards counted in the period before this request. */
  cardsUsed: number;
  /** Requests of the account in flight, this one included when granted. */
  inFlight: number;
  /** The new distinct cards of each pending settle taken along, in order. */
  settled: number[];
};

export type SettleInput = {
  account: string;
  leaseId: string;
  refund: boolean;
  cost: number;
  /** Credits given back on a served answer that cost less than it reserved (an empty identify). */
  partial: number;
  creditPeriod: string;
  day: string;
  feature: string;
  featureCounted: boolean;
  cardIds: string[];
  /** -1: no allowance. */
  cardLimit: number;
  periodTtlS: number;
};

export type SettleResult = {
  /** False when the answer would add new cards beyond a spent allowance (then everything is given back). */
  allowed: boolean;
  cardsBefore: number;
  /** Distinct cards after this answer; on a refusal, the number of new cards it would have added. */
  cardsAfter: number;
  newCards: number;
};

/** An answer settled in a batch: its slot, its refund, its cards (no allowance to decide). */
export type BatchSettle = { leaseId: string; refundCredits: number; cardIds: string[] };

export type SeedInput = {
  account: string;
  creditPeriod: string;
  day: string;
  credits: number;
  daily: number;
  cardIds: string[];
  periodTtlS: number;
};

export type Peek = { creditsUsed: number; dailyUsed: number; cardsUsed: number; features: Record<string, number> };

export interface MeterDriver {
  readonly name: string;
  acquire(input: AcquireInput): Promise<AcquireResult>;
  settle(input: SettleInput): Promise<SettleResult>;
  /** Settles of one account and period at once; returns each answer's new distinct cards. */
  settleMany(account: string, period: string, day: string, periodTtlS: number, items: BatchSettle[]): Promise<number[]>;
  /** Restores a period's counters from the durable ledger (after Redis lost them). */
  seed(input: SeedInput): Promise<void>;
  /** Current counters of a period, read only. */
  peek(account: string, period: string, day: string, features: string[]): Promise<Peek>;
  /** An operator sets the period's spent credits (the counters count as seeded after). */
  setCredits(account: string, period: string, used: number, periodTtlS: number): Promise<void>;
  /** Per-IP and similar simple limits: a fixed window of `limit` hits per `windowS`. */
  hit(key: string, limit: number, windowS: number): Promise<{ allowed: boolean; count: number; retryAfterS: number }>;
  close(): Promise<void>;
}

/** Redis keys of one account. The {braces} keep them in one cluster slot. */
export function keys(account: string, period: string, day: string, feature: string) {
  const p = `m:{${account}}:`;
  return {
    bucket: `${p}tb`,
    leases: `${p}lf`,
    credits: `${p}c:${period}`,
    seeded: `${p}s:${period}`,
    daily: `${p}d:${day}`,
    feature: `${p}f:${feature || "-"}:${period}`,
    cards: `${p}k:${period}`,
  };
}
