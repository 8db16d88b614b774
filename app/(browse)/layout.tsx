import Link from "next/link";
import type { ReactNode } from "react";
import "./browse.css";

// Pages for collectors: search the catalogue and follow a card's prices, without a key.

export default function BrowseLayout({ children }: { children: ReactNode }) {
  return (
    <div className="site">
      <header className="site-header">
        <Link href="/" className="brand">PokéPrice API</Link>
        <nav aria-label="Main">
          <Link href="/cards">Cards</Link>
          <Link href="/docs">API reference</Link>
          <Link href="/dashboard">Dashboard</Link>
        </nav>
      </header>
      <main className="browse">{children}</main>
    </div>
  );
}
