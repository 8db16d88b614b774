"use server";

import { isAPIError } from "better-auth/api";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { limitIp } from "@/lib/accounts/abuse";
import { sendConfirmation } from "@/lib/accounts/confirm";
import { selectAccountByEmail } from "@/lib/accounts/queries/accounts";
import { ensureDashboardUser } from "@/lib/accounts/signup";
import { getAuth } from "@/lib/auth";
import { currentOrigin, currentRequest, EMAIL_RE, formString, mailedRecently } from "./server";

// Sign-in, sign-out, the confirmation link again, and password recovery. Whether an address
// has an account is never revealed: the mailing actions answer the same in every case.

export type FormState =
  | { status: "idle" }
  | { status: "error"; code: string; message: string; email?: string }
  | { status: "done"; message: string; email?: string };

const MIN_PASSWORD = 10;

function apiCode(err: unknown): string | undefined {
  if (!isAPIError(err)) return undefined;
  const body = (err as { body?: { code?: string } }).body;
  return body?.code ?? String((err as { status?: unknown }).status ?? "ERROR");
}

export async function signInAction(_prev: FormState, form: FormData): Promise<FormState> {
  const email = formString(form, "email", 320).trim().toLowerCase();
  const password = formString(form, "password", 1000);
  if (!EMAIL_RE.test(email) || !password) {
    return { status: "error", code: "INVALID_PARAMETER", message: "Enter your email address and your password.", email };
  }
  const ip = await limitIp(await currentRequest(), "signin");
  if (!ip.ok) return { status: "error", code: "RATE_LIMITED", message: ip.error.message, email };
  const h = await headers();
  try {
    await (await getAuth()).api.signInEmail({ body: { email, password }, headers: h });
  } catch (err) {
    const code = apiCode(err);
    if (!code) throw err;
    if (code === "EMAIL_NOT_VERIFIED") {
      return {
        status: "error", code, email,
        message: "Your email address is not confirmed yet. Open the link in the confirmation mail we sent when you signed up, then sign in.",
      };
    }
    if (code === "INVALID_EMAIL_OR_PASSWORD") {
      return { status: "error", code, email, message: "That email and password do not match an account." };
    }
    return { status: "error", code, email, message: "Signing in failed. Try again in a moment." };
  }
  redirect("/dashboard");
}

export async function signOutAction(): Promise<void> {
  const h = await headers();
  try {
    await (await getAuth()).api.signOut({ headers: h });
  } catch {
    // No session left to end: signed out either way.
  }
  redirect("/sign-in");
}

/** The confirmation link again, by address (the API's own route needs a key). */
export async function resendConfirmationAction(_prev: FormState, form: FormData): Promise<FormState> {
  const email = formString(form, "email", 320).trim().toLowerCase();
  if (!EMAIL_RE.test(email)) return { status: "error", code: "INVALID_PARAMETER", message: "Enter a valid email address.", email };
  const ip = await limitIp(await currentRequest(), "mail");
  if (!ip.ok) return { status: "error", code: "RATE_LIMITED", message: ip.error.message, email };
  const account = await selectAccountByEmail(email);
  if (account && !account.emailConfirmedAt && !(await mailedRecently(account.email, "confirm_email"))) {
    await sendConfirmation(account, await currentOrigin());
  }
  return {
    status: "done", email,
    message: `If an account exists for ${email} and is not confirmed yet, we sent a new confirmation link. Check your mail.`,
  };
}

/**
 * Recovery: a reset link to the address of an account. Accounts created by a script have no
 * dashboard user yet: one is made first, so the link sets their first password.
 */
export async function recoverAction(_prev: FormState, form: FormData): Promise<FormState> {
  const email = formString(form, "email", 320).trim().toLowerCase();
  if (!EMAIL_RE.test(email)) return { status: "error", code: "INVALID_PARAMETER", message: "Enter a valid email address.", email };
  const ip = await limitIp(await currentRequest(), "mail");
  if (!ip.ok) return { status: "error", code: "RATE_LIMITED", message: ip.error.message, email };
  try {
    const account = await selectAccountByEmail(email);
    if (account && !(await mailedRecently(account.email, "reset_password"))) {
      await ensureDashboardUser(account);
      await (await getAuth()).api.requestPasswordReset({ body: { email: account.email, redirectTo: `${await currentOrigin()}/reset-password` } });
    }
  } catch (err) {
    // Logged, not shown: the answer must not tell whether the address has an account.
    console.error(`[recover] ${err instanceof Error ? err.message : String(err)}`);
  }
  return {
    status: "done", email,
    message: `If an account exists for ${email}, we sent a link to set a new password. It works once and expires in one hour.`,
  };
}

export async function resetPasswordAction(_prev: FormState, form: FormData): Promise<FormState> {
  const token = formString(form, "token", 300);
  const password = formString(form, "password", 1000);
  const again = formString(form, "confirm", 1000);
  if (!token) return { status: "error", code: "INVALID_TOKEN", message: "This page needs the link from the recovery mail." };
  if (password.length < MIN_PASSWORD) {
    return { status: "error", code: "PASSWORD_TOO_SHORT", message: `The password needs at least ${MIN_PASSWORD} characters.` };
  }
  if (password !== again) return { status: "error", code: "PASSWORD_MISMATCH", message: "The two passwords differ." };
  try {
    await (await getAuth()).api.resetPassword({ body: { token, newPassword: password } });
  } catch (err) {
    const code = apiCode(err);
    if (!code) throw err;
    if (code === "INVALID_TOKEN") {
      return { status: "error", code, message: "This link is not valid any more: it was used already or it expired. Ask for a new one." };
    }
    if (code === "PASSWORD_TOO_LONG") return { status: "error", code, message: "That password is too long." };
    if (code === "PASSWORD_TOO_SHORT") return { status: "error", code, message: `The password needs at least ${MIN_PASSWORD} characters.` };
    return { status: "error", code, message: "Setting the password failed. Try again in a moment." };
  }
  return { status: "done", message: "Your password is set and your email address counts as confirmed. Sign in with the new password." };
}
