import Link from "next/link";

// The header of the public pages (landing, reference, collector pages): one list of links, the
// current section marked for assistive technology.

type Section = "cards" | "docs";

export function SiteHeader({ current }: { current?: Section }) {
  const here = (s: Section) => (s === current ? "page" : undefined);
  return (
    <header className="site-header">
      <Link href="/" className="brand">PokéPrice API</Link>
      <nav aria-label="Main">
        <Link href="/cards" aria-current={here("cards")}>Cards</Link>
        {/* A plain link: the reference is a whole document of its own, not a prefetched page. */}
        <a href="/docs" aria-current={here("docs")}>API reference</a>
        <a href="/v1/openapi.json">OpenAPI</a>
        <Link href="/dashboard">Dashboard</Link>
        <Link href="/sign-in">Sign in</Link>
      </nav>
    </header>
  );
}
