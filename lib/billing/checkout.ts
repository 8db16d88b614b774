import { ApiError } from "@/lib/api/errors";
import { SALES_STEP } from "@/lib/meter/refusals";
import type { Account } from "@/lib/accounts/types";
import { configuredOrigin } from "@/lib/env";
import { billingRow, forgetCustomer, keepCustomer, type BillingRow } from "./queries/accounts";
import { priceFor, type Interval, type PaidPlan } from "./prices";
import { callStripe, isMissing, stripe } from "./stripe";

// Subscribing: the account's Stripe customer (made once), then a Checkout Session for the plan's
// price. Nothing about the account changes here: the plan moves when Stripe's signed webhook says
// the session was paid (sync.ts).

/**
 * The Stripe customer of the account, created on first need; two racing calls keep one. A stored
 * customer Stripe no longer has (deleted there) is replaced.
 */
export async function ensureCustomer(row: BillingRow): Promise<string> {
  if (row.stripeCustomerId) {
    const gone = await callStripe(() => stripe().customers.retrieve(row.stripeCustomerId!)).then((c) => Boolean((c as { deleted?: boolean }).deleted), (err) => {
      if (isMissing(err)) return true;
      throw err;
    });
    if (!gone) return row.stripeCustomerId;
    await forgetCustomer(row.id, row.stripeCustomerId);
  }
  const customer = await callStripe(() => stripe().customers.create(
    { email: row.email, metadata: { account_id: row.id } },
    // Stripe answers a repeated key with the first customer, so a retry or a race makes one.
    { idempotencyKey: `customer-${row.id}-${row.stripeCustomerId ?? "first"}` },
  ));
  return keepCustomer(row.id, customer.id);
}

/** A live subscription (not ended) makes a second Checkout pointless: the plan is changed instead. */
export function hasLiveSubscription(row: BillingRow): boolean {
  return Boolean(row.stripeSubscriptionId) && row.status !== "canceled";
}

export async function createCheckout(account: Account, input: { plan: PaidPlan | "enterprise"; interval: Interval }): Promise<{ url: string }> {
  if (input.plan === "enterprise") {
    throw new ApiError("INVALID_PARAMETER", "Enterprise is not sold through Checkout: contact sales.", { parameter: "plan", next_step: SALES_STEP });
  }
  const plan = input.plan;
  const row = (await billingRow(account.id))!;
  if (hasLiveSubscription(row)) {
    throw new ApiError("SUBSCRIPTION_EXISTS", `The account already has a ${row.plan} subscription (${row.status}). Change its plan instead of subscribing twice.`, {
      plan: row.plan, status: row.status,
      next_step: { action: "change_plan", change: "POST /v1/billing/subscription", portal: "POST /v1/billing/portal", message: "POST /v1/billing/subscription with {plan, interval} upgrades at once or downgrades at the period's end." },
    });
  }
  const customer = await ensureCustomer(row);
  const price = await priceFor(plan, input.interval);
  const origin = configuredOrigin();
  const session = await callStripe(() => stripe().checkout.sessions.create({
    mode: "subscription",
    customer,
    client_reference_id: account.id,
    line_items: [{ price: price.id, quantity: 1 }],
    success_url: `${origin}/dashboard/billing?checkout=success&session_id={CHECKOUT_SESSION_ID}`,
    cancel_url: `${origin}/dashboard/billing?checkout=canceled`,
    metadata: { account_id: account.id, plan, interval: input.interval },
    subscription_data: { metadata: { account_id: account.id } },
  }));
  if (!session.url) throw new Error(`Checkout session ${session.id} has no URL`);
  await expireOtherSessions(customer, session.id);
  return { url: session.url };
}

/**
 * One subscription per account: a Checkout still open from before (another tab, a double click)
 * is expired once a new one is made, so that both cannot be paid. A failure is logged, not
 * answered: the new session is good either way.
 */
async function expireOtherSessions(customer: string, keep: string): Promise<void> {
  try {
    const open = await callStripe(() => stripe().checkout.sessions.list({ customer, status: "open", limit: 100 }));
    for (const s of open.data) if (s.id !== keep) await callStripe(() => stripe().checkout.sessions.expire(s.id));
  } catch (err) {
    console.error(`[billing] could not expire the earlier checkouts of ${customer}: ${(err as Error).message}`);
  }
}
