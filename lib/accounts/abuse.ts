import { ApiError } from "@/lib/api/errors";
import { clientIp, onThisMachine } from "@/lib/api/client-ip";
import { env, type Rate } from "@/lib/env";
import { meterDriver } from "@/lib/meter/driver";

// Limits on what anyone may call without a key: per caller address (script signup,
// registration, dashboard sign-in, the pages that mail a link, card images), and per
// recipient (an address or an account gets only so many mails of one kind). Fixed windows in
// the meter's own store (Redis, or in process). The values come from the environment
// (lib/env.ts), so a trusted partner or a test run can be given other ones.

export type IpBucket = "signup" | "register" | "signin" | "mail" | "images";

const IP_RATES: Record<IpBucket, () => Rate> = {
  signup: () => env().RATE_LIMIT_SIGNUP,
  register: () => env().RATE_LIMIT_REGISTER,
  signin: () => env().RATE_LIMIT_SIGNIN,
  mail: () => env().RATE_LIMIT_MAIL,
  images: () => env().RATE_LIMIT_IMAGES,
};

export type LimitOutcome = { ok: true } | { ok: false; error: ApiError; retryAfterS: number };

/** One hit on a fixed window; a meter that is down lets the call through (it must not lock everyone out). */
async function hit(key: string, rate: Rate, what: string): Promise<LimitOutcome> {
  try {
    const r = await (await meterDriver()).hit(key, rate.limit, rate.windowS);
    if (r.allowed) return { ok: true };
    return {
      ok: false,
      retryAfterS: r.retryAfterS,
      error: new ApiError("RATE_LIMITED", `Too many ${what}. Retry after ${r.retryAfterS} s.`, {
        limit: `${rate.limit} per ${rate.windowS} s`, retry_after_s: r.retryAfterS,
      }, { "retry-after": String(r.retryAfterS) }),
    };
  } catch {
    return { ok: true };
  }
}

export type IpOutcome = LimitOutcome;

/**
 * Accounts made from this very machine (onThisMachine: a local test suite making one per test)
 * are not counted; from anywhere else, every address is.
 */
const OWNER_UNCOUNTED: ReadonlySet<IpBucket> = new Set(["signup", "register"]);
const UNCOUNTED: LimitOutcome = { ok: true };

export function limitIp(req: Request, bucket: IpBucket): Promise<LimitOutcome> {
  if (OWNER_UNCOUNTED.has(bucket) && onThisMachine(req)) return Promise.resolve(UNCOUNTED);
  return hit(`ip:${bucket}:${clientIp(req)}`, IP_RATES[bucket](), `${bucket} attempts from this address`);
}

/**
 * Mail of one kind to one recipient: counted per address and per account, so neither a script
 * nor a form can make the service mail someone over and over.
 */
export async function limitMail(kind: string, to: { email: string; accountId?: string }): Promise<LimitOutcome> {
  const rate = env().RATE_LIMIT_MAIL_RECIPIENT;
  const byAddress = await hit(`mail:${kind}:addr:${to.email.toLowerCase()}`, rate, `'${kind}' mails to this address`);
  if (!byAddress.ok || !to.accountId) return byAddress;
  return hit(`mail:${kind}:acct:${to.accountId}`, rate, `'${kind}' mails for this account`);
}
