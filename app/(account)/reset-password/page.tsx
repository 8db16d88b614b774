import type { Metadata } from "next";
import Link from "next/link";
import { Shell } from "../shell";
import { ResetForm } from "./reset-form";

// The token in the address must not reach other sites (no Referer to them), but this page's own
// form must say where it comes from: with "no-referrer" a form posted without script carries
// Origin: null, which the server refuses as another origin's.
export const metadata: Metadata = { title: "Set a password · PokéPrice API", referrer: "same-origin" };

type Props = { searchParams: Promise<{ token?: string | string[] }> };

export default async function ResetPasswordPage({ searchParams }: Props) {
  const raw = (await searchParams).token;
  const token = typeof raw === "string" ? raw.slice(0, 300) : "";
  return (
    <Shell>
      <section className="panel narrow">
        <h1>Set a password</h1>
        {token ? (
          <>
            <p className="muted">Choose the password for the dashboard. The link works once.</p>
            <ResetForm token={token} />
          </>
        ) : (
          <div className="notice error" role="alert">
            <p>This page opens from the link in a recovery mail. <Link href="/recover">Ask for one</Link>.</p>
          </div>
        )}
      </section>
    </Shell>
  );
}
