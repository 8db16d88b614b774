import { isAPIError } from "better-auth/api";
import { env } from "@/lib/env";
import { limitIp } from "./abuse";
import { clearFailures, forgetAttempt, reserveAttempt } from "./queries/signin";

// Dashboard sign-in: limited per caller address, and per account: after SIGNIN_LOCKOUT failed
// attempts on one address within its window, that address's sign-in is refused for the rest of
// the window whatever the password, so spreading a guessing run over many networks gains
// nothing. Failures count per submitted address, existing or not, so the lock tells nothing.

export type SignInOutcome =
  | { ok: true }
  | { ok: false; code: "RATE_LIMITED" | "LOCKED" | "INVALID_EMAIL_OR_PASSWORD" | "EMAIL_NOT_VERIFIED" | "ERROR"; message: string };

function lockedFor(oldest: string | null, windowS: number): number {
  if (!oldest) return windowS;
  return Math.max(1, Math.ceil((Date.parse(oldest) + windowS * 1000 - Date.now()) / 1000));
}

function locked(retryS: number): SignInOutcome {
  const minutes = Math.ceil(retryS / 60);
  return {
    ok: false, code: "LOCKED",
    message: `Too many failed sign-ins for this address. Sign-in is locked for ${minutes} minute${minutes === 1 ? "" : "s"}; or set a new password through recovery.`,
  };
}

export async function signIn(req: Request, email: string, password: string, headers: Headers): Promise<SignInOutcome> {
  const ip = await limitIp(req, "signin");
  if (!ip.ok) return { ok: false, code: "RATE_LIMITED", message: ip.error.message };
  const { limit, windowS } = env().SIGNIN_LOCKOUT;
  const attempt = await reserveAttempt(email, limit, windowS);
  if (!attempt.ok) return locked(lockedFor(attempt.oldest, windowS));
  const { getAuth } = await import("@/lib/auth");
  try {
    await (await getAuth()).api.signInEmail({ body: { email, password }, headers });
  } catch (err) {
    const code = isAPIError(err) ? (err as { body?: { code?: string } }).body?.code : undefined;
    if (code !== "INVALID_EMAIL_OR_PASSWORD") await forgetAttempt(attempt.id);
    if (!isAPIError(err)) throw err;
    if (code === "EMAIL_NOT_VERIFIED") {
      return {
        ok: false, code,
        message: "Your email address is not confirmed yet. Open the link in the confirmation mail we sent when you signed up, then sign in.",
      };
    }
    if (code === "INVALID_EMAIL_OR_PASSWORD") {
      // The attempt written down before the check is this failure.
      if (attempt.before + 1 >= limit) return locked(windowS);
      return { ok: false, code, message: "That email and password do not match an account." };
    }
    return { ok: false, code: "ERROR", message: "Signing in failed. Try again in a moment." };
  }
  await clearFailures(email);
  return { ok: true };
}
