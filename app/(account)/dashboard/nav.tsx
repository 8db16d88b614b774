import Link from "next/link";
import { signOutAction } from "../auth-actions";

/** The header links of the signed-in pages: the dashboard, its centering tool, billing, sign-out. */
export function DashboardNav({ current }: { current: "dashboard" | "centering" | "billing" }) {
  const here = (name: typeof current) => (current === name ? { "aria-current": "page" as const } : {});
  return (
    <>
      <Link href="/dashboard" {...here("dashboard")}>Dashboard</Link>
      <Link href="/dashboard/centering" {...here("centering")}>Centering</Link>
      <Link href="/dashboard/billing" {...here("billing")}>Billing</Link>
      <form action={signOutAction} className="nav-form">
        <button type="submit" className="link-button">Sign out</button>
      </form>
    </>
  );
}
