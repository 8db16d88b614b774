"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

// The header of the public pages (landing, reference, collector pages): one list of links, the
// current section marked for assistive technology (from the path, so one layout serves all the
// collector pages). A section is one entry of NAV: add a line there for a new one.
// app/docs/render.ts repeats these links for the static reference.

type Item = { section: string; href: string; label: string; plain?: boolean };

const NAV: Item[] = [
  { section: "cards", href: "/cards", label: "Cards" },
  { section: "sets", href: "/sets", label: "Sets" },
  { section: "series", href: "/series", label: "Series" },
  { section: "movers", href: "/movers", label: "Movers" },
  { section: "sealed", href: "/sealed", label: "Sealed" },
  { section: "artists", href: "/artists", label: "Artists" },
  { section: "collection", href: "/collection", label: "Collection" },
  // Plain links: the reference is a whole document of its own, not a prefetched page.
  { section: "docs", href: "/docs", label: "API reference", plain: true },
  { section: "openapi", href: "/v1/openapi.json", label: "OpenAPI", plain: true },
  { section: "dashboard", href: "/dashboard", label: "Dashboard" },
  { section: "sign-in", href: "/sign-in", label: "Sign in" },
];

const sectionOf = (path: string | null) => NAV.find((i) => path === i.href || path?.startsWith(`${i.href}/`))?.section;

export function SiteHeader({ current }: { current?: string }) {
  const here = sectionOf(usePathname()) ?? current;
  return (
    <header className="site-header">
      <Link href="/" className="brand">PokéPrice API</Link>
      <nav aria-label="Main">
        {NAV.map((i) => {
          const mark = i.section === here ? "page" : undefined;
          return i.plain
            ? <a key={i.href} href={i.href} aria-current={mark}>{i.label}</a>
            : <Link key={i.href} href={i.href} aria-current={mark}>{i.label}</Link>;
        })}
      </nav>
    </header>
  );
}
