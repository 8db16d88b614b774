import { ApiError } from "@/lib/api/errors";
import { meterDriver } from "@/lib/meter/driver";

// Per-IP limits on the routes anyone may call without a key: script signup, registration,
// dashboard sign-in, and the pages that mail a link on request (confirmation again, password
// recovery). A fixed window in the meter's own store (Redis, or in process).

export const IP_LIMITS = {
  signup: { limit: 10, windowS: 3600 },
  register: { limit: 10, windowS: 3600 },
  signin: { limit: 20, windowS: 300 },
  mail: { limit: 10, windowS: 3600 },
} as const;

/**
 * The caller's address. Next sets X-Forwarded-For from the socket when the client sent none;
 * behind a trusted proxy (TRUST_PROXY=1) its first entry is the client.
 */
export function clientIp(req: Request): string {
  const xff = req.headers.get("x-forwarded-for")?.split(",").map((s) => s.trim()).filter(Boolean) ?? [];
  const ip = process.env.TRUST_PROXY === "1" ? xff[0] : xff[xff.length - 1];
  return ip || req.headers.get("x-real-ip") || "unknown";
}

export type IpOutcome = { ok: true } | { ok: false; error: ApiError };

export async function limitIp(req: Request, bucket: keyof typeof IP_LIMITS): Promise<IpOutcome> {
  const { limit, windowS } = IP_LIMITS[bucket];
  try {
    const r = await (await meterDriver()).hit(`ip:${bucket}:${clientIp(req)}`, limit, windowS);
    if (r.allowed) return { ok: true };
    return {
      ok: false,
      error: new ApiError("RATE_LIMITED", `Too many ${bucket} attempts from this address. Retry after ${r.retryAfterS} s.`, {
        limit: `${limit} per ${windowS} s per address`, retry_after_s: r.retryAfterS,
      }, { "retry-after": String(r.retryAfterS) }),
    };
  } catch {
    // A meter that is down must not lock everyone out of signing up.
    return { ok: true };
  }
}
