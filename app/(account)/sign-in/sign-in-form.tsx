"use client";

import Link from "next/link";
import { useActionState } from "react";
import { resendConfirmationAction, signInAction, type FormState } from "../auth-actions";

const IDLE: FormState = { status: "idle" };

export function SignInForm() {
  const [state, action, pending] = useActionState(signInAction, IDLE);
  const email = state.status !== "idle" ? state.email ?? "" : "";
  return (
    <>
      <form action={action} className="form" noValidate>
        <label>
          Email
          <input type="email" name="email" autoComplete="email" required defaultValue={email} key={email} />
        </label>
        <label>
          Password
          <input type="password" name="password" autoComplete="current-password" required />
        </label>
        {state.status === "error" && (
          <div className="notice error" role="alert">
            <p>{state.message}</p>
            {state.code === "INVALID_EMAIL_OR_PASSWORD" && (
              <p>
                Created your key with <code>POST /v1/accounts/free</code>? That account has no password yet:{" "}
                <Link href="/recover">set one through recovery</Link>.
              </p>
            )}
          </div>
        )}
        <button type="submit" className="button" disabled={pending}>{pending ? "Signing in…" : "Sign in"}</button>
      </form>
      {state.status === "error" && state.code === "EMAIL_NOT_VERIFIED" && <ResendConfirmation email={state.email ?? ""} />}
    </>
  );
}

function ResendConfirmation({ email }: { email: string }) {
  const [state, action, pending] = useActionState(resendConfirmationAction, IDLE);
  return (
    <form action={action} className="form resend">
      <input type="hidden" name="email" value={email} />
      {state.status === "idle" && <p className="muted">Lost the mail, or the link expired?</p>}
      {state.status !== "idle" && (
        <div className={`notice ${state.status === "done" ? "success" : "error"}`} role="status">
          <p>{state.message}</p>
        </div>
      )}
      <button type="submit" className="button secondary" disabled={pending || state.status === "done"}>
        {pending ? "Sending…" : "Send the confirmation link again"}
      </button>
    </form>
  );
}
