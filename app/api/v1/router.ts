import type { RouteSpec } from "@/lib/api/route";
import { fail } from "@/lib/api/respond";
import * as fallback from "./[[...path]]/route";
import { ROUTE_MODULES } from "./routes";

// The /v1 routes without Next's router: the same modules and exports, matched the way Next
// matches them (static segments before parameters). The lean server and the in-process
// tests dispatch through this.

type Handler = (req: Request, ctx: { params: Promise<Record<string, string> | undefined> }) => Promise<Response>;
type Entry = { regex: RegExp; names: string[]; mod: Record<string, unknown>; statics: number };

const table: Entry[] = [];
for (const mod of ROUTE_MODULES) {
  const spec = Object.values(mod).map((h) => (h as { spec?: RouteSpec })?.spec).find(Boolean);
  if (!spec) continue;
  const names: string[] = [];
  const pattern = spec.path.replace(/[.]/g, "\\.").replace(/\{(\w+)\}/g, (_, n: string) => {
    names.push(n);
    return "([^/]+)";
  });
  table.push({ regex: new RegExp(`^/v1${pattern}$`), names, mod, statics: spec.path.split("/").filter((s) => s && !s.startsWith("{")).length });
}
table.sort((a, b) => b.statics - a.statics);

export async function dispatch(req: Request): Promise<Response> {
  const url = new URL(req.url);
  for (const e of table) {
    const m = e.regex.exec(url.pathname);
    if (!m) continue;
    let params: Record<string, string>;
    try {
      params = Object.fromEntries(e.names.map((n, i) => [n, decodeURIComponent(m[i + 1]!)]));
    } catch {
      return fail(req, "INVALID_PARAMETER", "The path is not valid percent-encoded UTF-8.", { parameter: "path" });
    }
    const handler = e.mod[req.method === "HEAD" ? "GET" : req.method] as Handler | undefined;
    if (!handler) return fail(req, "METHOD_NOT_ALLOWED", `${req.method} is not allowed here.`);
    // As in Next, a route without dynamic segments gets no params object at all.
    const res = await handler(req, { params: Promise.resolve(e.names.length ? params : undefined) });
    return req.method === "HEAD" ? new Response(null, { status: res.status, headers: res.headers }) : res;
  }
  const handler = (fallback as Record<string, unknown>)[req.method] as ((r: Request) => Promise<Response>) | undefined;
  return handler ? handler(req) : fail(req, "METHOD_NOT_ALLOWED", `${req.method} is not allowed here.`);
}
