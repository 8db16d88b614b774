"use client";

import Link from "next/link";
import { useActionState } from "react";
import { confirmEmailAction, type FormState } from "../auth-actions";

const IDLE: FormState = { status: "idle" };

/** The confirmation link's form: the button confirms (then the page's confirmed state); an account registered with a password confirms with it. */
export function ConfirmForm({ token, email, hasPassword }: { token: string; email: string; hasPassword: boolean }) {
  const [state, action, pending] = useActionState(confirmEmailAction, IDLE);
  return (
    <>
      <h1>Confirm your email</h1>
      <p className="muted">
        Confirm <strong>{email}</strong> to unlock the full trial.
        {hasPassword ? " Enter the password you registered with: if you did not register this account, do not confirm it." : ""}
      </p>
      <form action={action} className="form">
        <input type="hidden" name="token" value={token} />
        {hasPassword && (
          <label>
            Password
            <input type="password" name="password" autoComplete="current-password" required maxLength={1000} />
          </label>
        )}
        {state.status === "error" && (
          <div className="notice error" role="alert">
            <p>{state.message}</p>
            {state.code === "WRONG_PASSWORD" && <p><Link href="/recover">Set a new password through recovery</Link>.</p>}
          </div>
        )}
        <button type="submit" className="button" disabled={pending}>{pending ? "Confirming…" : "Confirm my address"}</button>
      </form>
    </>
  );
}
