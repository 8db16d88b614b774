import type { Db } from "@/lib/db/client";
import { configuredOrigin } from "@/lib/env";
import { enqueue } from "@/lib/mail/outbox";
import { PAST_DUE_GRACE_DAYS } from "@/lib/meter/plans";
import type { BillingRow, SubscriptionState } from "./queries/accounts";

// Mail to the account's owner about its subscription. Sent once per episode: a payment failure
// is mailed when the account enters past_due, not on each of Stripe's retries.

export async function mailPaymentFailed(row: BillingRow, next: SubscriptionState, db?: Db): Promise<void> {
  const since = next.pastDueSince ? Date.parse(next.pastDueSince) : Date.now();
  const suspends = new Date(since + PAST_DUE_GRACE_DAYS * 86_400_000).toISOString().slice(0, 10);
  await enqueue({
    to: row.email,
    subject: "Your PokéPrice payment failed",
    text: [
      `The payment for your ${next.plan} plan failed. The API keeps answering until ${suspends}; after that, credited routes`,
      "answer 403 PLAN_REQUIRED until the invoice is paid.",
      "",
      next.openInvoiceUrl ? `Pay the invoice: ${next.openInvoiceUrl}` : "",
      `Or update your card from the billing page: ${configuredOrigin()}/dashboard/billing`,
    ].filter((l, i, all) => l || all[i - 1]).join("\n"),
    kind: "payment_failed",
    accountId: row.id,
  }, db);
}
