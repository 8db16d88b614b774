import type { Account } from "@/lib/accounts/types";

// Accounts as the pipeline sees them, for the pure functions of the plan gate and the policy.

export const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);
export const DAY = 86_400_000;
export const iso = (ms: number) => new Date(ms).toISOString();

/** A trial signed up at T0: 30 days, unconfirmed unless said otherwise. */
export function account(over: Partial<Account> = {}): Account {
  return {
    id: "acct_unit", email: "unit@example.com", emailConfirmedAt: null, plan: "trial", status: "active",
    trialStartedAt: iso(T0), trialExpiresAt: iso(T0 + 30 * DAY), periodStart: null, periodEnd: null, creditsLimit: null,
    billingInterval: null, pastDueSince: null, openInvoiceUrl: null,
    legacyPaging: false, authUserId: null, createdAt: iso(T0), ...over,
  };
}

export const confirmedTrial = (over: Partial<Account> = {}) => account({ emailConfirmedAt: iso(T0 + 60_000), ...over });

export const paid = (plan: Account["plan"], over: Partial<Account> = {}) =>
  account({
    plan, emailConfirmedAt: iso(T0), trialExpiresAt: null, periodStart: iso(T0 + DAY), periodEnd: iso(T0 + 31 * DAY), ...over,
  });
