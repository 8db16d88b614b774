import type { Metadata } from "next";
import Link from "next/link";
import { ApiReference } from "./api-reference";

export const metadata: Metadata = {
  title: "API reference · PokéPrice API",
  description: "Every /v1 operation, its parameters, responses, error codes and credit cost, rendered from /v1/openapi.json.",
};

export default function DocsPage() {
  return (
    <div className="site docs-page">
      <header className="site-header">
        <Link href="/" className="brand">PokéPrice API</Link>
        <nav aria-label="Main">
          <Link href="/docs" aria-current="page">API reference</Link>
          <a href="/v1/openapi.json">OpenAPI</a>
          <Link href="/dashboard">Dashboard</Link>
          <Link href="/sign-in">Sign in</Link>
        </nav>
      </header>
      <main>
        <ApiReference specUrl="/v1/openapi.json" />
        <noscript>
          <p className="docs-loading">
            The reference needs JavaScript. The raw document is at <a href="/v1/openapi.json">/v1/openapi.json</a>.
          </p>
        </noscript>
      </main>
    </div>
  );
}
