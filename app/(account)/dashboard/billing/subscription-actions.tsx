"use client";

import { useActionState, useState } from "react";
import { cancelAction, changePlanAction, portalAction } from "./actions";
import { ActionNotice, useBillingAction } from "./awaiting";
import { day, IDLE, planName, type BillingState } from "./view";

/** Cancel at the period's end or keep the subscription; drop a waiting downgrade. */
export function SubscriptionActions({ state, periodEnd }: { state: BillingState; periodEnd: string | null }) {
  const cancel = useBillingAction(cancelAction, state);
  const stay = useBillingAction(changePlanAction, state);
  const [confirming, setConfirming] = useState(false);
  const [settled, setSettled] = useState(cancel.result);
  if (settled !== cancel.result) {
    setSettled(cancel.result);
    setConfirming(false);
  }
  const busy = cancel.pending || stay.pending;
  const until = periodEnd ? day(periodEnd) : "the end of this period";

  return (
    <div className="sub-actions">
      {state.scheduled && !state.cancelAtPeriodEnd && (
        <form action={stay.formAction}>
          <input type="hidden" name="plan" value={state.plan} />
          <input type="hidden" name="interval" value={state.interval ?? "month"} />
          <button type="submit" className="button secondary small" disabled={busy}>
            {stay.pending ? "Keeping…" : `Stay on ${planName(state.plan)}`}
          </button>
        </form>
      )}
      {state.cancelAtPeriodEnd ? (
        <form action={cancel.formAction}>
          <input type="hidden" name="cancel" value="0" />
          <button type="submit" className="button small" disabled={busy}>{cancel.pending ? "Keeping…" : "Keep my subscription"}</button>
        </form>
      ) : confirming ? (
        <form action={cancel.formAction} className="sub-confirm">
          <input type="hidden" name="cancel" value="1" />
          <p id="cancel-consequence">
            {planName(state.plan)} serves until {until}; after that, calls that cost credits are refused until you subscribe again.
            Nothing more is charged, and you can keep the subscription until that day.
            {state.scheduled ? ` The waiting change to ${planName(state.scheduled.plan)} is dropped.` : ""}
          </p>
          <div className="plan-confirm-buttons">
            <button type="submit" className="button danger small" disabled={busy} aria-describedby="cancel-consequence">
              {cancel.pending ? "Canceling…" : "Confirm cancellation"}
            </button>
            <button type="button" className="button secondary small" disabled={cancel.pending} onClick={() => setConfirming(false)}>Back</button>
          </div>
        </form>
      ) : (
        <button type="button" className="button secondary small" disabled={busy} onClick={() => setConfirming(true)}>Cancel at period end</button>
      )}
      <ActionNotice {...stay} pendingText="Stripe is confirming…" />
      <ActionNotice {...cancel} pendingText="Stripe is confirming…" />
    </div>
  );
}

/** Stripe's customer portal: change the card on file. */
export function PortalButton() {
  const [result, action, pending] = useActionState(portalAction, IDLE);
  return (
    <form action={action} className="portal-form">
      <button type="submit" className="button secondary small" disabled={pending}>{pending ? "Opening…" : "Manage payment method"}</button>
      {result.status === "error" && <div className="notice error" role="alert"><p>{result.message}</p></div>}
    </form>
  );
}
