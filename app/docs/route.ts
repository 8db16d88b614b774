import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { routeSpecs } from "@/app/api/v1/routes";
import { ERRORS } from "@/lib/api/errors";
import { buildOpenApi } from "@/lib/api/openapi";
import { env } from "@/lib/env";
import { referenceView } from "./openapi-view";
import { documentHtml } from "./render";

// GET /docs: the API reference, one HTML document rendered on the server from the same OpenAPI
// document GET /v1/openapi.json serves (generated in process from the route specs, not fetched).
// No script at all: it reads without JavaScript and paints with the first response. A route
// handler rather than a page, because a React page would repeat the whole reference as its inline
// RSC payload (835 KB instead of about 250 KB). Built once per process.

export const dynamic = "force-dynamic";

const TITLE = "API reference · PokéPrice API";
const DESCRIPTION = "Every /v1 operation, its parameters, responses, error codes and credit cost, rendered from /v1/openapi.json.";
const MEANINGS: Record<string, string> = Object.fromEntries(Object.entries(ERRORS).map(([code, [, meaning]]) => [code, meaning]));

let page: { body: string; etag: string } | undefined;

/** The site's stylesheet (header, colours) and the reference's own, inlined: one request paints. */
function stylesheet(): string {
  // Literal paths, so the build traces exactly these two files.
  const site = readFileSync(path.join(process.cwd(), "app", "globals.css"), "utf8");
  const docs = readFileSync(path.join(process.cwd(), "app", "docs", "docs.css"), "utf8");
  return `${site}\n${docs}`;
}

function build(): { body: string; etag: string } {
  const document = buildOpenApi(routeSpecs(), { version: env().APP_VERSION });
  const body = documentHtml(referenceView(document, MEANINGS), { title: TITLE, description: DESCRIPTION, css: stylesheet() });
  return { body, etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 22)}"` };
}

export function GET(request: Request): Response {
  // The site header is a next/link, so Next's router prefetches /docs as an RSC payload. This is no
  // React page: a short non-RSC answer makes the router open it as a document, without downloading it twice.
  if (request.headers.get("rsc") === "1") return new Response(null, { status: 204, headers: { vary: "rsc", "cache-control": "no-store" } });
  page ??= build();
  const headers = { "content-type": "text/html; charset=utf-8", "cache-control": "no-cache", etag: page.etag, vary: "rsc" };
  if (request.headers.get("if-none-match") === page.etag) return new Response(null, { status: 304, headers });
  return new Response(page.body, { headers });
}
