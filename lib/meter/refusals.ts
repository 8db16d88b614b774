import { ApiError } from "@/lib/api/errors";
import type { Account } from "@/lib/accounts/types";
import { PLAN_ORDER, PLANS } from "./plans";
import type { Plan } from "./costs";

// The refusals of the meter and the plan gate, with the details SPEC.md lists for each, and
// the next step a client can act on.

export type NextStep = { action: string; message: string; [k: string]: unknown };

export function confirmEmailStep(a: Account): NextStep {
  return {
    action: "confirm_email",
    message: `Confirm ${a.email} with the link we sent: it unlocks the full trial (800 credits, photo identification and centering calls).`,
    resend: "POST /v1/accounts/confirmation",
  };
}

/** Enterprise is negotiated, never sold through Stripe: its step is to write to sales. */
export const SALES_STEP = {
  action: "contact_sales",
  email: "sales@pokeprice.example",
  message: "Enterprise plans are negotiated (rate, credits, terms): write to sales@pokeprice.example and we set the plan up for the account.",
};

/** The plan above `plan` (enterprise has none: more is negotiated with sales). */
export const nextPlan = (plan: Plan): Plan => PLAN_ORDER[Math.min(PLAN_ORDER.indexOf(plan) + 1, PLAN_ORDER.length - 1)]!;

/** A Stripe subscription that still runs: a plan changes through it, never through a second Checkout. */
const subscribed = (a: Account) => a.plan !== "trial" && a.billingInterval !== null && a.status !== "canceled";

/**
 * The step that takes `account` to `plan`, one that works for it: sales for enterprise, a change
 * of the running subscription (POST /v1/billing/subscription, where Checkout answers 409
 * SUBSCRIPTION_EXISTS), otherwise Checkout.
 */
export function planStep(account: Account, plan: Plan, reason: string): NextStep {
  if (plan === "enterprise") return { ...SALES_STEP, plan, message: `${reason} ${SALES_STEP.message}` };
  const step = upgradeStep(plan, reason);
  if (!subscribed(account)) return step;
  const { checkout: _checkout, ...rest } = step;
  return {
    ...rest,
    action: "change_plan",
    change: "POST /v1/billing/subscription",
    message: `${reason} The account owner can change the subscription to ${plan} (from ${PLANS[plan].monthlyEur} EUR a month) in the dashboard or with POST /v1/billing/subscription.`,
  };
}

export function upgradeStep(plan: Plan, reason: string): NextStep {
  const p = PLANS[plan];
  return {
    action: "upgrade",
    plan,
    prices: p.monthlyEur === null ? null : { eur_month: p.monthlyEur, eur_year: p.monthlyEur * 10 },
    checkout: "POST /v1/billing/checkout",
    message: `${reason} The account owner can subscribe to ${plan} (from ${p.monthlyEur} EUR a month) in the dashboard or with POST /v1/billing/checkout.`,
  };
}

/** A canceled subscription: subscribe again through Checkout (an enterprise contract: through sales). */
export function subscribeStep(plan: Plan): NextStep {
  if (plan === "enterprise") return { ...SALES_STEP, plan, message: `The contract has ended. ${SALES_STEP.message}` };
  return { ...upgradeStep(plan, "The subscription is canceled."), action: "subscribe" };
}

/** A suspended account: pay the open invoice (Stripe's hosted page), or update the card in the portal. */
export function payInvoiceStep(a: Account): NextStep {
  return {
    action: "pay_invoice",
    invoice_url: a.openInvoiceUrl,
    portal: "POST /v1/billing/portal",
    message: `The last payment failed. Pay the open invoice${a.openInvoiceUrl ? ` at ${a.openInvoiceUrl}` : ""} or update the card through POST /v1/billing/portal; the API resumes as soon as it is paid.`,
  };
}

export function planRequired(message: string, details: Record<string, unknown>): ApiError {
  return new ApiError("PLAN_REQUIRED", message, details);
}

/** `upgradeTo`: the route's minimum plan where it has one (a developer plan would not open identify). */
export function trialExpiredError(a: Account, upgradeTo: Plan = "developer"): ApiError {
  return new ApiError(
    "TRIAL_EXPIRED",
    "The 30-day trial is over. Zero-cost routes still answer; subscribe to keep calling credited routes.",
    {
      trial_expired_at: a.trialExpiresAt?.slice(0, 10) ?? null,
      trial_days: 30,
      plan: "trial",
      next_step: upgradeStep(upgradeTo, "The trial has ended."),
    },
  );
}

/** Seconds until midnight UTC. */
export function secondsToMidnight(now = Date.now()): number {
  return Math.max(1, Math.ceil((86_400_000 - (now % 86_400_000)) / 1000));
}
