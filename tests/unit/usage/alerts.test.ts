import { describe, expect, it } from "vitest";
import type { Account } from "@/lib/accounts/types";
import { allowance } from "@/lib/meter/policy";
import { alertable, dueAlerts, trialEndingMail, trialEndingSoon, usageAlertMail } from "@/lib/usage/alerts";

// The pure part of the usage alerts (lib/usage/alerts.ts): which thresholds are due, which
// accounts can be alerted, and what the mail says.

const DAY = 86_400_000;
const NOW = Date.parse("2026-03-10T12:00:00.000Z");

function account(over: Partial<Account> = {}): Account {
  return {
    id: "acc_1", email: "owner@example.com", emailConfirmedAt: "2026-03-01T00:00:00.000Z", plan: "trial", status: "active",
    trialStartedAt: "2026-03-01T00:00:00.000Z", trialExpiresAt: "2026-03-31T00:00:00.000Z", periodStart: null, periodEnd: null,
    billingInterval: null, pastDueSince: null, openInvoiceUrl: null, creditsLimit: null, legacyPaging: false, authUserId: null,
    createdAt: "2026-03-01T00:00:00.000Z", ...over,
  };
}

describe("dueAlerts", () => {
  it("nothing below 80%", () => {
    expect(dueAlerts("credits", 639, 800)).toEqual([]);
    expect(dueAlerts("cards", 0, 1000)).toEqual([]);
  });

  it("the 80% alert from exactly 80%, mailed", () => {
    expect(dueAlerts("credits", 640, 800)).toEqual([{ kind: "credits_80", mail: true }]);
    expect(dueAlerts("cards", 799, 1000)).toEqual([]);
    expect(dueAlerts("cards", 800, 1000)).toEqual([{ kind: "cards_80", mail: true }]);
  });

  it("once: a recorded 80% alert is not due again, however far past it usage goes below 100%", () => {
    expect(dueAlerts("credits", 700, 800, ["credits_80"])).toEqual([]);
    expect(dueAlerts("credits", 799, 800, new Set(["credits_80"]))).toEqual([]);
  });

  it("the 100% alert at the limit and beyond, after the 80% one", () => {
    expect(dueAlerts("credits", 800, 800, ["credits_80"])).toEqual([{ kind: "credits_100", mail: true }]);
    expect(dueAlerts("credits", 950, 800, ["credits_80"])).toEqual([{ kind: "credits_100", mail: true }]);
    expect(dueAlerts("credits", 800, 800, ["credits_80", "credits_100"])).toEqual([]);
  });

  it("a jump past both mails the 100% alert only and records the 80% one as covered", () => {
    expect(dueAlerts("cards", 1000, 1000)).toEqual([{ kind: "cards_80", mail: false }, { kind: "cards_100", mail: true }]);
  });

  it("resources are independent", () => {
    expect(dueAlerts("cards", 900, 1000, ["credits_80", "credits_100"])).toEqual([{ kind: "cards_80", mail: true }]);
  });

  it("no limit, no alert: -1 (unlimited or none), 0, Infinity", () => {
    for (const limit of [-1, 0, Infinity, NaN]) expect(dueAlerts("credits", 1e9, limit)).toEqual([]);
  });
});

describe("alertable", () => {
  it("a confirmed trial and a developer plan, yes; an unconfirmed trial, no", () => {
    expect(alertable(allowance(account(), NOW))).toBe(true);
    expect(alertable(allowance(account({ emailConfirmedAt: null }), NOW))).toBe(false);
    expect(alertable(allowance(account({ plan: "developer", periodStart: "2026-03-01T00:00:00.000Z", periodEnd: "2026-04-01T00:00:00.000Z" }), NOW))).toBe(true);
  });

  it("growth has credits but no card allowance; enterprise has neither unless its credits are negotiated", () => {
    const growth = allowance(account({ plan: "growth", periodStart: "2026-03-01T00:00:00.000Z" }), NOW);
    expect(growth.cards).toBe(-1);
    expect(alertable(growth)).toBe(true);
    expect(alertable(allowance(account({ plan: "enterprise", periodStart: "2026-03-01T00:00:00.000Z" }), NOW))).toBe(false);
    expect(alertable(allowance(account({ plan: "enterprise", periodStart: "2026-03-01T00:00:00.000Z", creditsLimit: 2_000_000 }), NOW))).toBe(true);
  });
});

