// What the billing page's server and client parts share: plain types and pure helpers (no
// server imports, so the client components may use them).

export type PaidPlan = "developer" | "growth" | "professional";
export type Interval = "month" | "year";

/** The subscription as the page last rendered it; client parts compare it with what an action asked for. */
export type BillingState = {
  plan: string;
  interval: Interval | null;
  status: string;
  cancelAtPeriodEnd: boolean;
  scheduled: { plan: string; interval: string | null } | null;
};

/**
 * What the page should show once Stripe's webhook has landed: the plan changes only then, a
 * second or so after the action answered.
 */
export type Expectation =
  | { kind: "live" }
  | { kind: "plan"; plan: string; interval: Interval }
  | { kind: "scheduled"; plan: string; interval: Interval }
  | { kind: "unscheduled" }
  | { kind: "cancel"; value: boolean };

export type BillingActionResult =
  | { status: "idle" }
  | { status: "done"; message: string; expect?: Expectation; at: number }
  | { status: "error"; message: string; at: number };

export const IDLE: BillingActionResult = { status: "idle" };

export function met(e: Expectation, s: BillingState): boolean {
  switch (e.kind) {
    case "live":
      return s.plan !== "trial" && s.status !== "canceled";
    case "plan":
      return s.plan === e.plan && s.interval === e.interval;
    case "scheduled":
      return s.scheduled?.plan === e.plan && (s.scheduled.interval ?? e.interval) === e.interval;
    case "unscheduled":
      return s.scheduled === null;
    case "cancel":
      return s.cancelAtPeriodEnd === e.value;
  }
}

const RANK: Record<string, number> = { trial: 0, developer: 1, growth: 2, professional: 3, enterprise: 4 };

/** As lib/billing/manage.ts decides: a larger plan, or monthly to yearly, applies now; the rest at the period's end. */
export function direction(from: { plan: string; interval: Interval }, to: { plan: string; interval: Interval }): "same" | "up" | "down" {
  if (from.plan === to.plan && from.interval === to.interval) return "same";
  const rank = (RANK[to.plan] ?? 0) - (RANK[from.plan] ?? 0);
  if (rank !== 0) return rank > 0 ? "up" : "down";
  return to.interval === "year" ? "up" : "down";
}

export const planName = (plan: string) => plan.charAt(0).toUpperCase() + plan.slice(1);
export const intervalName = (i: string | null) => (i === "year" ? "yearly" : i === "month" ? "monthly" : "");

/** 12 Jul 2026, in UTC like the rest of the dashboard. */
export const day = (iso: string) => new Date(iso).toLocaleDateString("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });

/** A plan's price in euros: €29 when whole, €24.17 otherwise. */
export function euros(value: number): string {
  const whole = Number.isInteger(value);
  return new Intl.NumberFormat("en-IE", { style: "currency", currency: "EUR", minimumFractionDigits: whole ? 0 : 2, maximumFractionDigits: 2 }).format(value);
}

/** Stripe's amounts, in the currency's smallest unit: €29.00. */
export function money(cents: number, currency: string): string {
  return new Intl.NumberFormat("en-IE", { style: "currency", currency: currency.toUpperCase() }).format(cents / 100);
}
