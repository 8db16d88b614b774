import type { Account } from "@/lib/accounts/types";
import type { Plan } from "./costs";
import { PLANS, TRIAL_FEATURE_CALLS, UNCONFIRMED_TRIAL_CREDITS, type PlanLimits } from "./plans";

// From an account to the meter's numbers: which period its credits count against, how many
// it may spend, and until when. Pure functions of the account and the clock.

const DAY_MS = 86_400_000;

export type Period = {
  /** Key of the credit period: the whole trial, or one paid period. */
  key: string;
  start: string;
  /** When the period's credits renew; null when they never do (the trial) or it is unknown. */
  resetsAt: string | null;
  /** Seconds the period's counters must outlive now. */
  ttlS: number;
};

export type Allowance = {
  limits: PlanLimits;
  period: Period;
  /** Credits of the period; -1 when unlimited. */
  credits: number;
  dailyCap: number;
  /** Distinct cards of the period; -1 when the plan has none. */
  cards: number;
  trial: boolean;
  confirmed: boolean;
};

export const isTrial = (a: Account) => a.plan === "trial";
export const isConfirmed = (a: Account) => a.emailConfirmedAt !== null;

export function trialExpired(a: Account, now = Date.now()): boolean {
  return isTrial(a) && a.trialExpiresAt !== null && Date.parse(a.trialExpiresAt) <= now;
}

export function utcDay(now = Date.now()): string {
  return new Date(now).toISOString().slice(0, 10).replace(/-/g, "");
}

export function period(a: Account, now = Date.now()): Period {
  if (isTrial(a)) {
    const end = a.trialExpiresAt ? Date.parse(a.trialExpiresAt) : now + 30 * DAY_MS;
    return { key: `trial:${a.trialStartedAt.slice(0, 10)}`, start: a.trialStartedAt, resetsAt: null, ttlS: ttl(end, now) };
  }
  const start = a.periodStart ?? a.createdAt;
  const resets = a.periodEnd;
  const end = resets ? Date.parse(resets) : now + 31 * DAY_MS;
  return { key: `p:${start}`, start, resetsAt: resets, ttlS: ttl(Math.max(end, now), now) };
}

const ttl = (end: number, now: number) => Math.max(3600, Math.ceil((end - now) / 1000) + 8 * 86_400);

export function allowance(a: Account, now = Date.now()): Allowance {
  const limits = PLANS[a.plan as Plan] ?? PLANS.trial;
  const trial = isTrial(a);
  const confirmed = isConfirmed(a);
  const planCredits = a.creditsLimit ?? limits.credits;
  return {
    limits,
    period: period(a, now),
    credits: trial && !confirmed ? UNCONFIRMED_TRIAL_CREDITS : planCredits ?? -1,
    dailyCap: limits.dailyCap ?? -1,
    cards: limits.cards ?? -1,
    trial,
    confirmed,
  };
}

/** Trial calls of a gated feature, or none when the plan includes it or excludes it. */
export function featureLimit(a: Account, feature: string): number {
  if (!feature || !isTrial(a)) return -1;
  return TRIAL_FEATURE_CALLS;
}
