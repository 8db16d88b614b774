import { NextResponse, type NextRequest } from "next/server";
import { fail } from "@/lib/api/respond";
import { decoded, hasNul } from "@/lib/util/text";

// Next.js answers a path with broken percent-encoding (/v1/cards/%E0%A4%A) with a plain-text
// 500 before any route runs, and the pages look up what their address names in PostgreSQL,
// whose text cannot hold U+0000 (/cards/%00, /cards?set=%00 were 500s). Such addresses are
// caught here: the API's in the error envelope, the pages' as a plain 400.
// And app/api/v1 holds the route modules, which Next would also serve at /api/v1/*: a second
// API under the pages' headers (their weaker content policy) and outside the servers' /v1
// dispatch. The API is /v1 alone.
export function proxy(request: NextRequest) {
  const path = request.nextUrl.pathname;
  if (path === "/api/v1" || path.startsWith("/api/v1/")) {
    return fail(request, "NOT_FOUND", `No route ${request.method} ${path}. The API is at /v1: ${path.replace(/^\/api/, "")}.`);
  }
  const text = decoded(path);
  if (path === "/v1" || path.startsWith("/v1/")) {
    return text === null ? fail(request, "INVALID_PARAMETER", "The path is not valid percent-encoded UTF-8.", { parameter: "path" }) : NextResponse.next();
  }
  // URLSearchParams decodes leniently (a broken escape stays as it is): only a NUL is refused there.
  const params = [...request.nextUrl.searchParams];
  if (text === null || hasNul(text) || params.some(([k, v]) => hasNul(k) || hasNul(v))) {
    return badPage("this address is not valid percent-encoded UTF-8 text, or holds a NUL character");
  }
  // The pages read each parameter once: a repeated one reached them as an array (/cards?q=a&q=b was a 500).
  const seen = new Set<string>();
  const twice = params.find(([k]) => seen.has(k) || !seen.add(k));
  return twice ? badPage(`the parameter '${twice[0]}' is given more than once`) : NextResponse.next();
}

const badPage = (why: string) =>
  new NextResponse(`Bad request: ${why}.\n`, { status: 400, headers: { "content-type": "text/plain; charset=utf-8" } });

// The API's paths only when they carry a percent sign (only those can be broken), so the rest
// never pay for a proxy; every page's address, whose query reaches the database as well; not
// Next's own assets.
export const config = { matcher: ["/v1/:rest(.*%.*)", "/api/v1", "/api/v1/:rest*", "/((?!_next/|v1/|v1$|api/v1).*)"] };
