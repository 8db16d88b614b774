import type { Plan } from "@/lib/meter/costs";

export type AccountStatus = "active" | "past_due" | "canceled" | "suspended";

/** What the pipeline knows of the caller's account. Timestamps are RFC 3339. */
export type Account = {
  id: string;
  email: string;
  emailConfirmedAt: string | null;
  plan: Plan;
  status: AccountStatus;
  trialStartedAt: string;
  trialExpiresAt: string | null;
  periodStart: string | null;
  periodEnd: string | null;
  /** month | year for a Stripe subscription; null for the trial and manual plans. */
  billingInterval: string | null;
  pastDueSince: string | null;
  openInvoiceUrl: string | null;
  creditsLimit: number | null;
  legacyPaging: boolean;
  authUserId: string | null;
  createdAt: string;
};

export type KeyRecord = { id: string; name: string; prefix: string; createdAt: string; lastUsedAt: string | null; expiresAt: string | null };
