import type { Plan } from "./costs";

// Plan limits (SPEC.md "Plan limits" and "Distinct cards per period"). The trial's credits
// are granted once; paid plans grant theirs every period (monthly, also on yearly plans).

export type PlanLimits = {
  plan: Plan;
  /** Sustained requests per second and the bucket's capacity. */
  rate: number;
  burst: number;
  /** Requests per 60 s window; 0 for none. */
  perMinute: number;
  inFlight: number;
  /** Credits per period (the whole trial, or a month); null when unlimited or negotiated. */
  credits: number | null;
  dailyCap: number | null;
  /** Distinct cards per period; null when the plan has no allowance. */
  cards: number | null;
  rank: number;
  monthlyEur: number | null;
};

export const PLANS: Record<Plan, PlanLimits> = {
  trial: { plan: "trial", rate: 5, burst: 10, perMinute: 300, inFlight: 3, credits: 800, dailyCap: 400, cards: 1000, rank: 0, monthlyEur: 0 },
  developer: { plan: "developer", rate: 30, burst: 60, perMinute: 0, inFlight: 8, credits: 50_000, dailyCap: null, cards: 30_000, rank: 1, monthlyEur: 29 },
  growth: { plan: "growth", rate: 80, burst: 160, perMinute: 0, inFlight: 16, credits: 200_000, dailyCap: null, cards: null, rank: 2, monthlyEur: 99 },
  professional: { plan: "professional", rate: 160, burst: 320, perMinute: 0, inFlight: 24, credits: 500_000, dailyCap: null, cards: null, rank: 3, monthlyEur: 249 },
  enterprise: { plan: "enterprise", rate: 400, burst: 800, perMinute: 0, inFlight: 32, credits: null, dailyCap: null, cards: null, rank: 4, monthlyEur: null },
};

/** Credits an unconfirmed trial may spend before the address is confirmed. */
export const UNCONFIRMED_TRIAL_CREDITS = 50;
export const TRIAL_DAYS = 30;
/** Days a subscription whose payment failed keeps being served before the account is suspended. */
export const PAST_DUE_GRACE_DAYS = 7;
/** Calls a confirmed trial gets of each gated feature (photo identification; centering measure and confirm). */
export const TRIAL_FEATURE_CALLS = 5;

/**
 * The operations (ledger routes) whose calls count as each gated feature: the ledger records
 * routes, so a rebuild counts a feature's calls from them. A test keeps this in step with the
 * cost rules of the route modules.
 */
export const FEATURE_ROUTES: Record<string, string[]> = {
  identify: ["identifyCard"],
  centering_measure: ["measureCentering"],
  centering_confirm: ["confirmCentering"],
};

export const PLAN_ORDER: Plan[] = ["trial", "developer", "growth", "professional", "enterprise"];

export function atLeast(plan: Plan, min: Plan): boolean {
  return PLANS[plan].rank >= PLANS[min].rank;
}

/** IETF draft form, e.g. the trial's `5;w=1;burst=10, 300;w=60`. */
export function policyHeader(l: PlanLimits): string {
  let h = policies.get(l);
  if (h === undefined) {
    const parts = [`${l.rate};w=1;burst=${l.burst}`];
    if (l.perMinute) parts.push(`${l.perMinute};w=60`);
    h = parts.join(", ");
    policies.set(l, h);
  }
  return h;
}
// On every metered answer; limits objects are the plans' own (never changed), so one string each.
const policies = new WeakMap<PlanLimits, string>();
