import { describe, expect, it } from "vitest";
import { policyHeader } from "@/lib/meter/plans";
import { allowance, featureLimit, period, trialExpired, utcDay } from "@/lib/meter/policy";
import { secondsToMidnight } from "@/lib/meter/refusals";
import { account, confirmedTrial, DAY, iso, paid, T0 } from "./accounts";

// From an account to the meter's numbers (SPEC.md Plan limits, Distinct cards per period,
// States and transitions; CONTRACT.md §2 for the unconfirmed trial).

const NOW = T0 + DAY;

describe("periods", () => {
  it("a trial has one period for its whole life, which never resets", () => {
    const p = period(confirmedTrial(), NOW);
    expect(p.resetsAt).toBeNull();
    expect(p.start).toBe(iso(T0));
    // The counters outlive the trial.
    expect(p.ttlS).toBeGreaterThanOrEqual(29 * 86_400);
    expect(period(confirmedTrial(), T0 + 20 * DAY).key).toBe(p.key);
  });

  it("confirming the address keeps the period: credits spent before count against the 800", () => {
    expect(period(account(), NOW).key).toBe(period(confirmedTrial(), NOW).key);
  });

  it("a paid plan's period runs from period_start to period_end, and a new start is a new period", () => {
    const a = paid("developer");
    const p = period(a, NOW);
    expect(p.start).toBe(a.periodStart);
    expect(p.resetsAt).toBe(a.periodEnd);
    expect(p.ttlS).toBeGreaterThanOrEqual((Date.parse(a.periodEnd!) - NOW) / 1000);
    expect(p.key).not.toBe(period(paid("developer", { periodStart: iso(T0 + 31 * DAY) }), NOW).key);
    // The trial's period is not the paid one: subscribing starts afresh.
    expect(p.key).not.toBe(period(confirmedTrial(), NOW).key);
  });

  it("a paid plan without a known end has no reset to announce", () => {
    expect(period(paid("enterprise", { periodEnd: null }), NOW).resetsAt).toBeNull();
  });
});

describe("credit limits", () => {
  it("an unconfirmed trial: 50; confirmed: 800 once", () => {
    expect(allowance(account(), NOW)).toMatchObject({ credits: 50, trial: true, confirmed: false });
    expect(allowance(confirmedTrial(), NOW)).toMatchObject({ credits: 800, trial: true, confirmed: true });
  });

  it.each([["developer", 50_000], ["growth", 200_000], ["professional", 500_000]] as const)("%s: %i per period", (plan, credits) => {
    expect(allowance(paid(plan), NOW).credits).toBe(credits);
  });

  it("enterprise is negotiated: unlimited until a contract sets credits_limit", () => {
    expect(allowance(paid("enterprise"), NOW).credits).toBe(-1);
    expect(allowance(paid("enterprise", { creditsLimit: 2_000_000 }), NOW).credits).toBe(2_000_000);
  });

  it("the daily cap: 400 on the trial, none on paid plans", () => {
    expect(allowance(confirmedTrial(), NOW).dailyCap).toBe(400);
    for (const plan of ["developer", "growth", "professional", "enterprise"] as const) expect(allowance(paid(plan), NOW).dailyCap).toBe(-1);
  });

  it("distinct cards: 1,000 for the trial, 30,000 on Developer, none from Growth", () => {
    expect(allowance(confirmedTrial(), NOW).cards).toBe(1000);
    expect(allowance(paid("developer"), NOW).cards).toBe(30_000);
    for (const plan of ["growth", "professional", "enterprise"] as const) expect(allowance(paid(plan), NOW).cards).toBe(-1);
  });
});

describe("rate limits", () => {
  it.each([
    ["trial", 5, 3], ["developer", 30, 8], ["growth", 80, 16], ["professional", 160, 24], ["enterprise", 400, 32],
  ] as const)("%s: %i per second, %i in flight", (plan, rate, inFlight) => {
    const a = plan === "trial" ? confirmedTrial() : paid(plan);
    expect(allowance(a, NOW).limits).toMatchObject({ rate, inFlight });
  });

  it("the trial's policy header is exactly SPEC.md's: burst 10, 300 a minute", () => {
    const l = allowance(confirmedTrial(), NOW).limits;
    expect(l.burst).toBe(10);
    expect(policyHeader(l)).toBe("5;w=1;burst=10, 300;w=60");
  });
});

describe("trial expiry", () => {
  const expiry = T0 + 30 * DAY;

  it("30 days after signup, to the millisecond", () => {
    expect(trialExpired(confirmedTrial(), expiry - 1)).toBe(false);
    expect(trialExpired(confirmedTrial(), expiry)).toBe(true);
    expect(trialExpired(account(), expiry + DAY)).toBe(true);
  });

  it("follows an operator's new expiry; never on a paid plan or without an expiry", () => {
    expect(trialExpired(confirmedTrial({ trialExpiresAt: iso(expiry + DAY) }), expiry)).toBe(false);
    expect(trialExpired(confirmedTrial({ trialExpiresAt: iso(T0 + DAY) }), T0 + DAY + 1)).toBe(true);
    expect(trialExpired(paid("developer", { trialExpiresAt: iso(T0) }), expiry)).toBe(false);
    expect(trialExpired(confirmedTrial({ trialExpiresAt: null }), expiry + 365 * DAY)).toBe(false);
  });
});

describe("the day and the trial's counted calls", () => {
  it("the daily cap's day is the UTC date, turning at midnight UTC", () => {
    const midnight = Date.UTC(2026, 10, 23);
    expect(utcDay(midnight - 1)).toBe("20261122");
    expect(utcDay(midnight)).toBe("20261123");
    expect(secondsToMidnight(midnight - 90_000)).toBe(90);
    expect(secondsToMidnight(midnight - 1)).toBe(1);
  });

  it("five calls of a counted feature on the trial; none counted on paid plans or for other routes", () => {
    expect(featureLimit(confirmedTrial(), "identify")).toBe(5);
    expect(featureLimit(confirmedTrial(), "centering_measure")).toBe(5);
    expect(featureLimit(confirmedTrial(), "")).toBe(-1);
    expect(featureLimit(paid("growth"), "identify")).toBe(-1);
  });
});
