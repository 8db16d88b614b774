import { SiteHeader } from "@/app/site-header";
import type { ReactNode } from "react";
import "./browse.css";

// Pages for collectors: search the catalogue and follow a card's prices, without a key.

export default function BrowseLayout({ children }: { children: ReactNode }) {
  return (
    <div className="site">
      <SiteHeader current="cards" />
      <main className="browse">{children}</main>
    </div>
  );
}
