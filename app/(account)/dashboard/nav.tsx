import Link from "next/link";
import { signOutAction } from "../auth-actions";

export type DashboardPage = "dashboard" | "usage" | "requests" | "centering" | "billing";

/** The header links of the signed-in pages: the dashboard, usage, the request log, the centering tool, billing, sign-out. */
export function DashboardNav({ current }: { current: DashboardPage }) {
  const here = (name: DashboardPage) => (current === name ? { "aria-current": "page" as const } : {});
  return (
    <>
      <Link href="/dashboard" {...here("dashboard")}>Dashboard</Link>
      <Link href="/dashboard/usage" {...here("usage")}>Usage</Link>
      <Link href="/dashboard/requests" {...here("requests")}>Requests</Link>
      <Link href="/dashboard/centering" {...here("centering")}>Centering</Link>
      <Link href="/dashboard/billing" {...here("billing")}>Billing</Link>
      <form action={signOutAction} className="nav-form">
        <button type="submit" className="link-button">Sign out</button>
      </form>
    </>
  );
}
