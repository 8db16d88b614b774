"use client";

import { useEffect } from "react";
import { useRefreshUntil } from "./awaiting";

/**
 * Back from Stripe Checkout: the payment went through on Stripe's side, and the plan changes when
 * Stripe's webhook reaches us. Until the page shows a live subscription, it looks again every second.
 */
export function CheckoutReturn({ landed, plan }: { landed: boolean; plan: string }) {
  const { timedOut, again } = useRefreshUntil(!landed, "checkout");
  useEffect(() => {
    // Said once: the address loses ?checkout=…, so the next refresh (after another change) drops this notice.
    if (landed) window.history.replaceState(null, "", window.location.pathname);
  }, [landed]);
  if (landed) {
    return (
      <div className="notice success banner" role="status" data-testid="checkout-return">
        <p><strong>Payment confirmed.</strong> You are on {plan} now; its credits are ready to use with the keys you have.</p>
      </div>
    );
  }
  return (
    <div className="notice warn banner" role="status" data-testid="checkout-return">
      {timedOut ? (
        <>
          <p>
            <strong>Your payment is still being confirmed.</strong> Stripe has not told us about it yet; this page shows the new plan
            once it does. You are not charged twice if you wait.
          </p>
          <button type="button" className="button secondary small" onClick={again}>Check again</button>
        </>
      ) : (
        <p><span className="spinner" aria-hidden="true" /> <strong>Thank you: your payment is being confirmed.</strong> The new plan shows here in a moment.</p>
      )}
    </div>
  );
}
