import { describe, expect, it } from "vitest";
import { direction as serverDirection } from "@/lib/billing/manage";
import { INTERVALS, PAID_PLANS } from "@/lib/billing/prices";
import { direction, euros, met, money, type BillingState } from "@/app/(account)/dashboard/billing/view";

// The billing page's own helpers: the picker labels a change as the server will apply it, the
// page knows when Stripe's webhook has landed, and prices read as euros.

describe("the picker's Upgrade/Downgrade", () => {
  it("agrees with lib/billing for every pair of plan and interval", () => {
    for (const fp of PAID_PLANS) for (const fi of INTERVALS) for (const tp of PAID_PLANS) for (const ti of INTERVALS) {
      const from = { plan: fp, interval: fi };
      const to = { plan: tp, interval: ti };
      expect(direction(from, to), `${fp}/${fi} → ${tp}/${ti}`).toBe(serverDirection(from, to));
    }
  });
});

describe("what the page waits for after an action", () => {
  const base: BillingState = { plan: "growth", interval: "month", status: "active", cancelAtPeriodEnd: false, scheduled: null };

  it("a checkout has landed when a live paid plan shows; not on the trial or an ended subscription", () => {
    expect(met({ kind: "live" }, { ...base, plan: "trial", interval: null })).toBe(false);
    expect(met({ kind: "live" }, { ...base, status: "canceled" })).toBe(false);
    expect(met({ kind: "live" }, base)).toBe(true);
    expect(met({ kind: "live" }, { ...base, status: "past_due" })).toBe(true);
  });

  it("a plan change, a scheduled downgrade, a dropped one, a cancellation", () => {
    expect(met({ kind: "plan", plan: "growth", interval: "year" }, base)).toBe(false);
    expect(met({ kind: "plan", plan: "growth", interval: "month" }, base)).toBe(true);
    const scheduled = { ...base, scheduled: { plan: "developer", interval: "month" } };
    expect(met({ kind: "scheduled", plan: "developer", interval: "month" }, base)).toBe(false);
    expect(met({ kind: "scheduled", plan: "developer", interval: "month" }, scheduled)).toBe(true);
    expect(met({ kind: "scheduled", plan: "developer", interval: "year" }, scheduled)).toBe(false);
    expect(met({ kind: "unscheduled" }, scheduled)).toBe(false);
    expect(met({ kind: "unscheduled" }, base)).toBe(true);
    expect(met({ kind: "cancel", value: true }, base)).toBe(false);
    expect(met({ kind: "cancel", value: true }, { ...base, cancelAtPeriodEnd: true })).toBe(true);
    expect(met({ kind: "cancel", value: false }, base)).toBe(true);
  });
});

describe("prices", () => {
  it("plan prices whole when whole, Stripe's cents always with two decimals", () => {
    expect(euros(29)).toBe("€29");
    expect(euros(2490)).toBe("€2,490");
    expect(euros(290 / 12)).toBe("€24.17");
    expect(money(2900, "eur")).toBe("€29.00");
    expect(money(15000, "EUR")).toBe("€150.00");
    expect(money(0, "eur")).toBe("€0.00");
  });
});
