import { describe, expect, it } from "vitest";
import { direction } from "@/lib/billing/manage";
import { invoiceCursor } from "@/lib/billing/invoices";
import { planOfPrice } from "@/lib/billing/prices";
import { COSTS, type CostRule } from "@/lib/meter/costs";
import { gate } from "@/lib/meter/gate";
import { addMonths, allowance, monthOfYear, period, standing } from "@/lib/meter/policy";
import { DAY, iso, paid, T0 } from "../meter/accounts";

// The pure rules of billing: a yearly plan's months, the grace after a failed payment, which
// change is an upgrade, which price is which plan.

const costOf = (rule: CostRule) => rule.credits({ query: {}, params: {} });

describe("a yearly plan grants its credits month by month", () => {
  const start = "2026-01-31T10:00:00.000Z";
  const end = "2027-01-31T10:00:00.000Z";
  const yearly = paid("developer", { billingInterval: "year", periodStart: start, periodEnd: end });

  it("months follow the anchor's day, the month's last day when shorter (as Stripe bills)", () => {
    expect(addMonths(start, 1)).toBe("2026-02-28T10:00:00.000Z");
    expect(addMonths(start, 2)).toBe("2026-03-31T10:00:00.000Z");
    expect(addMonths(start, 12)).toBe(end);
  });

  it("the period is the month that holds now, with the monthly credits; each month is its own key", () => {
    const keys = new Set<string>();
    for (let k = 0; k < 12; k++) {
      const at = Date.parse(addMonths(start, k)) + DAY;
      const p = period(yearly, at);
      expect(p.start).toBe(addMonths(start, k));
      expect(p.resetsAt).toBe(addMonths(start, k + 1));
      expect(allowance(yearly, at).credits).toBe(50_000);
      keys.add(p.key);
    }
    expect(keys.size).toBe(12);
  });

  it("the same month computed twice is the same period: the grant cannot happen twice", () => {
    const at = Date.parse("2026-06-15T00:00:00Z");
    const { ttlS: _a, ...first } = period(yearly, at);
    const { ttlS: _b, ...again } = period(yearly, at + 3_600_000);
    expect(first).toEqual(again);
    expect(monthOfYear(start, end, at)).toEqual({ start: "2026-05-31T10:00:00.000Z", end: "2026-06-30T10:00:00.000Z" });
  });

  it("past the year's end (a renewal not heard of yet) the last month stays, never a thirteenth", () => {
    expect(monthOfYear(start, end, Date.parse(end) + 5 * DAY).start).toBe(addMonths(start, 11));
  });

  it("a monthly plan's period is Stripe's period", () => {
    const monthly = paid("growth", { billingInterval: "month" });
    expect(period(monthly, T0 + 2 * DAY)).toMatchObject({ start: monthly.periodStart, resetsAt: monthly.periodEnd });
  });
});

describe("a failed payment: seven days of grace, then suspended", () => {
  const since = T0 + 2 * DAY;
  const a = paid("growth", { status: "past_due", pastDueSince: iso(since), openInvoiceUrl: "https://invoice.example/in_1" });

  it("serves during the grace, refuses after it with the open invoice to pay", () => {
    expect(standing(a, since + 6 * DAY)).toBe("grace");
    expect(gate(a, COSTS.cardGet, costOf(COSTS.cardGet), since + 6 * DAY)).toEqual({ ok: true });
    expect(standing(a, since + 7 * DAY)).toBe("suspended");
    const refused = gate(a, COSTS.cardGet, costOf(COSTS.cardGet), since + 7 * DAY);
    if (refused.ok) throw new Error("expected a refusal");
    expect(refused.error.code).toBe("PLAN_REQUIRED");
    expect(refused.error.details).toMatchObject({ status: "suspended", next_step: { action: "pay_invoice", invoice_url: "https://invoice.example/in_1" } });
  });

  it("zero-cost routes keep answering when suspended or canceled", () => {
    for (const s of [a, paid("growth", { status: "canceled" })]) {
      expect(gate(s, COSTS.account, 0, since + 30 * DAY)).toEqual({ ok: true });
      expect(gate(s, COSTS.billing, 0, since + 30 * DAY)).toEqual({ ok: true });
    }
  });

  it("a canceled subscription asks to subscribe again, not to pay", () => {
    const refused = gate(paid("developer", { status: "canceled" }), COSTS.setsList, costOf(COSTS.setsList), T0 + 3 * DAY);
    if (refused.ok) throw new Error("expected a refusal");
    expect(refused.error.details).toMatchObject({ status: "canceled", next_step: { action: "subscribe", checkout: "POST /v1/billing/checkout" } });
  });
});

describe("plan changes", () => {
  it.each([
    [["developer", "month"], ["growth", "month"], "up"],
    [["growth", "year"], ["professional", "month"], "up"],
    [["growth", "month"], ["growth", "year"], "up"],
    [["growth", "year"], ["growth", "month"], "down"],
    [["professional", "month"], ["developer", "year"], "down"],
    [["growth", "month"], ["growth", "month"], "same"],
  ] as const)("%j → %j is %s", (from, to, way) => {
    expect(direction({ plan: from[0], interval: from[1] }, { plan: to[0], interval: to[1] })).toBe(way);
  });

  it("prices are known by lookup_key only", () => {
    expect(planOfPrice({ lookup_key: "growth_year" })).toEqual({ plan: "growth", interval: "year" });
    expect(planOfPrice({ lookup_key: "enterprise_month" })).toBeUndefined();
    expect(planOfPrice({ lookup_key: null })).toBeUndefined();
  });
});

describe("the invoices cursor", () => {
  it("round-trips an invoice id and refuses anything else as INVALID_CURSOR", () => {
    expect(invoiceCursor.decode(invoiceCursor.encode("in_123abc"))).toBe("in_123abc");
    for (const bad of ["%00", "not-base64", Buffer.from(JSON.stringify({ a: "cus_1" })).toString("base64url"), Buffer.from("[]").toString("base64url")]) {
      expect(() => invoiceCursor.decode(bad)).toThrow(expect.objectContaining({ code: "INVALID_CURSOR" }));
    }
  });
});
