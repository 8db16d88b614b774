import type { Account } from "@/lib/accounts/types";
import type { Plan } from "./costs";
import { FEATURE_ROUTES, PAST_DUE_GRACE_DAYS, PLANS, TRIAL_FEATURE_CALLS, UNCONFIRMED_TRIAL_CREDITS, type PlanLimits } from "./plans";

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

export type Standing = "ok" | "grace" | "suspended" | "canceled";

/**
 * Whether the subscription lets credited routes answer: a failed payment is served for
 * PAST_DUE_GRACE_DAYS (a clock, not a job, ends the grace), then suspended until paid.
 */
export function standing(a: Account, now = Date.now()): Standing {
  if (a.status === "canceled") return "canceled";
  if (a.status === "suspended") return "suspended";
  if (a.status === "past_due") return graceEnds(a) <= now ? "suspended" : "grace";
  return "ok";
}

/** When a past-due account's grace ends (ms); Infinity when it is not past due. */
export function graceEnds(a: Account): number {
  return a.pastDueSince ? Date.parse(a.pastDueSince) + PAST_DUE_GRACE_DAYS * DAY_MS : Infinity;
}

// The day of the last call and its bounds: every metered request asks, and the answer changes at midnight.
let day = { from: 0, to: 0, value: "" };

export function utcDay(now = Date.now()): string {
  if (now >= day.from && now < day.to) return day.value;
  const from = now - (((now % DAY_MS) + DAY_MS) % DAY_MS);
  const value = new Date(now).toISOString().slice(0, 10).replace(/-/g, "");
  day = { from, to: from + DAY_MS, value };
  return value;
}

export function period(a: Account, now = Date.now()): Period {
  if (isTrial(a)) {
    const end = a.trialExpiresAt ? Date.parse(a.trialExpiresAt) : now + 30 * DAY_MS;
    return { key: `trial:${a.trialStartedAt.slice(0, 10)}`, start: a.trialStartedAt, resetsAt: null, ttlS: ttl(end, now) };
  }
  if (a.billingInterval === "year" && a.periodStart) {
    // A yearly plan grants the monthly credits every month: the meter counts the month.
    const m = monthOfYear(a.periodStart, a.periodEnd, now);
    return { key: `p:${m.start}`, start: m.start, resetsAt: m.end, ttlS: ttl(Math.max(Date.parse(m.end), now), now) };
  }
  const start = a.periodStart ?? a.createdAt;
  const resets = a.periodEnd;
  const end = resets ? Date.parse(resets) : now + 31 * DAY_MS;
  return { key: `p:${start}`, start, resetsAt: resets, ttlS: ttl(Math.max(end, now), now) };
}

/** `anchor` plus `k` months, on the anchor's day or the month's last day when it has fewer (as Stripe bills). */
export function addMonths(anchor: string, k: number): string {
  const d = new Date(anchor);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth() + k;
  const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  const out = new Date(Date.UTC(y, m, Math.min(d.getUTCDate(), last), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()));
  return out.toISOString();
}

/**
 * The month of a yearly subscription that `now` falls in: month k runs from the anchor plus k
 * months to the anchor plus k + 1 (the year's end at the latest). Its start names the period, so
 * each month's grant happens once however often it is computed.
 */
export function monthOfYear(yearStart: string, yearEnd: string | null, now: number): { start: string; end: string } {
  let k = 0;
  while (k < 11 && Date.parse(addMonths(yearStart, k + 1)) <= now) k++;
  const end = addMonths(yearStart, k + 1);
  return { start: addMonths(yearStart, k), end: yearEnd && Date.parse(yearEnd) < Date.parse(end) ? yearEnd : end };
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

/** The counted features of an account's period: the trial's gated features, none on a paid plan. */
export function countedFeatures(a: Account): string[] {
  return isTrial(a) ? Object.keys(FEATURE_ROUTES) : [];
}

/** Trial calls of a gated feature, or none when the plan includes it or excludes it. */
export function featureLimit(a: Account, feature: string): number {
  if (!feature || !isTrial(a)) return -1;
  return TRIAL_FEATURE_CALLS;
}
