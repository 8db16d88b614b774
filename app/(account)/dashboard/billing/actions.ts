"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import Stripe from "stripe";
import { ApiError } from "@/lib/api/errors";
import type { Account } from "@/lib/accounts/types";
import { createCheckout } from "@/lib/billing/checkout";
import { changePlan, portalUrl, setCancelAtPeriodEnd } from "@/lib/billing/manage";
import { INTERVALS, PAID_PLANS, type Interval, type PaidPlan } from "@/lib/billing/prices";
import { formText } from "@/lib/util/text";
import { signedIn } from "../../server";
import { day, intervalName, planName, type BillingActionResult } from "./view";

// The billing page's mutations, each for the signed-in person's own account (a server action is
// an endpoint anyone can call, so each checks the session again). Stripe's answer comes back at
// once; the account itself changes when Stripe's webhook arrives, which the page then waits for.

const SIGNED_OUT = "Your session has ended. Sign in again.";
const PAGE = "/dashboard/billing";

const fail = (message: string): BillingActionResult => ({ status: "error", message, at: Date.now() });

async function mine(): Promise<Account | null> {
  return (await signedIn())?.account ?? null;
}

/** A refusal the person can read: ours as written, Stripe's with its own words, anything else logged. */
function explain(err: unknown, what: string): BillingActionResult {
  if (err instanceof ApiError) return fail(err.message);
  if (err instanceof Stripe.errors.StripeError) return fail(`Stripe refused to ${what}: ${err.message}`);
  console.error(`[billing] could not ${what}:`, err);
  return fail(`We could not ${what} just now. Reload the page to see the subscription as it is, and try again in a minute.`);
}

function choice(form: FormData): { plan: PaidPlan; interval: Interval } | null {
  const plan = formText(form, "plan", 20);
  const interval = formText(form, "interval", 10) || "month";
  if (!(PAID_PLANS as readonly string[]).includes(plan) || !(INTERVALS as readonly string[]).includes(interval)) return null;
  return { plan: plan as PaidPlan, interval: interval as Interval };
}

const label = (c: { plan: string; interval: string }) => `${planName(c.plan)} (${intervalName(c.interval)})`;

/** No live subscription: a Stripe Checkout session for the plan, and the browser goes there. */
export async function subscribeAction(_prev: BillingActionResult, form: FormData): Promise<BillingActionResult> {
  const account = await mine();
  if (!account) return fail(SIGNED_OUT);
  const c = choice(form);
  if (!c) return fail("Pick Developer, Growth or Professional, monthly or yearly.");
  let url: string;
  try {
    url = (await createCheckout(account, c)).url;
  } catch (err) {
    return explain(err, "start the checkout");
  }
  redirect(url);
}

/** A live subscription: up at once (prorated, invoiced now), down at the period's end. */
export async function changePlanAction(_prev: BillingActionResult, form: FormData): Promise<BillingActionResult> {
  const account = await mine();
  if (!account) return fail(SIGNED_OUT);
  const c = choice(form);
  if (!c) return fail("Pick Developer, Growth or Professional, monthly or yearly.");
  try {
    const r = await changePlan(account, c);
    revalidatePath(PAGE);
    const at = Date.now();
    if (r.change === "now") {
      return { status: "done", at, expect: { kind: "plan", ...c }, message: `You are on ${label(c)} from now on. The rest of this period was prorated and invoiced at once.` };
    }
    if (r.change === "at_period_end") {
      const when = r.effective_at ? ` on ${day(r.effective_at)}` : " at the end of the period";
      return { status: "done", at, expect: { kind: "scheduled", ...c }, message: `${label(c)} starts${when}. Until then the current plan stays, and nothing is charged now.` };
    }
    return { status: "done", at, expect: { kind: "unscheduled" }, message: `You stay on ${label(c)}; no change is waiting any more.` };
  } catch (err) {
    return explain(err, "change the plan");
  }
}

/** `cancel=1`: the subscription ends at the period's end; `cancel=0`: it renews as before. */
export async function cancelAction(_prev: BillingActionResult, form: FormData): Promise<BillingActionResult> {
  const account = await mine();
  if (!account) return fail(SIGNED_OUT);
  const cancel = formText(form, "cancel", 1) === "1";
  try {
    const r = await setCancelAtPeriodEnd(account, cancel);
    revalidatePath(PAGE);
    const message = cancel
      ? `The subscription ends on ${day(r.period_end)}. It serves until then and is not charged again.`
      : `The subscription renews on ${day(r.period_end)} as before.`;
    return { status: "done", at: Date.now(), expect: { kind: "cancel", value: cancel }, message };
  } catch (err) {
    return explain(err, cancel ? "cancel the subscription" : "keep the subscription");
  }
}

/** Stripe's customer portal, where the card on file is changed. */
export async function portalAction(_prev: BillingActionResult, _form: FormData): Promise<BillingActionResult> {
  const account = await mine();
  if (!account) return fail(SIGNED_OUT);
  let url: string;
  try {
    url = (await portalUrl(account)).url;
  } catch (err) {
    return explain(err, "open the payment settings");
  }
  redirect(url);
}
