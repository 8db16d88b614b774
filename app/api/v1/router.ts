import { fromResponse, toResponse, type Answer } from "@/lib/api/answer";
import { urlOf } from "@/lib/api/context";
import { answerRoute } from "@/lib/api/pipeline";
import { METHODS, methodNotAllowed, type RouteSpec } from "@/lib/api/route";
import { allowHeader, fail } from "@/lib/api/respond";
import { hiddenRoute, isOperator, presentedAccount, trialHeaderOf } from "@/lib/api/auth";
import { logAnswer } from "@/lib/usage/record";
import * as fallback from "./[[...path]]/route";
import { ROUTE_MODULES } from "./routes";

// The /v1 routes without Next's router: the same modules and exports, matched the way Next
// matches them (static segments before parameters). The lean server and the in-process
// tests dispatch through this.

type Handler = ((req: Request, ctx: { params: Promise<Record<string, string> | undefined> }) => Promise<Response>) & { spec?: RouteSpec };
/** `admin`: an operator path, which does not exist for anyone without the token (CONTRACT.md §6). */
type Entry = { regex: RegExp; names: string[]; mod: Record<string, unknown>; statics: number; first: string; admin: boolean; path: string };

const table: Entry[] = [];
for (const mod of ROUTE_MODULES) {
  const spec = Object.values(mod).map((h) => (h as { spec?: RouteSpec })?.spec).find(Boolean);
  if (!spec) continue;
  const names: string[] = [];
  const pattern = spec.path.replace(/[.]/g, "\\.").replace(/\{(\w+)\}/g, (_, n: string) => {
    names.push(n);
    return "([^/]+)";
  });
  const first = spec.path.split("/")[1]!;
  if (!first || first.includes("{")) throw new Error(`${spec.path}: a route's first segment must be static`);
  table.push({
    regex: new RegExp(`^/v1${pattern}$`), names, mod, statics: spec.path.split("/").filter((s) => s && !s.startsWith("{")).length, first,
    admin: spec.auth === "admin", path: spec.path,
  });
}
table.sort((a, b) => b.statics - a.statics);

// A path is tried only against the routes of its first segment (every route's is static), in
// the table's order: the same first match as trying them all.
const byFirst = new Map<string, Entry[]>();
for (const e of table) byFirst.set(e.first, [...(byFirst.get(e.first) ?? []), e]);
const NONE: Entry[] = [];
function candidates(pathname: string): Entry[] {
  if (!pathname.startsWith("/v1/")) return NONE;
  const end = pathname.indexOf("/", 4);
  return byFirst.get(pathname.slice(4, end < 0 ? undefined : end)) ?? NONE;
}

export async function dispatch(req: Request): Promise<Response> {
  return toResponse(await answer(req));
}

/**
 * dispatch's answer before it is a Response: the app's servers write it to the socket as it
 * is (server/http.ts). Pipeline routes answer through answerRoute; the rest (OPTIONS, 405s, the
 * catch-all) are Responses made as Next would call them.
 */
export async function answer(req: Request): Promise<Answer> {
  const pathname = urlOf(req).pathname;
  for (const e of candidates(pathname)) {
    const m = e.regex.exec(pathname);
    if (!m) continue;
    const params: Record<string, string> = {};
    try {
      for (let i = 0; i < e.names.length; i++) params[e.names[i]!] = decodeURIComponent(m[i + 1]!);
    } catch {
      return outside(req, fail(req, "INVALID_PARAMETER", "The path is not valid percent-encoded UTF-8.", { parameter: "path" }));
    }
    const handler = e.mod[req.method === "HEAD" ? "GET" : req.method] as Handler | undefined;
    // Without the token an operator path is one that does not exist, in every way: the same 404
    // (never a 405 or a preflight's Allow), X-Trial-Expires-At for a trial key, and the owner's
    // request log naming the path asked, not the route's template.
    if (e.admin && !isOperator(req)) return headless(req, await outside(req, hiddenRoute(req)));
    // As in Next, a route without dynamic segments gets no params object at all. A method no
    // export serves (TRACE, a made-up one) is the module's 405.
    const res = handler?.spec
      ? await answerRoute(handler.spec, req, e.names.length ? params : {})
      : await outside(req, handler ? handler(req, { params: Promise.resolve(e.names.length ? params : undefined) }) : methodNotAllowed(req, served(e.mod)), e.path);
    return headless(req, res);
  }
  // No route has this path: 404 whatever the method (CONTRACT.md §8), HEAD and OPTIONS included.
  return headless(req, await outside(req, fallback.GET(req)));
}

/**
 * The Allow header of a /v1 path: what its route serves; null when no route has the path;
 * undefined outside /v1 (for the servers' answers to methods node's parser refuses). An
 * operator path is a path like any other only with the token, which such a request is not read for.
 */
export function allowOf(pathname: string): string | null | undefined {
  if (pathname !== "/v1" && !pathname.startsWith("/v1/")) return undefined;
  const e = candidates(pathname).find((c) => c.regex.test(pathname));
  if (!e || e.admin) return null;
  return allowHeader(served(e.mod));
}

/** The methods a route module serves, comma-separated, as mount lists them. */
const served = (mod: Record<string, unknown>) => METHODS.filter((m) => (mod[m] as Handler | undefined)?.spec).join(", ");

/** A HEAD answer: its GET's status and headers, without the body. */
function headless(req: Request, res: Answer): Answer {
  if (req.method !== "HEAD") return res;
  if (res.body instanceof ReadableStream) void res.body.cancel();
  res.body = null;
  return res;
}


/**
 * An answer made outside the pipeline (a module's OPTIONS or 405, the catch-all's 404, a broken
 * path), with X-Trial-Expires-At for a trial key: SPEC.md has every response on one carry it.
 * Every /v1 request of every server passes here, so this is the one place that adds it. A
 * refusal of a key's call is in its owner's request log too, under its route's template when a
 * route has the path (`template`, as the pipeline logs it), else the path it asked for: the
 * owner finds it by the request id of the error answer.
 */
async function outside(req: Request, res: Response | Promise<Response>, template?: string): Promise<Answer> {
  const started = performance.now();
  const [r, principal] = await Promise.all([res, presentedAccount(req)]);
  const trial = trialHeaderOf(principal);
  if (trial) for (const name in trial) r.headers.set(name, trial[name]!);
  if (principal && r.status >= 400) {
    logAnswer({
      principal, method: req.method, path: template ?? urlOf(req).pathname.slice(3, 203), requestId: r.headers.get("x-request-id") ?? "", started,
      status: r.status, errorCode: r.headers.get("x-error-code"),
    });
  }
  return fromResponse(r);
}
