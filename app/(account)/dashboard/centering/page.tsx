import type { Metadata } from "next";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { getAuth } from "@/lib/auth";
import { Shell } from "../../shell";
import { DashboardNav } from "../nav";
import { CenteringTool } from "./centering-tool";

export const metadata: Metadata = { title: "Centering · PokéPrice API", robots: { index: false, follow: false } };
export const dynamic = "force-dynamic";

// The centering tool of the dashboard: a photo measured through the API for the signed-in
// account (no key to paste), its lines drawn over the card for a person to move, then confirmed.
export default async function CenteringPage() {
  const session = await (await getAuth()).api.getSession({ headers: await headers() });
  if (!session) redirect("/sign-in");
  return (
    <Shell nav={<DashboardNav current="centering" />} wide>
      <div className="page-head">
        <div>
          <h1>Centering</h1>
          <p className="muted">
            Measure a scan or a photo of one card face, move the lines where the card&apos;s edges and its frame really are, and
            confirm: each grading house&apos;s best grade for that centering. Calls go through the API for your account (no key
            needed here), cost what the <a href="/docs">reference</a> says (measure 25 credits, confirm 5) and show in your{" "}
            <a href="/dashboard/requests?route=%2Fv1%2Fcentering%2Fmeasure">request log</a>.
          </p>
        </div>
      </div>
      <CenteringTool />
    </Shell>
  );
}
