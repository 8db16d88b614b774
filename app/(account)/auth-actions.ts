"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { limitIp, limitMail } from "@/lib/accounts/abuse";
import { awaitsConfirmation, confirmEmail, sendConfirmation } from "@/lib/accounts/confirm";
import { selectAccountByEmail } from "@/lib/accounts/queries/accounts";
import { completeRecovery, requestRecovery } from "@/lib/accounts/recovery";
import { signIn } from "@/lib/accounts/signin";
import { getAuth, MIN_PASSWORD } from "@/lib/auth";
import { formText } from "@/lib/util/text";
import { currentRequest, EMAIL_RE } from "./server";

// Sign-in, sign-out, the confirmation link again, and password recovery. Whether an address
// has an account is never revealed: the mailing actions answer the same in every case.

export type FormState =
  | { status: "idle" }
  | { status: "error"; code: string; message: string; email?: string }
  | { status: "done"; message: string; email?: string };

export async function signInAction(_prev: FormState, form: FormData): Promise<FormState> {
  const email = formText(form, "email", 320).trim().toLowerCase();
  const password = formText(form, "password", 1000);
  if (!EMAIL_RE.test(email) || !password) {
    return { status: "error", code: "INVALID_PARAMETER", message: "Enter your email address and your password.", email };
  }
  const outcome = await signIn(await currentRequest(), email, password, await headers());
  if (!outcome.ok) return { status: "error", code: outcome.code, message: outcome.message, email };
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
  const email = formText(form, "email", 320).trim().toLowerCase();
  if (!EMAIL_RE.test(email)) return { status: "error", code: "INVALID_PARAMETER", message: "Enter a valid email address.", email };
  const ip = await limitIp(await currentRequest(), "mail");
  if (!ip.ok) return { status: "error", code: "RATE_LIMITED", message: ip.error.message, email };
  const account = await selectAccountByEmail(email);
  if (account && (await awaitsConfirmation(account)) && (await limitMail("confirm_email", { email: account.email, accountId: account.id })).ok) {
    await sendConfirmation(account);
  }
  return {
    status: "done", email,
    message: `If an account exists for ${email} and is not confirmed yet, we sent a new confirmation link. Check your mail.`,
  };
}

const CONFIRM_ERRORS = {
  invalid: "This link is not valid: open it straight from the mail.",
  expired: "This link has expired: sign in to have it sent again.",
  used: "This link was already used. If you opened it before, your address is confirmed already.",
  wrong_password: "That is not the password this account was registered with. If you did not register it, ignore the mail; if you forgot it, set a new one through recovery.",
} as const;

/**
 * The confirmation link's form: only this confirms (never the link's GET, which a mail scanner
 * may fetch), and an account registered with a password confirms with that password.
 */
export async function confirmEmailAction(_prev: FormState, form: FormData): Promise<FormState> {
  const token = formText(form, "token", 300);
  const password = form.has("password") ? formText(form, "password", 1000) : undefined;
  if (password === "") return { status: "error", code: "INVALID_PARAMETER", message: "Enter the password you registered with." };
  const outcome = await confirmEmail(token, { password });
  if (!outcome.ok) return { status: "error", code: outcome.reason.toUpperCase(), message: CONFIRM_ERRORS[outcome.reason] };
  // To the page's confirmed state: without script the page is rendered again after the form,
  // and its link is used by then.
  redirect(`/confirm-email?confirmed=${outcome.account.authUserId ? "person" : "script"}`);
}

/** Recovery: a link to set a password, mailed to the address if it has an account. */
export async function recoverAction(_prev: FormState, form: FormData): Promise<FormState> {
  const email = formText(form, "email", 320).trim().toLowerCase();
  if (!EMAIL_RE.test(email)) return { status: "error", code: "INVALID_PARAMETER", message: "Enter a valid email address.", email };
  const ip = await limitIp(await currentRequest(), "mail");
  if (!ip.ok) return { status: "error", code: "RATE_LIMITED", message: ip.error.message, email };
  try {
    await requestRecovery(email);
  } catch (err) {
    // Logged, not shown: the answer must not tell whether the address has an account.
    console.error(`[recover] ${err instanceof Error ? err.message : String(err)}`);
  }
  return {
    status: "done", email,
    message: `If an account exists for ${email}, we sent a link to set a new password. It works once and expires in one hour.`,
  };
}

const RECOVERY_ERRORS = {
  invalid: "This link is not valid: open it straight from the mail, or ask for a new one.",
  expired: "This link is not valid any more: it expired. Ask for a new one.",
  used: "This link is not valid any more: it was used already. Ask for a new one if you still need it.",
  password_too_short: `The password needs at least ${MIN_PASSWORD} characters.`,
  password_too_long: "That password is too long (at most 128 characters).",
} as const;

export async function resetPasswordAction(_prev: FormState, form: FormData): Promise<FormState> {
  const token = formText(form, "token", 300);
  const password = formText(form, "password", 1000);
  const again = formText(form, "confirm", 1000);
  if (!token) return { status: "error", code: "INVALID_TOKEN", message: "This page needs the link from the recovery mail." };
  if (password !== again) return { status: "error", code: "PASSWORD_MISMATCH", message: "The two passwords differ." };
  const outcome = await completeRecovery(token, password);
  if (!outcome.ok) {
    const code = outcome.reason.startsWith("password") ? outcome.reason.toUpperCase() : "INVALID_TOKEN";
    return { status: "error", code, message: RECOVERY_ERRORS[outcome.reason] };
  }
  return { status: "done", message: "Your password is set and your email address counts as confirmed. Sign in with the new password." };
}
