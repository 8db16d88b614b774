import { describe, expect, it } from "vitest";
import { COSTS, type CostRule } from "@/lib/meter/costs";
import { gate } from "@/lib/meter/gate";
import { account, confirmedTrial, DAY, iso, paid, T0 } from "./accounts";

// Step 4 of the pipeline: which plan may call what (SPEC.md Cost and plan table, the
// PLAN_REQUIRED and TRIAL_EXPIRED rows of Errors, States and transitions).

const NOW = T0 + DAY;
const costOf = (rule: CostRule) => rule.credits({ query: {}, params: {} });
const run = (a: Parameters<typeof gate>[0], rule: CostRule, now = NOW) => gate(a, rule, costOf(rule), now);

function refusal(outcome: ReturnType<typeof gate>) {
  if (outcome.ok) throw new Error(`expected a refusal, got ${JSON.stringify(outcome)}`);
  return outcome.error;
}

const CENTERING = { centeringMeasure: "centering_measure", centeringConfirm: "centering_confirm" } as const;
/** The routes SPEC.md's table gives a minimum plan of growth. */
const GROWTH_ROUTES: CostRule[] = [COSTS.movers, COSTS.identify, COSTS.centeringMeasure, COSTS.centeringConfirm, COSTS.centeringGrade, COSTS.centeringStandards];

describe("movers need Growth", () => {
  it.each(["growth", "professional", "enterprise"] as const)("%s: open, no counted calls", (plan) => {
    expect(run(paid(plan), COSTS.movers)).toEqual({ ok: true });
  });

  it.each([["a confirmed trial", confirmedTrial()], ["developer", paid("developer")]] as const)("%s: PLAN_REQUIRED naming growth", (_name, a) => {
    const e = refusal(run(a, COSTS.movers));
    expect(e.code).toBe("PLAN_REQUIRED");
    expect(e.status).toBe(403);
    expect(e.details).toMatchObject({ plan_required: "growth" });
    expect((e.details as { next_step: { plan: string } }).next_step.plan).toBe("growth");
  });
});

describe("photo identification and centering", () => {
  it.each(["identify", "centeringMeasure", "centeringConfirm", "centeringGrade", "centeringStandards"] as const)(
    "%s, unconfirmed trial: PLAN_REQUIRED whose message starts with 'Confirm your email'",
    (route) => {
      const e = refusal(run(account(), COSTS[route]));
      expect(e.code).toBe("PLAN_REQUIRED");
      expect(e.message.startsWith("Confirm your email")).toBe(true);
      expect((e.details as { next_step: { action: string } }).next_step.action).toBe("confirm_email");
    },
  );

  it("confirmed trial: identify, measure and confirm are counted calls, each its own counter", () => {
    expect(run(confirmedTrial(), COSTS.identify)).toEqual({ ok: true, feature: "identify" });
    for (const [route, feature] of Object.entries(CENTERING)) {
      expect(run(confirmedTrial(), COSTS[route as keyof typeof CENTERING])).toEqual({ ok: true, feature });
    }
  });

  it("confirmed trial: grade and standards use trial credits without a call counter", () => {
    expect(run(confirmedTrial(), COSTS.centeringGrade)).toEqual({ ok: true });
    expect(run(confirmedTrial(), COSTS.centeringStandards)).toEqual({ ok: true });
  });

  it.each(["identify", "centeringMeasure", "centeringConfirm", "centeringGrade", "centeringStandards"] as const)(
    "%s: the Developer plan is excluded", (route) => {
      const e = refusal(run(paid("developer"), COSTS[route]));
      expect(e.code).toBe("PLAN_REQUIRED");
      expect(e.details).toMatchObject({ plan: "developer", plan_required: "growth" });
    },
  );

  it.each(["growth", "professional", "enterprise"] as const)("%s: every route open, nothing counted", (plan) => {
    for (const rule of GROWTH_ROUTES) expect(run(paid(plan), rule)).toEqual({ ok: true });
  });
});

describe("canceled and suspended subscriptions", () => {
  it.each(["canceled", "suspended"] as const)("%s: PLAN_REQUIRED on credited routes, zero-cost routes pass", (status) => {
    for (const a of [paid("growth", { status }), paid("developer", { status }), confirmedTrial({ status })]) {
      for (const rule of [COSTS.cardsList, COSTS.setsList, COSTS.movers]) {
        const e = refusal(run(a, rule));
        expect(e.code).toBe("PLAN_REQUIRED");
        expect(e.details).toMatchObject({ status });
      }
      expect(run(a, COSTS.account)).toEqual({ ok: true });
    }
  });
});

describe("the expired trial", () => {
  const expiry = T0 + 30 * DAY;

  it("TRIAL_EXPIRED on every credited route, before PLAN_REQUIRED, with the details SPEC.md lists", () => {
    for (const a of [account(), confirmedTrial()]) {
      for (const rule of [COSTS.cardsList, COSTS.cardGet, COSTS.setsList, ...GROWTH_ROUTES]) {
        const e = refusal(run(a, rule, expiry + 1));
        expect(e.code).toBe("TRIAL_EXPIRED");
        expect(e.status).toBe(403);
        expect(e.details).toMatchObject({ trial_expired_at: iso(expiry).slice(0, 10), trial_days: 30, plan: "trial" });
        expect((e.details as { next_step: { action: string } }).next_step.action).toBeTruthy();
        // Neither TRIAL_EXPIRED nor any gate refusal carries Retry-After.
        expect(e.headers?.["retry-after"]).toBeUndefined();
      }
    }
  });

  it("zero-cost routes still pass", () => {
    expect(run(confirmedTrial(), COSTS.account, expiry + DAY)).toEqual({ ok: true });
  });

  it("ends exactly 30 days after signup: open a millisecond before, expired at the instant", () => {
    expect(run(confirmedTrial(), COSTS.cardsList, expiry - 1)).toEqual({ ok: true });
    expect(refusal(run(confirmedTrial(), COSTS.cardsList, expiry)).code).toBe("TRIAL_EXPIRED");
  });

  it("an operator's new expiry moves it; a paid plan never expires as a trial", () => {
    expect(run(confirmedTrial({ trialExpiresAt: iso(expiry + 10 * DAY) }), COSTS.cardsList, expiry + DAY)).toEqual({ ok: true });
    expect(run(paid("developer", { trialExpiresAt: iso(T0) }), COSTS.cardsList, expiry + DAY)).toEqual({ ok: true });
  });
});

describe("routes of every plan", () => {
  it.each([["unconfirmed trial", account()], ["confirmed trial", confirmedTrial()], ["developer", paid("developer")], ["enterprise", paid("enterprise")]] as const)(
    "%s: catalogue routes and zero-cost routes pass, nothing counted", (_n, a) => {
      for (const rule of [COSTS.cardsList, COSTS.cardGet, COSTS.cardsBatch, COSTS.setsList, COSTS.account]) {
        expect(gate(a, rule, costOf(rule), NOW)).toEqual({ ok: true });
      }
    },
  );
});
