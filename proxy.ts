import { NextResponse, type NextRequest } from "next/server";
import { fail } from "@/lib/api/respond";

// Next.js answers a path with broken percent-encoding (/v1/cards/%E0%A4%A) with a plain-text
// 500 before any route runs. Such paths are caught here and answered in the error envelope.
export function proxy(request: NextRequest) {
  try {
    decodeURIComponent(request.nextUrl.pathname);
    return NextResponse.next();
  } catch {
    return fail(request, "INVALID_PARAMETER", "The path is not valid percent-encoded UTF-8.", { parameter: "path" });
  }
}

// Only paths that carry a percent sign can be broken this way; the rest never pay for a proxy.
export const config = { matcher: ["/v1/:rest(.*%.*)", "/api/v1/:rest(.*%.*)"] };
