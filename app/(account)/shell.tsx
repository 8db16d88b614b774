import Link from "next/link";
import type { ReactNode } from "react";

// The site header and footer of the landing page, around an account page.

type Props = {
  children: ReactNode;
  /** Right side of the header; by default the links to the dashboard and sign-in. */
  nav?: ReactNode;
  current?: "sign-in" | "sign-up" | "dashboard" | "outbox";
  wide?: boolean;
};

export function Shell({ children, nav, current, wide }: Props) {
  const here = (name: Props["current"]) => (current === name ? { "aria-current": "page" as const } : {});
  return (
    <div className="site">
      <header className="site-header">
        <Link href="/" className="brand">PokéPrice API</Link>
        <nav aria-label="Main">
          <a href="/docs">API reference</a>
          {nav ?? (
            <>
              <Link href="/dashboard" {...here("dashboard")}>Dashboard</Link>
              <Link href="/sign-in" {...here("sign-in")}>Sign in</Link>
            </>
          )}
        </nav>
      </header>
      <main className={wide ? "account wide" : "account"}>{children}</main>
      <footer className="site-footer">
        <p>
          <a href="/docs">API reference</a> · <a href="/v1/openapi.json">/v1/openapi.json</a> ·{" "}
          <a href="/v1/status">Status</a>
        </p>
      </footer>
    </div>
  );
}
