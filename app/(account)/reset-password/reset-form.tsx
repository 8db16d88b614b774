"use client";

import Link from "next/link";
import { useActionState } from "react";
import { resetPasswordAction, type FormState } from "../auth-actions";

const IDLE: FormState = { status: "idle" };
const MIN_PASSWORD = 10;

export function ResetForm({ token }: { token: string }) {
  const [state, action, pending] = useActionState(resetPasswordAction, IDLE);
  if (state.status === "done") {
    return (
      <div className="notice success" role="status">
        <h2>Password set</h2>
        <p>{state.message}</p>
        <p><Link href="/sign-in" className="button">Sign in</Link></p>
      </div>
    );
  }
  return (
    <form action={action} className="form">
      <input type="hidden" name="token" value={token} />
      <label>
        New password <span className="hint">at least {MIN_PASSWORD} characters</span>
        <input type="password" name="password" autoComplete="new-password" required minLength={MIN_PASSWORD} maxLength={128} />
      </label>
      <label>
        The same again
        <input type="password" name="confirm" autoComplete="new-password" required minLength={MIN_PASSWORD} maxLength={128} />
      </label>
      {state.status === "error" && (
        <div className="notice error" role="alert">
          <p>{state.message}</p>
          {state.code === "INVALID_TOKEN" && <p><Link href="/recover">Ask for a new link</Link>.</p>}
        </div>
      )}
      <button type="submit" className="button" disabled={pending}>{pending ? "Saving…" : "Set password"}</button>
    </form>
  );
}
