import Stripe from "stripe";
import { ApiError } from "@/lib/api/errors";

// The Stripe client. STRIPE_SECRET_KEY talks to Stripe; STRIPE_API_BASE points the same SDK at
// another host, the local fake (lib/billing/fake) that tests and the embedded default run, since
// this machine has no internet. Neither set: billing is off and its routes answer 503.

const slot = globalThis as unknown as { __stripe?: { base: string; key: string; client: Stripe } };

export function billingConfigured(): boolean {
  return Boolean(process.env.STRIPE_SECRET_KEY || process.env.STRIPE_API_BASE);
}

export function stripe(): Stripe {
  const key = process.env.STRIPE_SECRET_KEY ?? (process.env.STRIPE_API_BASE ? "sk_test_local_fake" : "");
  const base = process.env.STRIPE_API_BASE ?? "";
  if (!key) throw new ApiError("BILLING_UNAVAILABLE", "Billing is not configured on this server (no STRIPE_SECRET_KEY).");
  if (slot.__stripe && slot.__stripe.key === key && slot.__stripe.base === base) return slot.__stripe.client;
  const config: Stripe.StripeConfig = { maxNetworkRetries: 2, timeout: 15_000, appInfo: { name: "pokeprice" } };
  if (base) {
    const u = new URL(base);
    Object.assign(config, { host: u.hostname, port: Number(u.port || (u.protocol === "https:" ? 443 : 80)), protocol: u.protocol.replace(":", "") });
  }
  const client = new Stripe(key, config);
  slot.__stripe = { base, key, client };
  return client;
}

export function webhookSecret(): string {
  const s = process.env.STRIPE_WEBHOOK_SECRET;
  if (!s) throw new ApiError("BILLING_UNAVAILABLE", "Billing webhooks are not configured on this server (no STRIPE_WEBHOOK_SECRET).");
  return s;
}

/**
 * Runs a Stripe call; a network fault or Stripe's own 5xx becomes 503 BILLING_UNAVAILABLE (a
 * retry can fix it), anything else stays what it is.
 */
export async function callStripe<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof ApiError) throw err;
    if (err instanceof Stripe.errors.StripeConnectionError || err instanceof Stripe.errors.StripeAPIError || err instanceof Stripe.errors.StripeRateLimitError) {
      throw new ApiError("BILLING_UNAVAILABLE", "Stripe could not be reached. Retry shortly.", undefined, { "retry-after": "5" });
    }
    // Stripe refused what we asked (a misconfigured price, an account deleted there): ours to fix,
    // said as such rather than as an internal error without words.
    if (err instanceof Stripe.errors.StripeError) {
      console.error(`[billing] Stripe refused a request: ${err.type} ${err.code ?? ""} ${err.message}`);
      throw new ApiError("BILLING_UNAVAILABLE", "Billing is misconfigured: Stripe refused the request. We have been told; retry later.", { stripe_code: err.code ?? err.type }, { "retry-after": "60" });
    }
    throw err;
  }
}

/** Whether Stripe answered that an object we named does not exist (deleted in Stripe's dashboard). */
export function isMissing(err: unknown): boolean {
  const cause = err instanceof ApiError ? err.details?.stripe_code : (err as { code?: string })?.code;
  return cause === "resource_missing";
}