describe("trialEndingSoon", () => {
  it("within seven days and still ahead", () => {
    expect(trialEndingSoon(new Date(NOW + 7 * DAY).toISOString(), NOW)).toBe(true);
    expect(trialEndingSoon(new Date(NOW + 1000).toISOString(), NOW)).toBe(true);
    expect(trialEndingSoon(new Date(NOW + 7 * DAY + 1000).toISOString(), NOW)).toBe(false);
    expect(trialEndingSoon(new Date(NOW - 1000).toISOString(), NOW)).toBe(false);
    expect(trialEndingSoon(null, NOW)).toBe(false);
  });
});

describe("mail text", () => {
  const origin = "https://api.example.com/";

  it("80% of a paid period's credits: figures, reset, what happens at 100%, links", () => {
    const m = usageAlertMail("credits_80", {
      account: account({ plan: "developer" }), trial: false, resetsAt: "2026-04-01T00:00:00.000Z", used: 40_123, limit: 50_000, origin,
    });
    expect(m).toMatchObject({ to: "owner@example.com", kind: "usage_credits_80", accountId: "acc_1" });
    expect(m.subject).toMatch(/80%/);
    expect(m.text).toContain("40,123 of 50,000 credits (80%)");
    expect(m.text).toContain("2026-04-01 00:00 UTC");
    expect(m.text).toContain("429 QUOTA_EXCEEDED");
    expect(m.text).toContain("https://api.example.com/dashboard/usage");
    expect(m.text).toContain("https://api.example.com/dashboard/billing");
  });

  it("100% of credits: calls are refused with QUOTA_EXCEEDED until the reset, unless the owner upgrades", () => {
    const m = usageAlertMail("credits_100", {
      account: account({ plan: "developer" }), trial: false, resetsAt: "2026-04-01T00:00:00.000Z", used: 50_000, limit: 50_000, origin,
    });
    expect(m.text).toMatch(/now refused with 429 QUOTA_EXCEEDED until 2026-04-01 00:00 UTC, unless you upgrade/);
    expect(m.text).toContain("50,000 of 50,000 credits (100%)");
    expect(m.subject).toBe("PokéPrice: this period's credits are used up");
  });

  it("the trial's credits never renew: said so, with the trial's end", () => {
    const m = usageAlertMail("credits_100", { account: account(), trial: true, resetsAt: null, used: 800, limit: 800, origin });
    expect(m.text).toContain("do not renew; the trial ends on 2026-03-31 00:00 UTC");
    expect(m.text).toContain("it never renews), unless you subscribe");
    expect(m.subject).toBe("PokéPrice: your trial's credits are used up");
    expect(m.text).toContain("Subscribe for more: https://api.example.com/dashboard/billing");
  });

  it("cards: the allowance and CARD_ALLOWANCE_EXCEEDED", () => {
    const m = usageAlertMail("cards_100", {
      account: account({ plan: "developer" }), trial: false, resetsAt: "2026-04-01T00:00:00.000Z", used: 30_000, limit: 30_000, origin,
    });
    expect(m.kind).toBe("usage_cards_100");
    expect(m.text).toContain("30,000 of 30,000 distinct cards (100%)");
    expect(m.text).toContain("403 CARD_ALLOWANCE_EXCEEDED");
  });

  it("trial ending: the date, the days left, what happens, the billing link", () => {
    const m = trialEndingMail(account({ trialExpiresAt: new Date(NOW + 6.5 * DAY).toISOString() }), NOW, origin);
    expect(m.kind).toBe("usage_trial_ending");
    expect(m.subject).toBe("PokéPrice: your trial ends in 7 days");
    expect(m.text).toContain("403 TRIAL_EXPIRED");
    expect(m.text).toContain("https://api.example.com/dashboard/billing");
  });
});
