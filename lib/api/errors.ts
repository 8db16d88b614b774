// The one table of error codes: HTTP status and the sentence the OpenAPI document prints.
// Domain code throws ApiError for a request it cannot answer; the meter and authentication
// return their outcomes as values. Only the route wrapper turns either into a response.
export const ERRORS = {
  MISSING_API_KEY: [401, "No key header or bearer token on a route needing one."],
  INVALID_API_KEY: [401, "The key matches no account."],
  INVALID_PARAMETER: [400, "Wrong type or unsupported value of a parameter, an unknown parameter, or `page`/`offset`."],
  INVALID_CURSOR: [400, "Cursor malformed or issued for a different orderBy."],
  LIMIT_EXCEEDED: [400, "limit above 250, or a batch with too many ids. `details.max`, `details.requested`."],
  INVALID_QUERY: [400, "`q` does not parse or names a nonexistent field. `details.position` points at the problem."],
  INVALID_SELECT_FIELD: [400, "Unknown `select` name; `details.valid_fields`."],
  INVALID_INCLUDE: [400, "`include` value not accepted; `details.valid_values`."],
  INVALID_IMAGE: [400, "The uploaded file is not a readable JPEG, PNG or WebP image."],
  SET_NOT_FOUND: [404, "No set with that code, slug or alternate id."],
  CARD_NOT_FOUND: [404, "No card with that id or alternate id."],
  SEALED_NOT_FOUND: [404, "No sealed product with that sku or slug."],
  ARTIST_NOT_FOUND: [404, "No artist with that slug."],
  NOT_FOUND: [404, "No such route under /v1."],
  METHOD_NOT_ALLOWED: [405, "The route exists but not with this method; see the Allow header."],
  IDEMPOTENCY_CONFLICT: [409, "The Idempotency-Key was already used with a different body, or its first request is still running."],
  ACCOUNT_EXISTS: [409, "An account already exists for this address; its key is never revealed. Recover access by email."],
  KEY_NOT_FOUND: [404, "No live key with that id on this account."],
  TOO_MANY_KEYS: [409, "The account holds the most live keys it may: delete one first."],
  ACCOUNT_NOT_FOUND: [404, "No account with that id."],
  SUBSCRIPTION_EXISTS: [409, "The account already has a subscription: change its plan with POST /v1/billing/subscription."],
  SUBSCRIPTION_NOT_FOUND: [404, "The account has no subscription to change; subscribe with POST /v1/billing/checkout."],
  INVALID_SIGNATURE: [400, "The webhook's Stripe-Signature does not match its body, or is too old."],
  REQUEST_TIMEOUT: [408, "The request's headers or body did not arrive in time; the connection is closed."],
  LENGTH_REQUIRED: [411, "A form of the site's pages was sent in chunks, without Content-Length."],
  PAYLOAD_TOO_LARGE: [413, "The request body or upload is larger than the route accepts."],
  HEADERS_TOO_LARGE: [431, "The request line and headers are longer than the server reads (64 KiB)."],
  FORBIDDEN_ORIGIN: [403, "A form of the site's pages was posted from another origin."],
  PLAN_REQUIRED: [403, "Feature outside the plan, or email not yet confirmed. Follow `details.next_step`."],
  TRIAL_EXPIRED: [403, "Trial over (30 days from signup) and the route costs credits."],
  CARD_ALLOWANCE_EXCEEDED: [403, "The request would add new distinct cards beyond the plan's allowance."],
  RATE_LIMITED: [429, "Too many requests per second or per minute. Honour Retry-After."],
  CONCURRENCY_LIMIT: [429, "Too many requests in flight. Retry-After is one second."],
  QUOTA_EXCEEDED: [429, "Trial credits, monthly credits or the daily cap are spent."],
  INTERNAL_ERROR: [500, "An internal fault. The request id identifies it in our logs."],
  METER_UNAVAILABLE: [503, "Trial only: the meter is unreachable. Retry after Retry-After."],
  PROVIDER_UNAVAILABLE: [503, "Centering capacity exhausted (Retry-After: 2), or photo identification not ready while its index is built (Retry-After: 60). Credits and trial calls are refunded."],
  SERVICE_UNAVAILABLE: [503, "The database is unreachable. Retry later."],
  BILLING_UNAVAILABLE: [503, "Billing is not configured on this server, or Stripe could not be reached. Retry after Retry-After."],
} as const satisfies Record<string, readonly [number, string]>;

export type ErrorCode = keyof typeof ERRORS;

export function statusOf(code: ErrorCode): number {
  return ERRORS[code][0];
}

export class ApiError extends Error {
  override name = "ApiError";
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
  get status(): number {
    return statusOf(this.code);
  }
}
