import { z } from "zod";
import { instant } from "@/lib/api/params";
import { PLAN_ORDER } from "@/lib/meter/plans";

// Request and response shapes of the account routes (validation and the OpenAPI document).

const ts = z.string().meta({ description: "RFC 3339 timestamp" });
const NextStep = z.object({ action: z.string(), message: z.string() }).loose();

// zod's own pattern, except that a domain label may neither start nor end with a hyphen (RFC 1035):
// `x@bad-.example` is malformed, and mail to it could never arrive.
const emailAddress = () =>
  z.email({ pattern: /^(?:[A-Za-z0-9_'+\-]+\.)*[A-Za-z0-9_'+\-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/ }).max(254);

export const EmailBody = z.strictObject({
  email: emailAddress().meta({ description: "The address the confirmation link goes to.", example: "dev@example.com" }),
});

export const RegisterBody = z.strictObject({
  email: emailAddress(),
  password: z.string().min(10).max(128).meta({ description: "10 to 128 characters." }),
  name: z.string().max(100).optional(),
});

export const IdempotencyHeaders = z.object({
  "idempotency-key": z.string().min(16).max(255).meta({
    description: "Required: 16 to 255 characters, e.g. a UUID generated per signup. The same key and body within 24 hours replay the first answer; another body is 409 IDEMPOTENCY_CONFLICT. A short or shared key would let someone else who knows it and the address replay the answer.",
    example: "0f8e2b5c-6a1d-4c1e-9d7a-3b2f5e8c9a10",
  }),
});

export const SignupResponse = z.object({
  data: z.object({
    account_id: z.string(),
    api_key: z.string().meta({ description: "Shown once. Send it as X-Api-Key." }),
    plan: z.literal("trial"),
    email_confirmed: z.literal(false),
    trial_expires_at: ts,
    next_step: NextStep,
  }),
}).meta({ id: "Signup" });

export const RegisterResponse = z.object({
  data: z.object({
    email: z.string(),
    next_step: NextStep,
  }),
}).meta({ id: "Registration" });

const PlanObject = z.object({
  plan: z.enum(PLAN_ORDER), monthly_eur: z.number().nullable(), credits_per_month: z.number().nullable(),
  requests_per_second: z.number(), in_flight: z.number(), card_allowance: z.number().nullable(),
});

export const MeResponse = z.object({
  data: z.object({
    account_id: z.string(),
    email: z.string(),
    email_confirmed: z.boolean(),
    plan: z.enum(PLAN_ORDER),
    status: z.string(),
    created_at: ts,
    quota: z.object({
      credits_limit: z.number().nullable(), credits_used: z.number(), credits_remaining: z.number().nullable(), renews: z.boolean(),
      resets_at: ts.nullable().optional(), daily_cap: z.number().optional(), daily_used: z.number().optional(),
      trial_expires_at: ts.nullable().optional(), trial_expired: z.boolean().optional(), credits_after_confirmation: z.number().nullable().optional(),
    }),
    cards: z.object({ used: z.number(), limit: z.number().nullable(), resets_at: ts.nullable() }),
    limits: z.object({ requests_per_second: z.number(), burst: z.number(), requests_per_minute: z.number().nullable(), in_flight: z.number() }),
    trial_calls: z.record(z.string(), z.object({ used: z.number(), limit: z.number() })).optional(),
    usage_warnings: z.array(z.object({
      code: z.literal("NEAR_LIMIT"), resource: z.enum(["credits", "cards"]), used: z.number(), limit: z.number(), stale: z.boolean(), message: z.string(),
    })),
    upgrade_suggestion: PlanObject.extend({ reason: z.string() }).nullable(),
    billing_warning: z.object({
      code: z.enum(["PAYMENT_FAILED", "SUSPENDED", "CANCELED"]),
      message: z.string(),
      grace_ends_at: ts.nullable(),
      invoice_url: z.string().nullable(),
    }).nullable().meta({ description: "The subscription's state when it needs the owner: a failed payment (still served until grace_ends_at), a suspension, a cancellation. Null otherwise." }),
  }),
}).meta({ id: "Me" });

export const KeyObject = z.object({
  id: z.string().meta({ description: "The key's id (key_…): what the key routes take, never the secret." }), name: z.string(),
  prefix: z.string().meta({ description: "The secret's first characters, to tell keys apart; the whole secret is shown once, when made." }), created_at: ts,
  last_used_at: ts.nullable().meta({ description: "Written at most once a minute per instance, so it may lag a minute." }),
  expires_at: ts.nullable().meta({ description: "After it the key answers 401 INVALID_API_KEY; null never expires." }),
  expired: z.boolean().meta({ description: "Past expires_at: the key no longer authenticates." }),
  requests_30d: z.number().int().meta({ description: "Calls the key made in the last 30 days, refused ones included." }),
}).meta({ id: "ApiKey" });
export const NewKeyObject = KeyObject.extend({ secret: z.string().meta({ description: "Shown once; only its hash is stored." }) }).meta({ id: "NewApiKey" });
export const KeyBody = z.strictObject({
  name: z.string().min(1).max(100).optional(),
  expires_at: instant().nullable().optional().meta({ description: "When the key stops working (RFC 3339, in the future); omitted or null: never." }),
});
export const KeyParams = z.object({ id: z.string().min(1).max(100).meta({ description: "The key's id (key_…), as GET /v1/keys lists it; not its secret." }) });

export const AccountParams = z.object({ account_id: z.string().min(1).max(100).meta({ description: "The account's id (acct_…)." }) });
export const PlanBody = z.strictObject({
  plan: z.enum(PLAN_ORDER),
  resets_at: instant().optional().meta({ description: "End of the current period; default 30 days on." }),
  credits_limit: z.number().int().min(0).max(2_147_483_647).nullable().optional().meta({ description: "Negotiated credits per period (enterprise)." }),
});
export const TrialBody = z.strictObject({ expires_at: instant() });
export const CreditsBody = z.strictObject({ used: z.number().int().min(0) });
export const FlagsBody = z.strictObject({
  legacy_paging: z.boolean().optional(),
  status: z.enum(["active", "canceled", "suspended"]).optional(),
});
export const ConfirmBody = z.strictObject({
  token: z.string().min(10).max(200),
  password: z.string().min(1).max(1000).optional().meta({
    description: "The dashboard password the account was registered with, if it was: given and right, the dashboard sign-in works from now on; without it only the address is confirmed.",
  }),
});
