"use client";

import { useActionState } from "react";
import { recoverAction, type FormState } from "../auth-actions";

const IDLE: FormState = { status: "idle" };

export function RecoverForm() {
  const [state, action, pending] = useActionState(recoverAction, IDLE);
  if (state.status === "done") {
    return (
      <div className="notice success" role="status">
        <h2>Check your mail</h2>
        <p>{state.message}</p>
      </div>
    );
  }
  return (
    <form action={action} className="form" noValidate>
      <label>
        Email
        <input type="email" name="email" autoComplete="email" required defaultValue={state.status === "error" ? state.email : ""} />
      </label>
      {state.status === "error" && <div className="notice error" role="alert"><p>{state.message}</p></div>}
      <button type="submit" className="button" disabled={pending}>{pending ? "Sending…" : "Send the link"}</button>
    </form>
  );
}
