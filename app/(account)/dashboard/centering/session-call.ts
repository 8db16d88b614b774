import type { Principal } from "@/lib/api/auth";
import { readJson, readUpload } from "@/lib/api/body";
import { ApiError } from "@/lib/api/errors";
import { issueToError } from "@/lib/api/params";
import { toApiError } from "@/lib/api/pipeline";
import { errorResponse, requestId } from "@/lib/api/respond";
import type { RouteSpec } from "@/lib/api/route";
import { selectAccountByAuthUser } from "@/lib/accounts/queries/accounts";
import { getAuth } from "@/lib/auth";
import { gate } from "@/lib/meter/gate";
import { acquire, settle, type Lease } from "@/lib/meter/meter";
import { logCall, type Entry } from "@/lib/usage/log";
import { watchSettle, type Pending } from "@/lib/usage/record";

// A keyed /v1 route called by the signed-in person from the dashboard, without an API key: the
// session decides the account (nothing the browser sends names it). The call goes through the
// same plan gate, body bounds, meter and request log as a keyed call of the route, so the
// dashboard's centering costs what the API's does and shows in the request log (with no key).
//
// A cookie-authenticated POST must not be forgeable from another site: the request must come
// from this origin (Sec-Fetch-Site, else Origin) and carry X-Dashboard-Call, a header a cross-site
// form cannot send and cross-site script cannot send without a CORS preflight this never allows.

const json = (status: number, code: string, message: string) =>
  Response.json({ error: { code, message } }, { status, headers: { "cache-control": "no-store" } });

function sameOrigin(req: Request): boolean {
  if (req.headers.get("x-dashboard-call") !== "1") return false;
  const site = req.headers.get("sec-fetch-site");
  if (site) return site === "same-origin";
  const origin = req.headers.get("origin");
  const host = req.headers.get("host");
  if (!origin || !host) return false;
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}

export async function callAsSignedIn(req: Request, spec: RouteSpec<any, any, any>): Promise<Response> {
  const started = performance.now();
  if (!sameOrigin(req)) return json(403, "FORBIDDEN", "This endpoint answers the dashboard's own pages only.");
  const session = await (await getAuth()).api.getSession({ headers: req.headers });
  const account = session ? await selectAccountByAuthUser(session.user.id) : undefined;
  if (!account) return json(401, "SIGNED_OUT", "Your session has ended. Sign in again.");

  const reqId = requestId(req);
  let lease: Lease | undefined;
  let pending: Pending | undefined;
  const log = (status: number, errorCode: string | null) => {
    const p = pending;
    const entry: Entry = {
      accountId: account.id, at: Date.now(), keyId: null, method: spec.method, route: `/v1${spec.path}`, status, errorCode,
      credits: p?.credits ?? 0, refunded: p?.refunded ?? false, cardsAdded: p?.cardsAdded ?? 0,
      latency: Math.max(0, Math.round((performance.now() - started) * 10)), requestId: reqId, settled: p ? p.settled : true,
    };
    if (p && !p.settled) p.entry = entry;
    logCall(entry);
  };
  let meterHeaders: Record<string, string> = {};
  try {
    const input = { query: {}, params: {} };
    const cost = spec.cost.credits(input);
    const g = gate(account, spec.cost, cost);
    if (!g.ok) throw g.error;
    let body: unknown;
    if (spec.body) {
      const r = spec.body.safeParse(await readJson(req));
      if (!r.success) throw issueToError(r.error.issues[0]!, "body", []);
      body = r.data;
    }
    const upload = spec.upload ? await readUpload(req, spec.upload.maxBytes) : undefined;
    const acquired = await acquire(account, { route: spec.operationId, cost, feature: g.feature });
    if (!acquired.ok) {
      meterHeaders = acquired.error.code === "PLAN_REQUIRED" ? {} : acquired.headers;
      throw acquired.error;
    }
    lease = acquired.lease;
    pending = watchSettle(lease);
    // The handler of a centering route reads neither the key nor the principal's key id.
    const principal: Principal = { kind: "account", keyId: "", account };
    const result = await spec.handler({ req, requestId: reqId, query: {}, params: {}, body, upload, principal, link: () => "" });
    const status = result.status ?? spec.successStatus ?? 200;
    const settled = await settle(lease, status, result.cardIds, result.credits);
    if (!settled.ok) {
      // The meter has settled it already (a refusal such as the card allowance): not again.
      lease = undefined;
      meterHeaders = settled.headers;
      throw settled.error;
    }
    log(status, null);
    return Response.json(result.body, { status, headers: { ...settled.headers, "x-request-id": reqId, "cache-control": "no-store" } });
  } catch (err) {
    const error = err instanceof ApiError ? err : toApiError(err, reqId);
    if (lease) {
      const s = await settle(lease, error.status).catch(() => undefined);
      if (s) meterHeaders = s.headers;
    }
    log(error.status, error.code);
    return errorResponse(error, reqId, { "x-credits-cost": "0", ...meterHeaders });
  }
}
