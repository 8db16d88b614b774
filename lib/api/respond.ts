import { randomBytes } from "node:crypto";
import { toResponse, type Answer } from "./answer";
import { ApiError, type ErrorCode } from "./errors";

const JSON_TYPE = "application/json; charset=utf-8";

// Browsers may call the API from any origin with their own key; they may read every header
// a client needs to pace itself and to report a request.
const EXPOSED = [
  "ETag", "X-Request-Id", "X-Error-Code", "Retry-After", "RateLimit-Limit", "RateLimit-Policy", "RateLimit-Remaining",
  "RateLimit-Reset", "X-Quota-Limit", "X-Quota-Remaining", "X-Quota-Reset", "X-Credits-Cost", "X-Cards-Used",
  "X-Cards-Limit", "X-Cards-Warning", "X-Trial-Expires-At", "X-RateLimit-Degraded", "X-Plan-Withheld", "X-Cache",
].join(", ");
export const CORS: Record<string, string> = { "access-control-allow-origin": "*", "access-control-expose-headers": EXPOSED };

/**
 * CORS as a new object, to add an answer's headers to. A literal on purpose: in Node 20's V8,
 * an object made by spreading (`{ ...CORS, … }`) takes about a microsecond for every property
 * added to it afterwards, and an answer adds twenty.
 */
export const corsHeaders = (): Record<string, string> => ({ "access-control-allow-origin": "*", "access-control-expose-headers": EXPOSED });

/** Adds `extra`'s headers to `headers` under lowercase names, as a Headers object would keep them. */
export function addHeaders(headers: Record<string, string>, extra: Record<string, string> | undefined): Record<string, string> {
  if (extra) for (const name in extra) headers[name.toLowerCase()] = extra[name]!;
  return headers;
}

/** The Allow header of a path serving `methods` ("GET, POST"): HEAD comes with GET only, OPTIONS always. */
export const allowHeader = (methods: string) => `${methods}${methods.split(", ").includes("GET") ? ", HEAD" : ""}, OPTIONS`;

/** Answer to a CORS preflight or a plain OPTIONS: which methods the path serves. */
export function optionsResponse(req: Request, allow: string): Response {
  return new Response(null, {
    status: 204,
    headers: {
      ...CORS,
      allow: allowHeader(allow),
      "access-control-allow-methods": allowHeader(allow),
      "access-control-allow-headers": "X-Api-Key, Authorization, Content-Type, If-None-Match, Idempotency-Key, X-Request-Id",
      "access-control-max-age": "86400",
      "x-request-id": requestId(req),
    },
  });
}

/** An incoming X-Request-Id kept as the request's id (and published as the header's pattern). */
export const KEPT_REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/**
 * `req_`, the time in milliseconds (12 hex digits) and 48 random bits (12 more); an incoming
 * X-Request-Id of a sane shape is kept for tracing. Time first so that ids sort in the order
 * they were made: the request log's index on them then grows at its right end only instead of
 * at random places (lib/db/schema/usage.ts: a third of the bytes, about half the CPU a row).
 */
export function requestId(req: Request): string {
  const incoming = req.headers.get("x-request-id");
  return incoming && KEPT_REQUEST_ID.test(incoming) ? incoming : newRequestId();
}

/** A fresh request id (requestId's own shape), for an answer with no request to read one from. */
export function newRequestId(): string {
  if (idAt + 6 > idPool.length) {
    idPool = randomBytes(6 * 2048);
    idAt = 0;
  }
  return `req_${Date.now().toString(16).padStart(12, "0")}${idPool.toString("hex", idAt, (idAt += 6))}`;
}

// Random bytes for request ids, drawn 2048 ids at a time: one system call per request showed
// in the profile of a cached answer.
let idPool = Buffer.alloc(0);
let idAt = 0;

export function errorBody(err: ApiError, reqId: string): string {
  const error: Record<string, unknown> = { code: err.code, message: err.message, request_id: reqId };
  if (err.details && Object.keys(err.details).length) error.details = err.details;
  return JSON.stringify({ error });
}

/**
 * The SPEC.md envelope for an error; a 429 also names its code in X-Error-Code. Every refused
 * answer is refunded and says so (X-Credits-Cost: 0), keyed route or not, the router's own
 * 404 and 405 included (SPEC.md Errors).
 */
export function errorAnswer(err: ApiError, reqId: string, extra?: Record<string, string>): Answer {
  const headers = corsHeaders();
  headers["content-type"] = JSON_TYPE;
  headers["cache-control"] = "no-store";
  headers["x-request-id"] = reqId;
  headers["x-error-code"] = err.code;
  headers["x-credits-cost"] = "0";
  addHeaders(headers, err.headers);
  addHeaders(headers, extra);
  return { status: err.status, headers, body: errorBody(err, reqId) };
}

export function errorResponse(err: ApiError, reqId: string, extra: Record<string, string> = {}): Response {
  return toResponse(errorAnswer(err, reqId, extra));
}

export function jsonAnswer(body: string | Uint8Array, status: number, headers: Record<string, string>): Answer {
  headers["content-type"] = JSON_TYPE;
  return { status, headers, body };
}

/** The message and details of a path no route has: the same for an operator path asked without the token. */
export function noRouteText(req: Request): [string, { path: string }] {
  const path = new URL(req.url).pathname.replace(/^\/api\/v1/, "/v1");
  return [`No route ${req.method} ${path}. The API reference is at /v1/openapi.json.`, { path }];
}

/** Convenience for steps outside a route wrapper (catch-all, method guard). */
export function fail(req: Request, code: ErrorCode, message: string, details?: Record<string, unknown>, headers?: Record<string, string>): Response {
  return errorResponse(new ApiError(code, message, details, headers), requestId(req));
}
