import type { ApiError } from "@/lib/api/errors";
import type { Account } from "@/lib/accounts/types";
import type { CostRule } from "./costs";
import { atLeast, PLANS, TRIAL_FEATURE_CALLS } from "./plans";
import { isConfirmed, isTrial, standing, trialExpired } from "./policy";
import { confirmEmailStep, payInvoiceStep, planRequired, planStep, subscribeStep, trialExpiredError } from "./refusals";

// Step 4 of the pipeline, before any credit is reserved: is this route open to the plan?
// Returns the refusal, or the counted feature the meter must charge a trial call to.

export type GateOutcome = { ok: true; feature?: string } | { ok: false; error: ApiError };

export function gate(account: Account, rule: CostRule, cost: number, now = Date.now()): GateOutcome {
  const credited = cost > 0;
  const held = credited ? standingRefusal(account, now) : undefined;
  if (held) return { ok: false, error: held };
  if (credited && trialExpired(account, now)) return { ok: false, error: trialExpiredError(account, rule.minPlan) };
  const min = rule.minPlan;
  if (!min || atLeast(account.plan, min)) return { ok: true };
  if (isTrial(account) && rule.trial) {
    if (!isConfirmed(account)) {
      return {
        ok: false,
        error: planRequired("Confirm your email to use this route on the trial: photo identification and centering open after confirmation.", {
          plan_required: min, next_step: confirmEmailStep(account),
        }),
      };
    }
    return rule.trial === "credits" ? { ok: true } : { ok: true, feature: rule.trial.calls };
  }
  const trialNote = rule.trial && typeof rule.trial === "object" ? ` The trial includes ${TRIAL_FEATURE_CALLS} calls after email confirmation.` : "";
  const needs = `needs the ${min} plan or higher; the account is on ${account.plan}.${trialNote}`;
  // SPEC.md: before confirmation, a PLAN_REQUIRED message starts with 'Confirm your email'.
  const message = isTrial(account) && !isConfirmed(account) ? `Confirm your email and subscribe: this route ${needs}` : `This route ${needs}`;
  return {
    ok: false,
    error: planRequired(message, {
      plan: account.plan, plan_required: min, next_step: planStep(account, min, `${PLANS[min].plan} opens this route.`),
    }),
  };
}

/** A canceled subscription, or one suspended for an unpaid invoice, serves no credited route. */
function standingRefusal(account: Account, now: number): ApiError | undefined {
  const s = standing(account, now);
  if (s === "canceled") {
    return planRequired("The subscription is canceled. Subscribe again to call credited routes; zero-cost routes still answer.", {
      status: "canceled", plan: account.plan, next_step: subscribeStep(account.plan === "trial" ? "developer" : account.plan),
    });
  }
  if (s === "suspended") {
    return planRequired("The account is suspended: its subscription has an unpaid invoice. Pay it to resume; zero-cost routes still answer.", {
      status: "suspended", plan: account.plan, next_step: payInvoiceStep(account),
    });
  }
  return undefined;
}
