import { NextResponse, type NextRequest } from "next/server";
import { fail } from "@/lib/api/respond";

// Next.js answers a path with broken percent-encoding (/v1/cards/%E0%A4%A) with a plain-text
// 500 before any route runs. Such paths are caught here and answered in the error envelope.
// And app/api/v1 holds the route modules, which Next would also serve at /api/v1/*: a second
// API under the pages' headers (their weaker content policy) and outside the servers' /v1
// dispatch. The API is /v1 alone.
export function proxy(request: NextRequest) {
  const path = request.nextUrl.pathname;
  if (path === "/api/v1" || path.startsWith("/api/v1/")) {
    return fail(request, "NOT_FOUND", `No route ${request.method} ${path}. The API is at /v1: ${path.replace(/^\/api/, "")}.`);
  }
  try {
    decodeURIComponent(request.nextUrl.pathname);
    return NextResponse.next();
  } catch {
    return fail(request, "INVALID_PARAMETER", "The path is not valid percent-encoded UTF-8.", { parameter: "path" });
  }
}

// Only paths that carry a percent sign can be broken this way; the rest never pay for a proxy.
export const config = { matcher: ["/v1/:rest(.*%.*)", "/api/v1", "/api/v1/:rest*"] };
