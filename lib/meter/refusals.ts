import { ApiError } from "@/lib/api/errors";
import type { Account } from "@/lib/accounts/types";
import { PLANS } from "./plans";
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

/** A canceled subscription: subscribe again through Checkout. */
export function subscribeStep(plan: Plan): NextStep {
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
