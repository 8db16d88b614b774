import { describe, expect, it } from "vitest";
import { makeAccount } from "../helpers/accounts";
import { as, expectNoMeterHeaders, expectRefusal, isoDaysFromNow, paced, type Answer } from "../helpers/meter";
import { operator, setCreditsUsed, setTrialExpiry, useAdminToken } from "../helpers/meter";
import { query } from "../helpers/db";

// SPEC.md QUOTA_EXCEEDED details 7: PLAN_REQUIRED and TRIAL_EXPIRED are decided before the meter
// and carry X-Error-Code but no quota or rate headers. Every path that gives one, including the
// trial's spent centering calls, whose count lives in the meter's script.

useAdminToken();

const confirmBody = { front: { outer: { left: 0, right: 100, top: 0, bottom: 140 }, inner: { left: 5.5, right: 95.5, top: 5, bottom: 135 } } };
const confirm = (key: string) => paced(() => as(key, "POST", "/v1/centering/confirm", { body: confirmBody }));

function expectPlanRefusal(a: Answer, code: "PLAN_REQUIRED" | "TRIAL_EXPIRED"): void {
  expectRefusal(a, 403, code);
  expectNoMeterHeaders(a);
}

describe("plan refusals carry no meter headers", () => {
  it("a confirmed trial's sixth centering confirm: PLAN_REQUIRED, nothing charged", async () => {
    const trial = await makeAccount({ confirmed: true });
    for (let i = 0; i < 5; i++) expect((await confirm(trial.key)).status).toBe(200);
    const sixth = await confirm(trial.key);
    expectPlanRefusal(sixth, "PLAN_REQUIRED");
    expect(sixth.body.error.details.next_step).toBeDefined();
    expect(sixth.h("x-trial-expires-at")).toBeTruthy();
    const me = await as(trial.key, "GET", "/v1/me");
    expect(me.body.data.quota.credits_used).toBe(25);
  });

  it("an unconfirmed trial on identify and centering: PLAN_REQUIRED, 'Confirm your email'", async () => {
    const trial = await makeAccount();
    const a = await confirm(trial.key);
    expectPlanRefusal(a, "PLAN_REQUIRED");
    expect(a.body.error.message).toMatch(/^Confirm your email/);
  });

  it("before confirmation every PLAN_REQUIRED starts 'Confirm your email', movers included; its next step is still the plan", async () => {
    const a = await as((await makeAccount()).key, "GET", "/v1/prices/movers");
    expectPlanRefusal(a, "PLAN_REQUIRED");
    expect(a.body.error.message).toMatch(/^Confirm your email/);
    expect(a.body.error.details.plan_required).toBe("growth");
    const confirmed = await as((await makeAccount({ confirmed: true })).key, "GET", "/v1/prices/movers");
    expect(confirmed.body.error.message).not.toMatch(/^Confirm your email/);
  });

  it("a plan without the feature: movers on the trial, centering on Developer", async () => {
    expectPlanRefusal(await as((await makeAccount({ confirmed: true })).key, "GET", "/v1/prices/movers"), "PLAN_REQUIRED");
    expectPlanRefusal(await confirm((await makeAccount({ plan: "developer", confirmed: true })).key), "PLAN_REQUIRED");
  });

  it("an expired trial on a credited route: TRIAL_EXPIRED", async () => {
    const trial = await makeAccount({ confirmed: true });
    await setTrialExpiry(trial.id, isoDaysFromNow(-1));
    const sets = await as(trial.key, "GET", "/v1/sets");
    expectPlanRefusal(sets, "TRIAL_EXPIRED");
    const centering = await confirm(trial.key);
    expectPlanRefusal(centering, "TRIAL_EXPIRED");
    // Its next step is a plan that opens the route: Developer would answer centering PLAN_REQUIRED.
    expect([sets.body.error.details.next_step.plan, centering.body.error.details.next_step.plan]).toEqual(["developer", "growth"]);
    expect((await as(trial.key, "GET", "/v1/billing")).body.data.standing).toBe("trial_expired");
  });

  it("a trial whose credits are spent is told to take a plan that opens the route it asked for", async () => {
    const trial = await makeAccount({ confirmed: true });
    await setCreditsUsed(trial.id, 800);
    const grade = await paced(() => as(trial.key, "POST", "/v1/centering/grade", { body: { front: { left_right: "55/45", top_bottom: "52/48" } } }));
    const sets = await as(trial.key, "GET", "/v1/sets");
    for (const a of [grade, sets]) expectRefusal(a, 429, "QUOTA_EXCEEDED");
    expect([grade.body.error.details.next_step.plan, sets.body.error.details.next_step.plan]).toEqual(["growth", "developer"]);
  });
});

describe("a next step the account can take", () => {
  const spent = async (plan: "developer" | "growth" | "professional", interval: string | null) => {
    const a = await makeAccount({ plan, confirmed: true });
    // A Stripe subscription, as the webhook leaves it (before the account's first call is cached).
    if (interval) await query("update accounts set billing_interval = $2 where id = $1", [a.id, interval]);
    await setCreditsUsed(a.id, { developer: 50_000, growth: 200_000, professional: 500_000 }[plan]);
    const r = await as(a.key, "GET", "/v1/sets");
    expectRefusal(r, 429, "QUOTA_EXCEEDED");
    return r.body.error.details.next_step;
  };

  it("spent credits point at the plan above: Checkout without a subscription, a plan change with one, sales above Professional", async () => {
    // Before: Professional was told to subscribe to Professional, and a subscribed account was sent to Checkout (409).
    expect(await spent("developer", null)).toMatchObject({ action: "upgrade", plan: "growth", checkout: "POST /v1/billing/checkout" });
    const change = await spent("growth", "month");
    expect(change).toMatchObject({ action: "change_plan", plan: "professional", change: "POST /v1/billing/subscription" });
    expect(change).not.toHaveProperty("checkout");
    expect(await spent("professional", "year")).toMatchObject({ action: "contact_sales", plan: "enterprise" });
  });

  it("a subscribed Developer refused movers is told to change its plan; an ended enterprise contract, to write to sales", async () => {
    const dev = await makeAccount({ plan: "developer", confirmed: true });
    await query("update accounts set billing_interval = 'month' where id = $1", [dev.id]);
    const movers = await as(dev.key, "GET", "/v1/prices/movers");
    expectPlanRefusal(movers, "PLAN_REQUIRED");
    expect(movers.body.error.details.next_step).toMatchObject({ action: "change_plan", plan: "growth" });
    const ent = await makeAccount({ plan: "enterprise", confirmed: true });
    expect((await operator("POST", `/${ent.id}/flags`, { status: "canceled" })).res.status).toBe(200);
    const refused = await as(ent.key, "GET", "/v1/sets");
    expectPlanRefusal(refused, "PLAN_REQUIRED");
    expect(refused.body.error.details.next_step).toMatchObject({ action: "contact_sales", plan: "enterprise" });
    expect(refused.body.error.details.next_step.message).not.toMatch(/null EUR/);
  });
});
