import type { ApiError } from "@/lib/api/errors";
import type { Account } from "@/lib/accounts/types";
import type { CostRule } from "./costs";
import { atLeast, PLANS, TRIAL_FEATURE_CALLS } from "./plans";
import { isConfirmed, isTrial, trialExpired } from "./policy";
import { confirmEmailStep, planRequired, trialExpiredError, upgradeStep } from "./refusals";

// Step 4 of the pipeline, before any credit is reserved: is this route open to the plan?
// Returns the refusal, or the counted feature the meter must charge a trial call to.

export type GateOutcome = { ok: true; feature?: string } | { ok: false; error: ApiError };

export function gate(account: Account, rule: CostRule, cost: number, now = Date.now()): GateOutcome {
  const credited = cost > 0;
  if (credited && account.status !== "active") {
    return {
      ok: false,
      error: planRequired(`The subscription is ${account.status}. Reactivate it to call credited routes.`, {
        status: account.status, next_step: upgradeStep(account.plan === "trial" ? "developer" : account.plan, "The subscription is not active."),
      }),
    };
  }
  if (credited && trialExpired(account, now)) return { ok: false, error: trialExpiredError(account) };
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
  return {
    ok: false,
    error: planRequired(`This route needs the ${min} plan or higher; the account is on ${account.plan}.${trialNote}`, {
      plan: account.plan, plan_required: min, next_step: upgradeStep(min, `${PLANS[min].plan} opens this route.`),
    }),
  };
}
