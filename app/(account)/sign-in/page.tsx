import type { Metadata } from "next";
import { headers } from "next/headers";
import Link from "next/link";
import { redirect } from "next/navigation";
import { getAuth } from "@/lib/auth";
import { Shell } from "../shell";
import { SignInForm } from "./sign-in-form";

export const metadata: Metadata = { title: "Sign in · PokéPrice API" };
export const dynamic = "force-dynamic";

export default async function SignInPage() {
  // Headers first: the page is dynamic, so `next build` never opens the database for it.
  const h = await headers();
  if (await (await getAuth()).api.getSession({ headers: h })) redirect("/dashboard");
  return (
    <Shell current="sign-in">
      <section className="panel narrow">
        <h1>Sign in</h1>
        <p className="muted">Your plan, usage and API keys are in the dashboard.</p>
        <SignInForm />
        <p className="below-form">
          <Link href="/recover">Forgot the password, or created the key from a script?</Link>
        </p>
        <p className="below-form muted">
          No account yet? <Link href="/sign-up">Create one</Link>: a trial key with 800 credits, no card.
        </p>
      </section>
    </Shell>
  );
}
