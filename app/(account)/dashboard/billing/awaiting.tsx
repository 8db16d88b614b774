"use client";

import { useRouter } from "next/navigation";
import { useActionState, useEffect, useState } from "react";
import { IDLE, met, type BillingActionResult, type BillingState, type Expectation } from "./view";

// Stripe applies a change at once, but the account moves only when Stripe's webhook reaches the
// server, about a second later. Until the page shows what an action asked for, it re-renders the
// server components now and then (router.refresh keeps the client state), then gives up politely.

const EVERY_MS = 1000;
const TRIES = 30;

/** Refreshes the page every second while `waiting`, at most TRIES times per `token`. */
export function useRefreshUntil(waiting: boolean, token: unknown): { timedOut: boolean; again: () => void } {
  const router = useRouter();
  const [tries, setTries] = useState(0);
  const [seen, setSeen] = useState(token);
  if (seen !== token) {
    // A new wait starts counting afresh (state adjusted while rendering, as React advises).
    setSeen(token);
    setTries(0);
  }
  useEffect(() => {
    if (!waiting || tries >= TRIES) return;
    const t = setTimeout(() => {
      router.refresh();
      setTries((n) => n + 1);
    }, EVERY_MS);
    return () => clearTimeout(t);
  }, [waiting, tries, router]);
  return { timedOut: waiting && tries >= TRIES, again: () => setTries(0) };
}

type Action = (prev: BillingActionResult, form: FormData) => Promise<BillingActionResult>;

/** useActionState, plus the wait for the webhook when the action says what to expect. */
export function useBillingAction(action: Action, state: BillingState) {
  const [result, formAction, pending] = useActionState(action, IDLE);
  const expect: Expectation | undefined = result.status === "done" ? result.expect : undefined;
  const holds = expect ? met(expect, state) : true;
  // The subscription as the page showed it when the change landed: once it moves on (another
  // action, a renewal), this outcome is old news and no longer shown, nor waited for again.
  const now = JSON.stringify(state);
  const [confirmed, setConfirmed] = useState<{ result: BillingActionResult; seen: string } | null>(null);
  const landed = confirmed?.result === result;
  if (expect && holds && !landed) setConfirmed({ result, seen: now });
  const waiting = Boolean(expect) && !holds && !landed;
  const stale = landed && confirmed.seen !== now;
  const { timedOut, again } = useRefreshUntil(waiting, result);
  return { result, formAction, pending, waiting, stale, timedOut, again, state };
}

/** The outcome of an action: an error (alert), the wait for Stripe, or what changed (status). */
export function ActionNotice({ result, waiting, stale, timedOut, again, pendingText, state }: {
  result: BillingActionResult; waiting: boolean; stale: boolean; timedOut: boolean; again: () => void; pendingText: string; state: BillingState;
}) {
  // A success the subscription has moved on from (say, a downgrade dropped by a cancellation) is not repeated.
  if (result.status === "idle" || stale) return null;
  if (result.status === "error") {
    return <div className="notice error" role="alert"><p>{result.message}</p></div>;
  }
  if (waiting) {
    return (
      <div className="notice warn" role="status" aria-live="polite" data-testid="billing-waiting">
        {timedOut ? (
          <>
            <p>Stripe accepted the change but has not confirmed it to us yet. This page shows it once it does.</p>
            <button type="button" className="button secondary small" onClick={again}>Check again</button>
          </>
        ) : (
          <p><span className="spinner" aria-hidden="true" /> {pendingText}</p>
        )}
      </div>
    );
  }
  if (result.expect?.kind === "plan" && state.status === "past_due") {
    return (
      <div className="notice warn" role="status" aria-live="polite">
        <p>The new plan applies, but its payment failed: pay the open invoice (see the warning above) to keep the account in good standing.</p>
      </div>
    );
  }
  return <div className="notice success" role="status" aria-live="polite"><p>{result.message}</p></div>;
}
