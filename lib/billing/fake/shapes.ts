// Builders of Stripe-shaped objects (API version 2026-10-28.endive), with the fields Stripe always
// sends set to their plain defaults so code written against the SDK's types finds them.

import { newId, randomString } from "./ids";
import type {
  BillingReason,
  CheckoutSession,
  Customer,
  Interval,
  Invoice,
  InvoiceLine,
  List,
  Metadata,
  PaymentMethod,
  PortalSession,
  Price,
  Product,
  SchedulePhase,
  Subscription,
  SubscriptionItem,
  SubscriptionSchedule,
} from "./types";

export function list<T>(data: T[], url: string, hasMore = false): List<T> {
  return { object: "list", data, has_more: hasMore, url };
}

export function makeProduct(o: { id: string; name: string; created: number; metadata: Metadata }): Product {
  return {
    id: o.id,
    object: "product",
    active: true,
    created: o.created,
    default_price: null,
    description: null,
    images: [],
    livemode: false,
    marketing_features: [],
    metadata: o.metadata,
    name: o.name,
    package_dimensions: null,
    shippable: null,
    statement_descriptor: null,
    tax_code: null,
    type: "service",
    unit_label: null,
    updated: o.created,
    url: null,
  };
}

export function makePrice(o: {
  id: string;
  product: string;
  unitAmount: number;
  currency: string;
  interval: Interval;
  lookupKey: string;
  created: number;
  metadata: Metadata;
}): Price {
  return {
    id: o.id,
    object: "price",
    active: true,
    billing_scheme: "per_unit",
    created: o.created,
    currency: o.currency,
    custom_unit_amount: null,
    livemode: false,
    lookup_key: o.lookupKey,
    metadata: o.metadata,
    nickname: null,
    product: o.product,
    recurring: { interval: o.interval, interval_count: 1, meter: null, trial_period_days: null, usage_type: "licensed" },
    tax_behavior: "unspecified",
    tiers_mode: null,
    transform_quantity: null,
    type: "recurring",
    unit_amount: o.unitAmount,
    unit_amount_decimal: String(o.unitAmount),
  };
}

/** The legacy `plan` twin of a recurring price, still present on subscription items. */
export function planOf(price: Price): Record<string, unknown> {
  return {
    id: price.id,
    object: "plan",
    active: price.active,
    amount: price.unit_amount,
    amount_decimal: String(price.unit_amount),
    billing_scheme: "per_unit",
    created: price.created,
    currency: price.currency,
    interval: price.recurring.interval,
    interval_count: price.recurring.interval_count,
    livemode: false,
    metadata: price.metadata,
    meter: null,
    nickname: null,
    product: price.product,
    tiers_mode: null,
    transform_usage: null,
    trial_period_days: null,
    usage_type: "licensed",
  };
}

export function makeCustomer(o: { created: number; email: string | null; name: string | null; metadata: Metadata }): Customer {
  return {
    id: newId("cus", 14),
    object: "customer",
    address: null,
    balance: 0,
    created: o.created,
    currency: null,
    default_source: null,
    delinquent: false,
    description: null,
    discount: null,
    email: o.email,
    invoice_prefix: randomString(8).toUpperCase(),
    invoice_settings: { custom_fields: null, default_payment_method: null, footer: null, rendering_options: null },
    livemode: false,
    metadata: o.metadata,
    name: o.name,
    next_invoice_sequence: 1,
    phone: null,
    preferred_locales: [],
    shipping: null,
    tax_exempt: "none",
    test_clock: null,
  };
}

export function makeCard(o: { created: number; customer: string; email: string | null; name: string | null }): PaymentMethod {
  const expYear = new Date(o.created * 1000).getUTCFullYear() + 3;
  return {
    id: newId("pm"),
    object: "payment_method",
    allow_redisplay: "always",
    billing_details: {
      address: { city: null, country: "DE", line1: null, line2: null, postal_code: null, state: null },
      email: o.email,
      name: o.name,
      phone: null,
      tax_id: null,
    },
    card: {
      brand: "visa",
      checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: "pass" },
      country: "US",
      display_brand: "visa",
      exp_month: 12,
      exp_year: expYear,
      fingerprint: randomString(16),
      funding: "credit",
      generated_from: null,
      last4: "4242",
      networks: { available: ["visa"], preferred: null },
      regulated_status: "unregulated",
      three_d_secure_usage: { supported: true },
      wallet: null,
    },
    created: o.created,
    customer: o.customer,
    customer_account: null,
    livemode: false,
    metadata: {},
    type: "card",
  };
}

