import { sql } from "drizzle-orm";
import { rows, type Db } from "@/lib/db/client";
import { iso } from "@/lib/db/sql";

// The billing columns of an account, read and written only by lib/billing.

export type BillingRow = {
  id: string; email: string; plan: string; status: string; billingInterval: string | null;
  periodStart: string | null; periodEnd: string | null; trialExpiresAt: string | null;
  pastDueSince: string | null; openInvoiceUrl: string | null; cancelAtPeriodEnd: boolean;
  scheduledPlan: string | null; scheduledInterval: string | null; scheduledAt: string | null;
  stripeCustomerId: string | null; stripeSubscriptionId: string | null;
};

const COLUMNS = sql`id, email, plan, status, billing_interval as "billingInterval", ${iso(sql`period_start`)} as "periodStart",
  ${iso(sql`period_end`)} as "periodEnd", ${iso(sql`trial_expires_at`)} as "trialExpiresAt", ${iso(sql`past_due_since`)} as "pastDueSince",
  open_invoice_url as "openInvoiceUrl", cancel_at_period_end as "cancelAtPeriodEnd", scheduled_plan as "scheduledPlan",
  scheduled_interval as "scheduledInterval", ${iso(sql`scheduled_at`)} as "scheduledAt",
  stripe_customer_id as "stripeCustomerId", stripe_subscription_id as "stripeSubscriptionId"`;

export async function billingRow(accountId: string): Promise<BillingRow | undefined> {
  const [r] = await rows<BillingRow>(sql`select ${COLUMNS} from accounts where id = ${accountId}`);
  return r;
}

export async function billingRowByCustomer(customerId: string): Promise<BillingRow | undefined> {
  const [r] = await rows<BillingRow>(sql`select ${COLUMNS} from accounts where stripe_customer_id = ${customerId}`);
  return r;
}

/** Stores the account's customer unless it has one already; returns the one it keeps. */
export async function keepCustomer(accountId: string, customerId: string): Promise<string> {
  const [r] = await rows<{ c: string }>(sql`
    update accounts set stripe_customer_id = coalesce(stripe_customer_id, ${customerId}), updated_at = now()
    where id = ${accountId} returning stripe_customer_id as c`);
  return r!.c;
}

/** Drops a customer Stripe no longer has, and the subscription that went with it. */
export async function forgetCustomer(accountId: string, customerId: string): Promise<void> {
  await rows(sql`update accounts set stripe_customer_id = null, stripe_subscription_id = null, updated_at = now()
    where id = ${accountId} and stripe_customer_id = ${customerId}`);
}

export type SubscriptionState = Pick<BillingRow,
  "plan" | "status" | "billingInterval" | "periodStart" | "periodEnd" | "trialExpiresAt" | "pastDueSince" | "openInvoiceUrl" |
  "cancelAtPeriodEnd" | "scheduledPlan" | "scheduledInterval" | "scheduledAt" | "stripeSubscriptionId">;

export async function writeSubscriptionState(accountId: string, s: SubscriptionState, db?: Db): Promise<void> {
  // A self-serve plan's credits are the plan's: an operator's negotiated limit for another plan
  // goes with the change (the right-hand side reads the row as it was).
  await rows(sql`update accounts set plan = ${s.plan}, status = ${s.status}, billing_interval = ${s.billingInterval},
    credits_limit = case when plan = ${s.plan} then credits_limit end,
    period_start = ${s.periodStart}, period_end = ${s.periodEnd}, trial_expires_at = ${s.trialExpiresAt},
    past_due_since = ${s.pastDueSince}, open_invoice_url = ${s.openInvoiceUrl}, cancel_at_period_end = ${s.cancelAtPeriodEnd},
    scheduled_plan = ${s.scheduledPlan}, scheduled_interval = ${s.scheduledInterval}, scheduled_at = ${s.scheduledAt},
    stripe_subscription_id = ${s.stripeSubscriptionId}, updated_at = now()
    where id = ${accountId}`, db);
}
