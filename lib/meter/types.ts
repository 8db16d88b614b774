import { randomBytes } from "node:crypto";

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
  /** How long a settle that finds the period unseeded holds its rebuild back (see SettleInput). */
  holdMs?: number;
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
  /** The generation of the period's counters this request was charged under; '' when unseeded. */
  generation: string;
  /** The new distinct cards of each pending settle taken along, in order (UNSETTLED: see BatchSettle). */
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
  /** The generation the lease was charged under (AcquireResult.generation). */
  generation: string;
  /**
   * When the period is found unseeded, nothing is counted and its rebuild waits this long, so
   * that the ledger row of this answer reaches the database before a rebuild reads it.
   */
  holdMs: number;
};

/**
 * Which counters a settle found. `current`: the generation its lease was charged under.
 * `reseeded`: another one, rebuilt from the ledger before this answer was recorded, so a served
 * answer adds its charge to it and a refund changes nothing. `unseeded`: none; nothing is
 * counted, the ledger row of the answer is what the next rebuild reads.
 */
export type SettleState = "current" | "reseeded" | "unseeded";
export const SETTLE_STATES: SettleState[] = ["current", "reseeded", "unseeded"];

export type SettleResult = {
  /** False when the answer would add new cards beyond a spent allowance (then everything is given back). */
  allowed: boolean;
  cardsBefore: number;
  /** Distinct cards after this answer; on a refusal, the number of new cards it would have added. */
  cardsAfter: number;
  newCards: number;
  state: SettleState;
};

/**
 * An answer settled in a batch (no allowance to decide): its slot, its cards, what it gives back
 * under the generation it was charged under, and what it charged, for a generation rebuilt since.
 * Its result is its new distinct cards, or UNSETTLED when the period was unseeded.
 */
export type BatchSettle = { leaseId: string; generation: string; refundCredits: number; charged: number; cardIds: string[] };
export const UNSETTLED = -1;

/** Every counter of a period, rebuilt from the ledger. */
export type SeedInput = {
  account: string;
  creditPeriod: string;
  day: string;
  credits: number;
  daily: number;
  cardIds: string[];
  /** Served calls of each counted feature. */
  features: Record<string, number>;
  periodTtlS: number;
};

/** `seeded`: this call wrote the counters; `exists`: another one did first; `held`: a settle holds the rebuild back. */
export type SeedResult = "seeded" | "exists" | "held";

export type Peek = {
  creditsUsed: number; dailyUsed: number; cardsUsed: number; features: Record<string, number>;
  /** The generation of the period's counters; null when the period is unseeded. */
  generation: string | null;
};

export interface MeterDriver {
  readonly name: string;
  /** Whether other instances share the counters (Redis), and with them the need to wait for their ledgers. */
  readonly shared: boolean;
  acquire(input: AcquireInput): Promise<AcquireResult>;
  settle(input: SettleInput): Promise<SettleResult>;
  /** Settles of one account and period at once; returns each answer's new distinct cards (or UNSETTLED). */
  settleMany(account: string, period: string, day: string, periodTtlS: number, items: BatchSettle[], holdMs: number): Promise<number[]>;
  /**
   * Restores a period's counters from the durable ledger (after Redis lost them) under a new
   * random generation. Counters left from before are overwritten: while a period is unseeded no
   * script writes one.
   */
  seed(input: SeedInput): Promise<SeedResult>;
  /** Current counters of a period, read only. */
  peek(account: string, period: string, day: string, features: string[]): Promise<Peek>;
  /** An operator sets a seeded period's spent credits; returns what they were, or null when the period is unseeded. */
  setCredits(account: string, period: string, used: number, periodTtlS: number): Promise<number | null>;
  /**
   * Milliseconds since an instance first found the store without its marker: since Redis came
   * back empty (or first started). The marker is written by the first call that misses it.
   */
  age(): Promise<number>;
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
    /** Set by a settle that found the period unseeded: no rebuild until it expires. */
    hold: `${p}h:${period}`,
    /** Times of the last calls admitted under a per-minute limit, newest first. */
    minute: `${p}tm`,
  };
}

/** A new generation of a period's counters: random, since whatever counted the old ones is gone. */
export const newGeneration = () => randomBytes(9).toString("base64url");

/** The store's marker (see MeterDriver.age); in a slot of its own, so never in an account's script. */
export const MARKER_KEY = "m:up";
