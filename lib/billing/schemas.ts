import { z } from "zod";
import { cursorParam, limitParam } from "@/lib/api/params";
import { PLAN_ORDER } from "@/lib/meter/plans";

// Request and response shapes of the billing routes (validation and the OpenAPI document).

const ts = z.string().meta({ description: "RFC 3339 timestamp" });
const plan = z.enum(["developer", "growth", "professional", "enterprise"]).meta({
  description: "A paid plan. Enterprise is negotiated: it is refused with a `next_step` to contact sales.",
});
const interval = z.enum(["month", "year"]).default("month").meta({
  description: "Billed monthly, or yearly at ten months' price. A yearly plan still grants its credits month by month.",
});

export const PlanChoice = z.strictObject({ plan, interval }).meta({ example: { plan: "growth", interval: "month" } });

export const UrlResponse = (id: string, what: string) =>
  z.object({ data: z.object({ url: z.url().meta({ description: what }) }) }).meta({ id });

export const ChangeResponse = z.object({
  data: z.object({
    change: z.enum(["none", "now", "at_period_end"]).meta({
      description: "`now`: an upgrade, prorated and invoiced at once. `at_period_end`: a downgrade, through a subscription schedule. `none`: already on that plan (a waiting downgrade is dropped).",
    }),
    effective_at: ts.nullable(),
  }),
}).meta({ id: "PlanChange" });

export const CancelBody = z.strictObject({
  cancel_at_period_end: z.boolean().meta({ description: "true: the subscription ends at the period's end. false: it renews again (before that end)." }),
}).meta({ example: { cancel_at_period_end: true } });

export const CancelResponse = z.object({
  data: z.object({ cancel_at_period_end: z.boolean(), period_end: ts }),
}).meta({ id: "Cancellation" });

export const BillingResponse = z.object({
  data: z.object({
    plan: z.enum(PLAN_ORDER),
    interval: z.enum(["month", "year"]).nullable(),
    status: z.enum(["active", "past_due", "canceled", "suspended"]),
    standing: z.enum(["ok", "grace", "suspended", "canceled", "trial_expired"]).meta({
      description: "Whether credited routes answer: `grace` after a failed payment (7 days), then `suspended` until the invoice is paid; `canceled` after the subscription ended; `trial_expired` once the trial is over (403 TRIAL_EXPIRED).",
    }),
    current_period_end: ts.nullable(),
    credits_reset_at: ts.nullable().meta({ description: "When the credits renew: the month's end, also on a yearly plan." }),
    cancel_at_period_end: z.boolean(),
    scheduled_change: z.object({ plan: z.string(), interval: z.string().nullable(), at: ts.nullable() }).nullable(),
    grace_ends_at: ts.nullable(),
    open_invoice_url: z.string().nullable(),
    trial_expires_at: ts.nullable(),
    payment_method: z.object({ brand: z.string().nullable(), last4: z.string().nullable(), exp_month: z.number().nullable(), exp_year: z.number().nullable() }).nullable(),
    next_invoice: z.object({ amount_due: z.number().meta({ description: "In the currency's smallest unit (cents)." }), currency: z.string(), date: ts.nullable() }).nullable(),
  }),
}).meta({ id: "Billing" });

export const Invoice = z.object({
  id: z.string(), number: z.string().nullable(), status: z.string().nullable(), currency: z.string(),
  amount_due: z.number(), amount_paid: z.number(), total: z.number().meta({ description: "Amounts in the currency's smallest unit (cents)." }),
  created: ts, period_start: ts.nullable(), period_end: ts.nullable(),
  hosted_invoice_url: z.string().nullable(), invoice_pdf: z.string().nullable(),
}).meta({ id: "Invoice" });

export const InvoicesQuery = z.strictObject({
  limit: limitParam(),
  cursor: cursorParam,
});

export const InvoicesResponse = z.object({
  data: z.array(Invoice),
  meta: z.object({ limit: z.number(), count: z.number(), has_more: z.boolean() }),
  links: z.object({ next: z.string().optional() }),
}).meta({ id: "InvoiceList" });

export const WebhookResponse = z.object({
  received: z.literal(true), event: z.string(), type: z.string(), applied: z.boolean(),
  reason: z.enum(["duplicate", "not_handled"]).optional(),
}).meta({ id: "WebhookReceipt" });
