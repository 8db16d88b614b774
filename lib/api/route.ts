import type { z } from "zod";
import type { CostRule } from "@/lib/meter/costs";
import type { CachePolicy } from "./response-cache";
import type { ErrorCode } from "./errors";
import { allowHeader, fail, optionsResponse } from "./respond";
import type { Principal } from "./auth";
import { runRoute } from "./pipeline";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
export const METHODS: Method[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

export type Upload = { bytes: Buffer; contentType: string };

export type Ctx<Q, P, B> = {
  req: Request;
  /** The uploaded image of an `upload` route. */
  upload?: Upload;
  requestId: string;
  query: Q;
  params: P;
  body: B;
  principal: Principal;
  /** Absolute URL of this route with the given query, e.g. for links.next. */
  link: (query: Record<string, string | number | undefined>) => string;
};

export type Ok = {
  body: unknown;
  status?: number;
  headers?: Record<string, string>;
  /** Card ids the answer returned: the distinct-card allowance counts them. */
  cardIds?: string[];
  /** What the answer cost when less than the route's cost reserved; the rest is given back. */
  credits?: number;
  /** A file answer streamed as is (bulk downloads) instead of `body` as JSON. */
  file?: FileAnswer;
};

export type FileAnswer = { stream: ReadableStream<Uint8Array>; size: number; etag: string; contentType: string; filename: string };

type AnyObject = z.ZodType<Record<string, unknown>>;

export type RouteSpec<Q extends AnyObject = AnyObject, P extends AnyObject = AnyObject, B extends z.ZodType = z.ZodType> = {
  method: Method;
  /** Path under /v1, OpenAPI style: /cards/{id}. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  /** key: X-Api-Key or bearer; none: public; admin: operator token. */
  auth: "key" | "none" | "admin";
  query?: Q;
  /** Request headers the route reads (documented; validated like the query). */
  headers?: z.ZodObject;
  /** The liveness probe: whatever query a load balancer appends is ignored. */
  anyQuery?: boolean;
  params?: P;
  body?: B;
  /** A photo upload: multipart/form-data with the file in field `image` (CONTRACT.md §7), checked before the meter. */
  upload?: { maxBytes: number };
  /**
   * The handler reads the raw body itself (Stripe's webhook: its signature is over the bytes):
   * what the document says of the body and of the header that signs it.
   */
  rawBody?: { description: string; signedBy: { header: string; description: string } };
  response: z.ZodType;
  /** The success body's media type when it is not JSON (a streamed file). */
  responseContentType?: string;
  successStatus?: number;
  errors: ErrorCode[];
  cost: CostRule;
  cacheControl?: string;
  /** Catalogue answers carry a strong ETag and revalidate to 304 at no cost. */
  etag: boolean;
  /** Rendered answers may be reused until the policy's version moves (catalogue reads). */
  cache?: CachePolicy;
  handler: (ctx: Ctx<z.output<Q>, z.output<P>, z.output<B>>) => Promise<Ok>;
};

export function defineRoute<Q extends AnyObject, P extends AnyObject, B extends z.ZodType>(
  spec: RouteSpec<Q, P, B>,
): RouteSpec<Q, P, B> {
  return spec;
}

type NextContext = { params: Promise<Record<string, string | string[] | undefined>> };
type Handler = ((req: Request, ctx: NextContext) => Promise<Response>) & { spec?: RouteSpec };

/**
 * Mounts route specs as Next.js method exports. Methods the path does not serve answer
 * 405 in the error envelope with an Allow header, instead of Next's empty 405; OPTIONS
 * answers the CORS preflight. HEAD is Next's own: the GET handler without its body.
 */
/** 405 in the envelope with the path's Allow (`allow`: the methods its route serves, comma-separated). */
export function methodNotAllowed(req: Request, allow: string): Response {
  // The body names what the Allow header does (HEAD and OPTIONS included): one answer, not two.
  const header = allowHeader(allow);
  return fail(req, "METHOD_NOT_ALLOWED", `${req.method} is not allowed here. Allowed: ${header}.`, { allow: header.split(", ") }, { allow: header });
}

export function mount(specs: Partial<Record<Method, RouteSpec<any, any, any>>>): Record<Method | "OPTIONS", Handler> {
  const allow = METHODS.filter((m) => specs[m]).join(", ");
  const out = {} as Record<Method | "OPTIONS", Handler>;
  out.OPTIONS = async (req) => optionsResponse(req, allow);
  for (const m of METHODS) {
    const spec = specs[m];
    const h: Handler = spec
      // Routes without dynamic segments get no params object from Next.
      ? async (req, ctx) => runRoute(spec, req, (await ctx?.params) ?? {})
      : async (req) => methodNotAllowed(req, allow);
    if (spec) h.spec = spec;
    out[m] = h;
  }
  return out;
}
