// Shapes of the objects the fake stores and answers with. They follow Stripe's JSON (API version
// 2026-10-28.endive) for the fields our billing code reads; every interface allows further fields
// so the builders in shapes.ts can add Stripe's many always-null ones without listing them here.

export type Metadata = Record<string, string>;
export type Interval = "month" | "year";

export interface StripeObject {
  id: string;
  object: string;
  [key: string]: unknown;
}

export interface List<T> {
  object: "list";
  data: T[];
  has_more: boolean;
  url: string;
  [key: string]: unknown;
}

export interface Product extends StripeObject {
  object: "product";
  name: string;
  active: boolean;
  created: number;
  metadata: Metadata;
}

export interface Price extends StripeObject {
  object: "price";
  active: boolean;
  currency: string;
  lookup_key: string | null;
  product: string;
  unit_amount: number;
  created: number;
  metadata: Metadata;
  recurring: { interval: Interval; interval_count: number; [key: string]: unknown };
}

export interface Customer extends StripeObject {
  object: "customer";
  email: string | null;
  name: string | null;
  created: number;
  metadata: Metadata;
  currency: string | null;
  invoice_prefix: string;
  next_invoice_sequence: number;
  invoice_settings: { default_payment_method: string | null; [key: string]: unknown };
}

export interface PaymentMethod extends StripeObject {
  object: "payment_method";
  customer: string | null;
  created: number;
  type: "card";
  card: { brand: string; last4: string; exp_month: number; exp_year: number; [key: string]: unknown };
}

export interface SubscriptionItem extends StripeObject {
  object: "subscription_item";
  price: Price;
  quantity: number;
  current_period_start: number;
  current_period_end: number;
  subscription: string;
  metadata: Metadata;
}

export type SubscriptionStatus = "active" | "past_due" | "unpaid" | "canceled" | "incomplete" | "trialing";

export interface Subscription extends StripeObject {
  object: "subscription";
  customer: string;
  status: SubscriptionStatus;
  created: number;
  start_date: number;
  billing_cycle_anchor: number;
  currency: string;
  items: List<SubscriptionItem>;
  cancel_at_period_end: boolean;
  cancel_at: number | null;
  canceled_at: number | null;
  ended_at: number | null;
  cancellation_details: { comment: string | null; feedback: string | null; reason: string | null };
  default_payment_method: string | null;
  latest_invoice: string | null;
  metadata: Metadata;
  schedule: string | null;
}

export interface InvoiceLine extends StripeObject {
  object: "line_item";
  amount: number;
  currency: string;
  description: string | null;
  invoice: string | null;
  period: { start: number; end: number };
  quantity: number | null;
  parent: {
    type: "subscription_item_details";
    subscription_item_details: {
      invoice_item: string | null;
      proration: boolean;
      proration_details: { credited_items: null };
      subscription: string | null;
      subscription_item: string;
    };
    invoice_item_details: null;
  };
  pricing: {
    type: "price_details";
    price_details: { price: string; product: string };
    unit_amount_decimal: string | null;
  };
}

export type InvoiceStatus = "draft" | "open" | "paid" | "uncollectible" | "void";
export type BillingReason = "subscription_create" | "subscription_cycle" | "subscription_update" | "upcoming";

export interface Invoice extends StripeObject {
  object: "invoice";
  customer: string;
  status: InvoiceStatus;
  billing_reason: BillingReason;
  created: number;
  currency: string;
  amount_due: number;
  amount_paid: number;
  amount_remaining: number;
  subtotal: number;
  total: number;
  attempt_count: number;
  attempted: boolean;
  auto_advance: boolean;
  next_payment_attempt: number | null;
  period_start: number;
  period_end: number;
  number: string | null;
  hosted_invoice_url: string | null;
  invoice_pdf: string | null;
  default_payment_method: string | null;
  lines: List<InvoiceLine>;
  parent: {
    type: "subscription_details";
    quote_details: null;
    subscription_details: { metadata: Metadata | null; subscription: string };
  };
  status_transitions: {
    finalized_at: number | null;
    marked_uncollectible_at: number | null;
    paid_at: number | null;
    voided_at: number | null;
  };
}

export interface CheckoutSession extends StripeObject {
  object: "checkout.session";
  status: "open" | "complete" | "expired";
  payment_status: "paid" | "unpaid" | "no_payment_required";
  mode: "subscription";
  created: number;
  expires_at: number;
  customer: string | null;
  customer_email: string | null;
  client_reference_id: string | null;
  success_url: string | null;
  cancel_url: string | null;
  url: string | null;
  subscription: string | null;
  invoice: string | null;
  metadata: Metadata;
  amount_total: number;
  currency: string;
}

/** Checkout line item (the `line_items` expansion of a session). */
export interface CheckoutLine extends StripeObject {
  object: "item";
  price: Price;
  quantity: number;
  amount_total: number;
}

export interface SchedulePhaseItem {
  price: string;
  quantity: number;
  [key: string]: unknown;
}

export interface SchedulePhase {
  start_date: number;
  end_date: number;
  items: SchedulePhaseItem[];
  proration_behavior: ProrationBehavior;
  metadata: Metadata;
  [key: string]: unknown;
}

export interface SubscriptionSchedule extends StripeObject {
  object: "subscription_schedule";
  customer: string;
  subscription: string | null;
  status: "not_started" | "active" | "completed" | "released" | "canceled";
  end_behavior: "release" | "cancel" | "none" | "renew";
  phases: SchedulePhase[];
  current_phase: { start_date: number; end_date: number } | null;
  created: number;
  canceled_at: number | null;
  completed_at: number | null;
  released_at: number | null;
  released_subscription: string | null;
  metadata: Metadata;
}

export interface PortalSession extends StripeObject {
  object: "billing_portal.session";
  customer: string;
  return_url: string | null;
  url: string;
  created: number;
}

export type ProrationBehavior = "create_prorations" | "always_invoice" | "none";

export interface StripeEvent {
  id: string;
  object: "event";
  api_version: string;
  created: number;
  data: { object: StripeObject; previous_attributes?: Record<string, unknown> };
  livemode: false;
  pending_webhooks: number;
  request: { id: string | null; idempotency_key: string | null };
  type: string;
}

/** One POST of an event to the webhook endpoint. */
export interface DeliveryAttempt {
  /** Real time (ms since epoch) the attempt started. */
  at: number;
  /** HTTP status of the answer, or null when the request failed (refused, timed out). */
  status: number | null;
  error?: string;
  ms: number;
  /** True when this attempt was a resend requested through the control API. */
  resend?: boolean;
}

/** Who asked for a change: the API request (its id and Idempotency-Key) or nobody (clock, pages). */
export interface RequestInfo {
  id: string | null;
  idempotency_key: string | null;
}