export function makeItem(o: {
  subscription: string;
  price: Price;
  quantity: number;
  created: number;
  start: number;
  end: number;
}): SubscriptionItem {
  return {
    id: newId("si", 14),
    object: "subscription_item",
    billing_thresholds: null,
    created: o.created,
    current_period_end: o.end,
    current_period_start: o.start,
    discounts: [],
    metadata: {},
    plan: planOf(o.price),
    price: structuredClone(o.price),
    quantity: o.quantity,
    subscription: o.subscription,
    tax_rates: [],
  };
}

export function makeSubscription(o: {
  customer: string;
  created: number;
  currency: string;
  metadata: Metadata;
  defaultPaymentMethod: string | null;
}): Subscription {
  const id = newId("sub");
  return {
    id,
    object: "subscription",
    application: null,
    application_fee_percent: null,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null },
    billing_cycle_anchor: o.created,
    billing_cycle_anchor_config: null,
    billing_mode: { flexible: { proration_discounts: "included" }, type: "flexible", updated_at: o.created },
    billing_thresholds: null,
    cancel_at: null,
    cancel_at_period_end: false,
    canceled_at: null,
    cancellation_details: { comment: null, feedback: null, reason: null },
    collection_method: "charge_automatically",
    created: o.created,
    currency: o.currency,
    customer: o.customer,
    customer_account: null,
    days_until_due: null,
    default_payment_method: o.defaultPaymentMethod,
    default_source: null,
    default_tax_rates: [],
    description: null,
    discounts: [],
    ended_at: null,
    invoice_settings: { account_tax_ids: null, issuer: { type: "self" } },
    items: { ...list<SubscriptionItem>([], `/v1/subscription_items?subscription=${id}`), total_count: 0 },
    latest_invoice: null,
    livemode: false,
    metadata: o.metadata,
    next_pending_invoice_item_invoice: null,
    on_behalf_of: null,
    pause_collection: null,
    payment_settings: { payment_method_options: null, payment_method_types: null, save_default_payment_method: "off" },
    pending_invoice_item_interval: null,
    pending_setup_intent: null,
    pending_update: null,
    schedule: null,
    start_date: o.created,
    status: "active",
    test_clock: null,
    transfer_data: null,
    trial_end: null,
    trial_settings: { end_behavior: { missing_payment_method: "create_invoice" } },
    trial_start: null,
  };
}

function money(cents: number, currency: string): string {
  const sign = cents < 0 ? "-" : "";
  const symbol = currency === "eur" ? "€" : `${currency.toUpperCase()} `;
  return `${sign}${symbol}${(Math.abs(cents) / 100).toFixed(2)}`;
}

export function formatMoney(cents: number, currency = "eur"): string {
  return money(cents, currency);
}

export function makeLine(o: {
  amount: number;
  currency: string;
  description: string;
  price: Price;
  quantity: number;
  start: number;
  end: number;
  subscription: string;
  subscriptionItem: string;
  proration: boolean;
}): InvoiceLine {
  return {
    id: newId("il"),
    object: "line_item",
    amount: o.amount,
    currency: o.currency,
    description: o.description,
    discount_amounts: [],
    discountable: !o.proration,
    discounts: [],
    invoice: null,
    livemode: false,
    metadata: {},
    parent: {
      type: "subscription_item_details",
      subscription_item_details: {
        invoice_item: o.proration ? newId("ii") : null,
        proration: o.proration,
        proration_details: { credited_items: null },
        subscription: o.subscription,
        subscription_item: o.subscriptionItem,
      },
      invoice_item_details: null,
    },
    period: { start: o.start, end: o.end },
    pretax_credit_amounts: [],
    pricing: {
      type: "price_details",
      price_details: { price: o.price.id, product: o.price.product },
      unit_amount_decimal: String(o.price.unit_amount),
    },
    quantity: o.quantity,
    quantity_decimal: String(o.quantity),
    subtotal: o.amount,
    taxes: [],
  };
}

