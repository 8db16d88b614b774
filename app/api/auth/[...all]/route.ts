import { fail } from "@/lib/api/respond";
import { getAuth } from "@/lib/auth";

// better-auth's HTTP endpoints under /api/auth, reduced to what a browser session needs: read
// the session, end it. Sign-up, sign-in, password reset and verification happen only through
// the app's own flows (POST /v1/accounts/register, the sign-in form, the recovery mail), which
// decide who may hold a password; better-auth's own versions of them would bypass that.

const EXPOSED = new Set(["GET /get-session", "POST /sign-out"]);

async function handle(req: Request): Promise<Response> {
  const path = new URL(req.url).pathname.replace(/^\/api\/auth/, "").replace(/\/+$/, "");
  if (!EXPOSED.has(`${req.method} ${path}`)) return fail(req, "NOT_FOUND", `No route ${req.method} /api/auth${path}.`);
  const res = await (await getAuth()).handler(req);
  return path === "/get-session" ? withoutToken(res) : res;
}

/**
 * The session as a page's script may see it: without its token, which the HttpOnly cookie keeps
 * from scripts (better-auth's answer repeats it, and any script on the page could carry it off).
 */
async function withoutToken(res: Response): Promise<Response> {
  if (!res.ok || !(res.headers.get("content-type") ?? "").includes("json")) return res;
  const body = (await res.json()) as { session?: { token?: unknown } } | null;
  if (body?.session) delete body.session.token;
  const headers = new Headers(res.headers);
  headers.delete("content-length");
  return new Response(JSON.stringify(body), { status: res.status, headers });
}

export { handle as GET, handle as POST, handle as PUT, handle as PATCH, handle as DELETE };
