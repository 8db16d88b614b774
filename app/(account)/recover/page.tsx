import type { Metadata } from "next";
import Link from "next/link";
import { Shell } from "../shell";
import { RecoverForm } from "./recover-form";

export const metadata: Metadata = { title: "Recover access · PokéPrice API" };

export default function RecoverPage() {
  return (
    <Shell>
      <section className="panel narrow">
        <h1>Recover access</h1>
        <p className="muted">
          Forgot your password, or created your key from a script? We mail a link to set a password for the
          dashboard. Your keys keep working meanwhile.
        </p>
        <RecoverForm />
        <p className="below-form muted">
          Remembered it? <Link href="/sign-in">Sign in</Link>.
        </p>
      </section>
    </Shell>
  );
}
