"use client";

import { useState } from "react";
import { changePlanAction, subscribeAction } from "./actions";
import { ActionNotice, useBillingAction } from "./awaiting";
import { day, direction, euros, intervalName, planName, type BillingState, type Interval, type PaidPlan } from "./view";

export type Offer = { plan: PaidPlan; monthlyEur: number; credits: number; rate: number; cards: number | null; blurb: string };

type Props = {
  offers: Offer[];
  state: BillingState;
  /** subscribe: no live subscription (Checkout); change: a live one; locked: set to end (keep it first); negotiated: an Enterprise contract. */
  mode: "subscribe" | "change" | "locked" | "negotiated";
  periodEnd: string | null;
  salesEmail: string;
};

type Confirming = { plan: PaidPlan; interval: Interval; way: "up" | "down" };

const n = (v: number) => v.toLocaleString("en-US");

export function PlanPicker({ offers, state, mode, periodEnd, salesEmail }: Props) {
  const current = mode !== "subscribe" && state.interval ? { plan: state.plan, interval: state.interval } : null;
  const [interval, setIntervalChoice] = useState<Interval>(current?.interval ?? "month");
  const [confirming, setConfirming] = useState<Confirming | null>(null);
  const [acted, setActed] = useState<PaidPlan | null>(null);
  const sub = useBillingAction(subscribeAction, state);
  const change = useBillingAction(changePlanAction, state);
  const busy = sub.pending || change.pending;

  function pick(next: Interval) {
    setIntervalChoice(next);
    setConfirming(null);
  }

  function button(o: Offer) {
    const hidden = (
      <>
        <input type="hidden" name="plan" value={o.plan} />
        <input type="hidden" name="interval" value={interval} />
      </>
    );
    if (mode === "negotiated") return null;
    if (mode === "subscribe") {
      return (
        <form action={sub.formAction} onSubmit={() => setActed(o.plan)}>
          {hidden}
          <button type="submit" className="button" disabled={busy} aria-describedby={`plan-${o.plan}-price`}>
            {sub.pending && acted === o.plan ? "Opening checkout…" : "Subscribe"}
          </button>
        </form>
      );
    }
    const way = direction(current!, { plan: o.plan, interval });
    if (way === "same") return <p className="plan-current"><span className="tag ok">Current plan</span></p>;
    if (state.scheduled?.plan === o.plan && (state.scheduled.interval ?? interval) === interval) {
      return <p className="plan-current"><span className="tag">{periodEnd ? `From ${day(periodEnd)}` : "At the period's end"}</span></p>;
    }
    const samePlan = o.plan === current!.plan;
    const verb = samePlan ? (interval === "year" ? "Switch to yearly" : "Switch to monthly") : way === "up" ? "Upgrade" : "Downgrade";
    if (confirming && confirming.plan === o.plan && confirming.interval === interval) {
      const name = `${planName(o.plan)} (${intervalName(interval)})`;
      return (
        <form action={change.formAction} onSubmit={() => setActed(o.plan)} className="plan-confirm">
          {hidden}
          <p id={`confirm-${o.plan}`}>
            {way === "up"
              ? `${name} starts now. The unused time of ${planName(current!.plan)} is credited and the difference charged to your card at once.`
              : `${name} starts ${periodEnd ? `on ${day(periodEnd)}` : "at the end of this period"}; ${planName(current!.plan)} stays until then. Nothing is charged now.`}
          </p>
          <div className="plan-confirm-buttons">
            <button type="submit" className="button small" disabled={busy} aria-describedby={`confirm-${o.plan}`}>
              {change.pending ? "Changing…" : way === "up" ? `Confirm ${samePlan ? "switch" : "upgrade"}` : `Confirm ${samePlan ? "switch" : "downgrade"}`}
            </button>
            <button type="button" className="button secondary small" disabled={change.pending} onClick={() => setConfirming(null)}>Back</button>
          </div>
        </form>
      );
    }
    return (
      <button type="button" className={way === "up" ? "button" : "button secondary"} disabled={busy || mode === "locked"}
        aria-describedby={`plan-${o.plan}-price`}
        onClick={() => setConfirming({ plan: o.plan, interval, way })}>
        {verb}
      </button>
    );
  }

  // The outcome shows in the card acted on; an action finished closes its confirmation.
  const notice = (o: PaidPlan) => {
    if (acted !== o) return null;
    const a = mode === "subscribe" ? sub : change;
    return <ActionNotice {...a} pendingText="Stripe is confirming the change…" />;
  };
  const [settled, setSettled] = useState(change.result);
  if (settled !== change.result) {
    setSettled(change.result);
    setConfirming(null);
  }

  return (
    <div className="picker">
      <fieldset className="interval-toggle">
        <legend className="visually-hidden">Billing interval</legend>
        <label className={interval === "month" ? "on" : undefined}>
          <input type="radio" name="billing-interval" value="month" checked={interval === "month"} onChange={() => pick("month")} />
          Monthly
        </label>
        <label className={interval === "year" ? "on" : undefined}>
          <input type="radio" name="billing-interval" value="year" checked={interval === "year"} onChange={() => pick("year")} />
          Yearly <span className="save">2 months free</span>
        </label>
      </fieldset>

      <div className="plans">
        {offers.map((o) => (
          <article key={o.plan} className={`plan-card${current?.plan === o.plan ? " current" : ""}`} aria-labelledby={`plan-${o.plan}-h`} data-plan={o.plan}>
            <h3 id={`plan-${o.plan}-h`}>{planName(o.plan)}</h3>
            <p className="plan-price" id={`plan-${o.plan}-price`}>
              {interval === "month" ? (
                <>{euros(o.monthlyEur)} <span>a month</span></>
              ) : (
                <>{euros(o.monthlyEur * 10)} <span>a year</span></>
              )}
            </p>
            <p className="plan-alt">
              {interval === "month" ? `or ${euros(o.monthlyEur * 10)} a year` : `${euros((o.monthlyEur * 10) / 12)} a month, billed yearly`}
            </p>
            <p className="plan-blurb">{o.blurb}</p>
            <ul className="plan-features">
              <li>{n(o.credits)} credits a month</li>
              <li>{o.rate} requests a second</li>
              <li>{o.cards === null ? "No limit on distinct cards" : `${n(o.cards)} distinct cards a month`}</li>
            </ul>
            <div className="plan-action">{button(o)}</div>
            {notice(o.plan)}
          </article>
        ))}
        <article className="plan-card" aria-labelledby="plan-enterprise-h" data-plan="enterprise">
          <h3 id="plan-enterprise-h">Enterprise</h3>
          <p className="plan-price">Custom</p>
          <p className="plan-alt">negotiated per contract</p>
          <p className="plan-blurb">For marketplaces and large catalogues.</p>
          <ul className="plan-features">
            <li>Credits as agreed</li>
            <li>Higher rate limits</li>
            <li>Invoiced terms, support agreement</li>
          </ul>
          <div className="plan-action">
            {state.plan === "enterprise" && mode === "negotiated"
              ? <p className="plan-current"><span className="tag ok">Current plan</span></p>
              : <a className="button secondary" href={`mailto:${salesEmail}?subject=${encodeURIComponent("Enterprise plan")}`}>Contact sales</a>}
          </div>
        </article>
      </div>
    </div>
  );
}
