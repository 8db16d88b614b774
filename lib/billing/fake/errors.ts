// Errors in Stripe's shape: `{ error: { type, message, param, code, … } }` with the HTTP status.

export type StripeErrorType = "invalid_request_error" | "card_error" | "api_error" | "idempotency_error";

export class FakeStripeError extends Error {
  constructor(
    readonly status: number,
    readonly type: StripeErrorType,
    message: string,
    readonly param?: string,
    readonly code?: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }

  body(): { error: Record<string, unknown> } {
    const error: Record<string, unknown> = { type: this.type, message: this.message };
    if (this.param !== undefined) error.param = this.param;
    if (this.code !== undefined) error.code = this.code;
    if (this.code) error.doc_url = `https://docs.stripe.com/error-codes/${this.code.replace(/_/g, "-")}`;
    return { error: { ...error, ...this.extra } };
  }
}

const NAMES: Record<string, string> = {
  cus: "customer",
  price: "price",
  prod: "product",
  cs: "checkout.session",
  sub: "subscription",
  sub_sched: "subscription schedule",
  si: "subscription item",
  in: "invoice",
  pm: "PaymentMethod",
  bps: "billing portal session",
  evt: "event",
};

export function missing(kind: keyof typeof NAMES | string, id: string, param = "id"): FakeStripeError {
  return new FakeStripeError(404, "invalid_request_error", `No such ${NAMES[kind] ?? kind}: '${id}'`, param, "resource_missing");
}

export function invalid(message: string, param?: string, code?: string): FakeStripeError {
  return new FakeStripeError(400, "invalid_request_error", message, param, code);
}

export function cardDeclined(extra: Record<string, unknown> = {}): FakeStripeError {
  return new FakeStripeError(402, "card_error", "Your card was declined.", undefined, "card_declined", {
    decline_code: "generic_decline",
    ...extra,
  });
}
