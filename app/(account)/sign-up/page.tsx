import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { Shell } from "../shell";
import { SignUpForm } from "./sign-up-form";

export const metadata: Metadata = { title: "Create an account · PokéPrice API" };

export default async function SignUpPage() {
  // Read at request time: whether mail leaves the machine or stays in the development outbox.
  await connection();
  return (
    <Shell current="sign-up">
      <section className="panel narrow">
        <h1>Create an account</h1>
        <p className="muted">
          A trial key at once: 50 credits until you confirm your address, then 800 credits over 30 days. No card.
        </p>
        <SignUpForm devOutbox={!process.env.SMTP_URL} />
        <p className="below-form muted">
          Already have an account? <Link href="/sign-in">Sign in</Link>. Scripts can get a key without a password
          through <code>POST /v1/accounts/free</code>.
        </p>
      </section>
    </Shell>
  );
}
