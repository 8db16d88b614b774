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
  return (await getAuth()).handler(req);
}

export { handle as GET, handle as POST, handle as PUT, handle as PATCH, handle as DELETE };
