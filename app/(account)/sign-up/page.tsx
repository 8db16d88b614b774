import type { Metadata } from "next";
import Link from "next/link";
import { outboxAccess } from "@/lib/mail/dev-outbox";
import { currentRequest } from "../server";
import { Shell } from "../shell";
import { SignUpForm } from "./sign-up-form";

export const metadata: Metadata = { title: "Create an account · PokéPrice API" };

export default async function SignUpPage() {
  // Read at request time: whether this caller may read the development outbox.
  const devOutbox = outboxAccess(await currentRequest()) !== "closed";
  return (
    <Shell current="sign-up">
      <section className="panel narrow">
        <h1>Create an account</h1>
        <p className="muted">
          Confirm your address, then sign in and create API keys: the trial has 800 credits over 30 days. No card.
        </p>
        <SignUpForm devOutbox={devOutbox} />
        <p className="below-form muted">
          Already have an account? <Link href="/sign-in">Sign in</Link>. Scripts can get a key without a password
          through <code>POST /v1/accounts/free</code>.
        </p>
      </section>
    </Shell>
  );
}
