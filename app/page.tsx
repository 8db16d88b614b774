import { SiteHeader } from "@/app/site-header";

// The landing page: what the API is, one request to try, and where the reference lives.
// A server component with no client JavaScript.

const EXAMPLE = `curl -H "X-Api-Key: $KEY" "$BASE/v1/cards?q=name:charizard&limit=5"`;

export default function Home() {
  return (
    <div className="site">
      <SiteHeader />

      <main className="landing">
        <section className="hero">
          <h1>The Pokémon card catalogue and its prices, as a JSON API</h1>
          <p className="lede">
            About 39,000 cards in 548 sets, Japanese and Chinese sets included, plus sealed products and
            prices from several sources. Metered in credits, with a free trial key you can create from a script.
          </p>
          <p className="actions">
            <a href="/docs" className="button">Read the API reference</a>
            <a href="/v1/openapi.json" className="button secondary">OpenAPI 3.1 document</a>
          </p>
        </section>

        <section aria-labelledby="try-it">
          <h2 id="try-it">Try it</h2>
          <p>
            Search the catalogue with the <code>q</code> filter. Set <code>$BASE</code> to this site&apos;s address
            and <code>$KEY</code> to your API key:
          </p>
          <pre className="example"><code>{EXAMPLE}</code></pre>
          <p className="muted">
            Lists page by an opaque cursor: follow <code>links.next</code> until it is absent. Errors always
            answer with the same envelope, <code>{"{error: {code, message, request_id}}"}</code>.
          </p>
        </section>

        <section aria-labelledby="what" className="features">
          <h2 id="what" className="visually-hidden">What the API serves</h2>
          <article>
            <h3>Catalogue</h3>
            <p>
              Cards, sets, series, artists and sealed products. Western, Japanese, Chinese and Korean prints,
              with names in up to thirteen languages. A Lucene-style <code>q</code> filter, field selection,
              and an append-only change feed for mirrors.
            </p>
          </article>
          <article>
            <h3>Prices</h3>
            <p>
              Current quotes per card and per sealed product from several third-party sources, each labelled with
              its source, plus a composite index in EUR computed by the service. Price history, stats and movers.
            </p>
          </article>
          <article>
            <h3>Metered in credits</h3>
            <p>
              Each operation lists its credit cost in the reference; a few, such as the status, are free. Errors
              and <code>304</code> revalidations cost nothing, and metered answers report their cost and your
              rate limits in headers.
            </p>
          </article>
          <article>
            <h3>Free trial key</h3>
            <p>
              <code>POST /v1/accounts/free</code> with an email address and an <code>Idempotency-Key</code> header
              returns a key that works at once, with 50 credits until the address is confirmed. Confirming it
              unlocks the full trial: 800 credits over 30 days, no card needed.
            </p>
          </article>
        </section>
      </main>

      <footer className="site-footer">
        <p>
          <a href="/docs">API reference</a> · <a href="/v1/openapi.json">/v1/openapi.json</a> ·{" "}
          <a href="/v1/status">Status</a>
        </p>
      </footer>
    </div>
  );
}
