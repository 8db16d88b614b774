"use client";

import Link from "next/link";
import { useState, type FormEvent } from "react";

// Registration goes through the public API (POST /v1/accounts/register), so the page gets the
// same validation, per-address limits and error envelope as any client. Its answer is the same
// for a new and a known address; keys are made in the dashboard once the address is confirmed.

type Created = { email: string };
type Failure = { code: string; message: string };

const MIN_PASSWORD = 10;

export function SignUpForm({ devOutbox }: { devOutbox: boolean }) {
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [created, setCreated] = useState<Created | null>(null);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const email = String(form.get("email") ?? "").trim();
    const password = String(form.get("password") ?? "");
    const name = String(form.get("name") ?? "").trim();
    if (password.length < MIN_PASSWORD) {
      setFailure({ code: "INVALID_PARAMETER", message: `The password needs at least ${MIN_PASSWORD} characters.` });
      return;
    }
    setPending(true);
    setFailure(null);
    try {
      const res = await fetch("/v1/accounts/register", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(name ? { email, password, name } : { email, password }),
      });
      const body = await res.json().catch(() => null);
      if (res.status === 202 && body?.data?.email) {
        setCreated({ email: body.data.email });
      } else {
        setFailure({
          code: body?.error?.code ?? `HTTP_${res.status}`,
          message: body?.error?.message ?? `The server answered ${res.status}. Try again in a moment.`,
        });
      }
    } catch {
      setFailure({ code: "NETWORK", message: "The server could not be reached. Check your connection and try again." });
    } finally {
      setPending(false);
    }
  }

  if (created) {
    return (
      <div className="created" data-testid="signup-done">
        <div className="notice success" role="status">
          <h2>Check your mail</h2>
          <p>
            We sent a mail to <strong>{created.email}</strong>. Open its link to confirm the address, then sign in and
            create your API key in the dashboard: the trial has 800 credits over 30 days.
            {devOutbox && (
              <> No mail server is configured here: read the mail in the <Link href={`/dev/outbox?to=${encodeURIComponent(created.email)}`}>development outbox</Link>.</>
            )}
          </p>
          <p className="muted">If the address already had an account, the mail says so instead, and how to get back in.</p>
        </div>
        <p><Link href="/sign-in" className="button">Continue to sign in</Link></p>
      </div>
    );
  }

  return (
    <form onSubmit={submit} className="form">
      <label>
        Email
        <input type="email" name="email" autoComplete="email" required maxLength={320} />
      </label>
      <label>
        Password <span className="hint">at least {MIN_PASSWORD} characters</span>
        <input type="password" name="password" autoComplete="new-password" required minLength={MIN_PASSWORD} maxLength={128} />
      </label>
      <label>
        Name <span className="hint">optional</span>
        <input type="text" name="name" autoComplete="name" maxLength={100} />
      </label>
      {failure && (
        <div className="notice error" role="alert">
          <p>{failure.message}</p>
        </div>
      )}
      <button type="submit" className="button" disabled={pending}>{pending ? "Creating…" : "Create account"}</button>
    </form>
  );
}
