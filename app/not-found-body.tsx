import type { Metadata } from "next";

// What a page address that leads nowhere says, inside whatever chrome its place has: the root's
// not-found.tsx draws the site's header around it, the collector pages' layout draws its own.

export const NOT_FOUND_METADATA: Metadata = { title: "Not found · PokéPrice API" };

export function NotFoundBody() {
  return (
    <section>
      <h1>Nothing here</h1>
      <p className="lede">
        No page, card or set has this address. The link may be old, or a card id mistyped.
      </p>
      <p className="actions">
        <a href="/cards" className="button">Search the cards</a>
        <a href="/sets" className="button secondary">Browse the sets</a>
        <a href="/docs" className="button secondary">API reference</a>
      </p>
    </section>
  );
}