/** The description Stripe writes on a subscription line: "1 × Growth (at €99.00 / month)". */
export function lineDescription(productName: string, price: Price, quantity: number): string {
  return `${quantity} × ${productName} (at ${money(price.unit_amount, price.currency)} / ${price.recurring.interval})`;
}

export function makeInvoice(o: {
  id: string;
  customer: Customer;
  subscription: Subscription;
  billingReason: BillingReason;
  created: number;
  lines: InvoiceLine[];
  periodStart: number;
  periodEnd: number;
  number: string | null;
  baseUrl: string;
}): Invoice {
  const total = o.lines.reduce((s, l) => s + l.amount, 0);
  const due = Math.max(0, total);
  for (const l of o.lines) l.invoice = o.id;
  const hosted = o.number !== null;
  return {
    id: o.id,
    object: "invoice",
    account_country: "DE",
    account_name: "PokePrice (fake Stripe)",
    account_tax_ids: null,
    amount_due: due,
    amount_overpaid: 0,
    amount_paid: 0,
    amount_remaining: due,
    amount_shipping: 0,
    application: null,
    attempt_count: 0,
    attempted: false,
    auto_advance: true,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null, provider: null, status: null },
    automatically_finalizes_at: null,
    billing_reason: o.billingReason,
    collection_method: "charge_automatically",
    created: o.created,
    currency: o.subscription.currency,
    custom_fields: null,
    customer: o.customer.id,
    customer_account: null,
    customer_address: null,
    customer_email: o.customer.email,
    customer_name: o.customer.name,
    customer_phone: null,
    customer_shipping: null,
    customer_tax_exempt: "none",
    customer_tax_ids: [],
    default_payment_method: null,
    default_source: null,
    default_tax_rates: [],
    description: null,
    discounts: [],
    due_date: null,
    effective_at: hosted ? o.created : null,
    ending_balance: hosted ? 0 : null,
    footer: null,
    from_invoice: null,
    hosted_invoice_url: hosted ? `${o.baseUrl}/invoices/${o.id}` : null,
    invoice_pdf: hosted ? `${o.baseUrl}/invoices/${o.id}.pdf` : null,
    issuer: { type: "self" },
    last_finalization_error: null,
    latest_revision: null,
    lines: { ...list(o.lines, `/v1/invoices/${o.id}/lines`), total_count: o.lines.length },
    livemode: false,
    metadata: {},
    next_payment_attempt: null,
    number: o.number,
    on_behalf_of: null,
    parent: {
      type: "subscription_details",
      quote_details: null,
      subscription_details: { metadata: { ...o.subscription.metadata }, subscription: o.subscription.id },
    },
    payment_settings: { default_mandate: null, payment_method_options: null, payment_method_types: null },
    period_end: o.periodEnd,
    period_start: o.periodStart,
    post_payment_credit_notes_amount: 0,
    pre_payment_credit_notes_amount: 0,
    receipt_number: null,
    rendering: null,
    shipping_cost: null,
    shipping_details: null,
    starting_balance: 0,
    statement_descriptor: null,
    status: hosted ? "open" : "draft",
    status_transitions: { finalized_at: hosted ? o.created : null, marked_uncollectible_at: null, paid_at: null, voided_at: null },
    subtotal: total,
    subtotal_excluding_tax: total,
    test_clock: null,
    total,
    total_discount_amounts: [],
    total_excluding_tax: total,
    total_pretax_credit_amounts: [],
    total_taxes: [],
    webhooks_delivered_at: hosted ? o.created : null,
  };
}

