import type { Metadata } from "next";
import { SiteHeader } from "@/app/site-header";
import { ApiReference } from "./api-reference";

export const metadata: Metadata = {
  title: "API reference · PokéPrice API",
  description: "Every /v1 operation, its parameters, responses, error codes and credit cost, rendered from /v1/openapi.json.",
};

export default function DocsPage() {
  return (
    <div className="site docs-page">
      <SiteHeader current="docs" />
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
