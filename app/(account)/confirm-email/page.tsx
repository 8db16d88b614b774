import type { Metadata } from "next";
import Link from "next/link";
import { inspectConfirmation } from "@/lib/accounts/confirm";
import { Shell } from "../shell";
import { ConfirmForm } from "./confirm-form";

// The token in the address must not reach other sites (no Referer to them), but this page's own
// form must say where it comes from: with "no-referrer" a form posted without script carries
// Origin: null, which the server refuses as another origin's.
export const metadata: Metadata = { title: "Confirm your email · PokéPrice API", referrer: "same-origin" };
export const dynamic = "force-dynamic";

type Props = { searchParams: Promise<{ token?: string | string[]; confirmed?: string | string[] }> };

const TOKEN_RE = /^[0-9A-Za-z]{20,100}$/;

export default async function ConfirmEmailPage({ searchParams }: Props) {
  const sp = await searchParams;
  if (sp.confirmed === "person" || sp.confirmed === "script") return <Confirmed person={sp.confirmed === "person"} />;
  const raw = sp.token;
  const token = typeof raw === "string" ? raw : "";
  // Opening the link confirms nothing: its form does (a mail scanner's fetch of the link must
  // not), with the account's password when it was registered with one (lib/accounts/confirm.ts).
  const outcome = TOKEN_RE.test(token) ? await inspectConfirmation(token) : ({ ok: false, reason: "invalid" } as const);

  return (
    <Shell>
      <section className="panel narrow" data-testid="confirm-outcome" data-outcome={outcome.ok ? "pending" : outcome.reason}>
        {outcome.ok ? (
          <ConfirmForm token={token} email={outcome.account.email} hasPassword={!!outcome.account.authUserId} />
        ) : outcome.reason === "expired" ? (
          <>
            <h1>This link has expired</h1>
            <div className="notice warn" role="alert">
              <p>Confirmation links work for 48 hours. Ask for a new one:</p>
            </div>
            <ul className="steps">
              <li>Sign in with your password: the sign-in page offers to send the link again.</li>
              <li>From a script: <code>POST /v1/accounts/confirmation</code> with your key.</li>
              <li>Or <Link href="/recover">set a password through recovery</Link>: that confirms the address too.</li>
            </ul>
          </>
        ) : outcome.reason === "used" ? (
          <>
            <h1>This link was already used</h1>
            <div className="notice" role="status">
              <p>Each confirmation link works once. If you opened it before, your address is confirmed already.</p>
            </div>
            <p><Link href="/sign-in" className="button">Sign in</Link></p>
          </>
        ) : (
          <>
            <h1>This link is not valid</h1>
            <div className="notice error" role="alert">
              <p>
                The confirmation link is incomplete or unknown. Open it straight from the mail, or copy the whole
                address into the browser.
              </p>
            </div>
            <p className="muted">
              Need a new one? <Link href="/sign-in">Sign in</Link> to send it again, or call{" "}
              <code>POST /v1/accounts/confirmation</code> with your key.
            </p>
          </>
        )}
      </section>
    </Shell>
  );
}

/** Where the form lands once it confirmed: the link is used by then, so this page says so itself. */
function Confirmed({ person }: { person: boolean }) {
  return (
    <Shell>
      <section className="panel narrow" data-testid="confirm-outcome" data-outcome="confirmed">
        <h1>Email confirmed</h1>
        <div className="notice success" role="status">
          <p>
            Your address is confirmed. The full trial is unlocked: 800 credits over 30 days, photo identification and
            centering calls. Your key works as before.
          </p>
        </div>
        {person ? (
          <p><Link href="/sign-in" className="button">Sign in to the dashboard</Link></p>
        ) : (
          <p>
            This account was created from a script and has no password. To use the dashboard,{" "}
            <Link href="/recover">set a password through recovery</Link>.
          </p>
        )}
      </section>
    </Shell>
  );
}
