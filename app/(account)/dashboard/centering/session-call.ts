import { runRoute } from "@/lib/api/pipeline";
import type { RouteSpec } from "@/lib/api/route";
import { requestAccount, sameOrigin } from "@/lib/auth/request";

// A keyed /v1 route called by the signed-in person from the dashboard, without an API key: the
// session decides the account (nothing the browser sends names it). The call then runs through
// the API's own pipeline (plan gate, body bounds, meter, request log) with that account in place
// of a key, so the dashboard's centering costs what the API's does and shows in the request log
// (with no key).
//
// A cookie-authenticated POST must not be forgeable from another site: the request must come
// from this origin (Sec-Fetch-Site, else Origin) and carry X-Dashboard-Call, a header a cross-site
// form cannot send and cross-site script cannot send without a CORS preflight this never allows.

const json = (status: number, code: string, message: string) =>
  Response.json({ error: { code, message } }, { status, headers: { "cache-control": "no-store" } });

export async function callAsSignedIn(req: Request, spec: RouteSpec<any, any, any>): Promise<Response> {
  if (req.headers.get("x-dashboard-call") !== "1" || !sameOrigin(req)) return json(403, "FORBIDDEN", "This endpoint answers the dashboard's own pages only.");
  const account = await requestAccount(req);
  if (!account) return json(401, "SIGNED_OUT", "Your session has ended. Sign in again.");
  // keyId "": no key made the call (the request log stores none).
  return runRoute(spec, req, {}, { kind: "account", keyId: "", account });
}
