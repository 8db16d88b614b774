import { toNextJsHandler } from "better-auth/next-js";
import { limitIp } from "@/lib/accounts/abuse";
import { errorResponse, requestId } from "@/lib/api/respond";
import { getAuth } from "@/lib/auth";

// better-auth's own endpoints (sign-in, sign-out, session, password reset) under /api/auth.
// The auth instance is built lazily (it needs the database handle), so the handler is a
// function of the request. Password guessing is limited per address before better-auth runs,
// and answered in the same envelope as the /v1 API's 429s.

async function handle(req: Request): Promise<Response> {
  if (req.method === "POST" && new URL(req.url).pathname.replace(/\/+$/, "").endsWith("/sign-in/email")) {
    const ip = await limitIp(req, "signin");
    if (!ip.ok) return errorResponse(ip.error, requestId(req));
  }
  return (await getAuth()).handler(req);
}

export const { GET, POST, PATCH, PUT, DELETE } = toNextJsHandler(handle);