export function makeSession(o: {
  created: number;
  customer: string | null;
  customerEmail: string | null;
  clientReferenceId: string | null;
  successUrl: string;
  cancelUrl: string | null;
  metadata: Metadata;
  amountTotal: number;
  currency: string;
  baseUrl: string;
}): CheckoutSession {
  const id = newId("cs_test", 58);
  return {
    id,
    object: "checkout.session",
    adaptive_pricing: null,
    after_expiration: null,
    allow_promotion_codes: null,
    amount_subtotal: o.amountTotal,
    amount_total: o.amountTotal,
    automatic_tax: { enabled: false, liability: null, provider: null, status: null },
    billing_address_collection: null,
    cancel_url: o.cancelUrl,
    client_reference_id: o.clientReferenceId,
    client_secret: null,
    collected_information: null,
    consent: null,
    consent_collection: null,
    created: o.created,
    currency: o.currency,
    currency_conversion: null,
    custom_fields: [],
    custom_text: { after_submit: null, shipping_address: null, submit: null, terms_of_service_acceptance: null },
    customer: o.customer,
    customer_account: null,
    customer_creation: o.customer ? null : "always",
    customer_details: null,
    customer_email: o.customerEmail,
    discounts: [],
    expires_at: o.created + 24 * 3600,
    invoice: null,
    invoice_creation: null,
    livemode: false,
    locale: null,
    metadata: o.metadata,
    mode: "subscription",
    payment_intent: null,
    payment_link: null,
    payment_method_collection: "always",
    payment_method_configuration_details: null,
    payment_method_options: { card: { request_three_d_secure: "automatic" } },
    payment_method_types: ["card"],
    payment_status: "unpaid",
    permissions: null,
    phone_number_collection: { enabled: false },
    recovered_from: null,
    saved_payment_method_options: null,
    setup_intent: null,
    shipping_address_collection: null,
    shipping_cost: null,
    shipping_options: [],
    status: "open",
    submit_type: null,
    subscription: null,
    success_url: o.successUrl,
    total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
    ui_mode: "hosted",
    url: `${o.baseUrl}/checkout/${id}`,
    wallet_options: null,
  };
}

export function makePhase(o: {
  start: number;
  end: number;
  items: { price: string; quantity: number }[];
  currency: string;
  prorationBehavior: SchedulePhase["proration_behavior"];
  metadata: Metadata;
}): SchedulePhase {
  return {
    add_invoice_items: [],
    application_fee_percent: null,
    billing_cycle_anchor: null,
    billing_thresholds: null,
    collection_method: null,
    currency: o.currency,
    default_payment_method: null,
    default_tax_rates: [],
    description: null,
    discounts: [],
    end_date: o.end,
    invoice_settings: null,
    items: o.items.map((i) => ({
      billing_thresholds: null,
      discounts: [],
      metadata: {},
      plan: i.price,
      price: i.price,
      quantity: i.quantity,
      tax_rates: [],
    })),
    metadata: o.metadata,
    on_behalf_of: null,
    proration_behavior: o.prorationBehavior,
    start_date: o.start,
    transfer_data: null,
    trial_end: null,
  };
}

export function makeSchedule(o: { sub: Subscription; created: number; phases: SchedulePhase[] }): SubscriptionSchedule {
  const first = o.phases[0];
  return {
    id: newId("sub_sched"),
    object: "subscription_schedule",
    application: null,
    billing_mode: { flexible: { proration_discounts: "included" }, type: "flexible", updated_at: o.created },
    canceled_at: null,
    completed_at: null,
    created: o.created,
    current_phase: first ? { start_date: first.start_date, end_date: first.end_date } : null,
    customer: o.sub.customer,
    customer_account: null,
    default_settings: {
      application_fee_percent: null,
      automatic_tax: { disabled_reason: null, enabled: false, liability: null },
      billing_cycle_anchor: "automatic",
      billing_thresholds: null,
      collection_method: "charge_automatically",
      default_payment_method: null,
      description: null,
      invoice_settings: { account_tax_ids: null, days_until_due: null, issuer: { type: "self" } },
      on_behalf_of: null,
      transfer_data: null,
    },
    end_behavior: "release",
    livemode: false,
    metadata: {},
    phases: o.phases,
    released_at: null,
    released_subscription: null,
    status: "active",
    subscription: o.sub.id,
    test_clock: null,
  };
}

export function makePortalSession(o: { created: number; customer: string; returnUrl: string | null; baseUrl: string }): PortalSession {
  const id = newId("bps");
  return {
    id,
    object: "billing_portal.session",
    configuration: "bpc_fake_default",
    created: o.created,
    customer: o.customer,
    customer_account: null,
    flow: null,
    livemode: false,
    locale: null,
    on_behalf_of: null,
    return_url: o.returnUrl,
    url: `${o.baseUrl}/portal/${id}`,
  };
}
