import { ServerResponse, type IncomingHttpHeaders, type IncomingMessage, type OutgoingHttpHeaders, type Server } from "node:http";
import type { Socket } from "node:net";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { Answer } from "@/lib/api/answer";
import { CLIENT_IP_HEADER, resolveClientIp, trustClientIpHeader } from "@/lib/api/client-ip";
import { knownUrl } from "@/lib/api/context";
import { ApiError, type ErrorCode } from "@/lib/api/errors";
import { OPERATOR_TOKEN_MIN, operatorToken } from "@/lib/api/operator-token";
import { errorAnswer, newRequestId } from "@/lib/api/respond";
import { env } from "@/lib/env";

// What the app's servers (server/app.ts, server/lean.ts) share: the caller's address from the
// socket, node:http ⇄ the API's requests and answers, the checks before listening, and the shutdown
// that loses nothing.

/** /v1 and /v1/…, but not /v1foo: exactly the paths of the public API. */
export const isApiPath = (url: string) => url === "/v1" || url.startsWith("/v1/") || url.startsWith("/v1?");

const HOST = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/**
 * Why the request line's target or Host cannot be answered, or undefined. The fetch Request's
 * URL is `http://<Host><target>`, so a Host holding `/`, `?` or `#` chose the route in place of
 * the request line (`Host: x/v1/keys#` turned a public route into key creation): a Host must be
 * a name or address with an optional port. An absolute-form target (a client talking as to a
 * proxy) is taken in origin form, with its own host (RFC 9112 §3.2.2); any other form (`*`) is
 * refused. HTTP/1.0 may leave Host out.
 */
export function badTarget(req: IncomingMessage, fallbackHost: string): string | undefined {
  let url = req.url ?? "/";
  if (/^https?:\/\//i.test(url)) {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      return "The request target is not a valid URL.";
    }
    req.url = url = u.pathname + u.search;
    req.headers.host = u.host;
  }
  if (!url.startsWith("/")) return "The request target must be a path.";
  const host = req.headers.host;
  if (host === undefined && req.httpVersion === "1.0") req.headers.host = fallbackHost;
  else if (!host) return "A Host header is required.";
  else if (!HOST.test(host)) return "The Host header must be a host name or address with an optional port.";
  return undefined;
}

/** Answers a request badTarget refused: 400 in the envelope. */
export function refuseTarget(res: ServerResponse, why: string, security: Readonly<Record<string, string>>): Promise<void> | undefined {
  return sendAnswer(res, errorAnswer(new ApiError("INVALID_PARAMETER", why, { parameter: "request-target" }), newRequestId()), security);
}

/**
 * The caller's address, written into CLIENT_IP_HEADER after removing whatever the client sent
 * under that name: the rest of the app reads only this (lib/api/client-ip.ts).
 */
export function stampClientIp(req: IncomingMessage): string {
  const hops = env().TRUST_PROXY;
  // Null once the connection is gone (a client that gave up): the address is then unknown.
  const socket = req.socket as Socket | null;
  let ip = hops > 0 || !socket ? undefined : socketIps.get(socket);
  if (ip === undefined) {
    ip = resolveClientIp(socket?.remoteAddress, req.headers["x-forwarded-for"] as string | undefined, hops);
    // Without trusted proxies the address is the socket's: worked out once per connection.
    if (hops === 0 && socket) socketIps.set(socket, ip);
  }
  req.headers[CLIENT_IP_HEADER] = ip;
  return ip;
}
const socketIps = new WeakMap<Socket, string>();

// Pages run Next's inline bootstrap scripts and the reference's inline styles; everything else
// comes from this origin. No page may be framed (clickjacking of the dashboard's buttons).
const PAGE_CSP = [
  "default-src 'self'", "script-src 'self' 'unsafe-inline'", "style-src 'self' 'unsafe-inline'", "img-src 'self' data: blob:",
  "font-src 'self' data:", "connect-src 'self'", "object-src 'none'", "base-uri 'self'", "form-action 'self'", "frame-ancestors 'none'",
].join("; ");
const API_CSP = "default-src 'none'; frame-ancestors 'none'";

const API_SECURITY: Record<string, string> = {
  "content-security-policy": API_CSP, "x-content-type-options": "nosniff", "x-frame-options": "DENY", "referrer-policy": "strict-origin-when-cross-origin",
};
const HSTS = { "strict-transport-security": "max-age=31536000; includeSubDomains" };
const API_SECURITY_HTTPS = { ...API_SECURITY, ...HSTS };

/** Next's default limit on a server action's body (serverActions.bodySizeLimit). */
const ACTION_BODY_LIMIT = 1024 * 1024;

/**
 * A page's form posted in a way Next would refuse with a 500 and a digest: from another origin
 * than the host it was sent to (Next's own check: Origin's host against X-Forwarded-Host, else
 * Host), whether a server action posted by script (a Next-Action header) or the same form sent
 * without script; or a server action declaring a body over Next's limit. Refused here instead,
 * in the error envelope, before Next reads it.
 */
export function actionRefusal(req: IncomingMessage): ApiError | undefined {
  if (req.method !== "POST") return undefined;
  const origin = req.headers.origin;
  if (origin !== undefined) {
    const forwarded = req.headers["x-forwarded-host"];
    const host = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(",")[0]?.trim() || req.headers.host;
    let from: string | undefined;
    try {
      from = new URL(origin).host;
    } catch {
      from = undefined;
    }
    if (!from || from !== host) return new ApiError("FORBIDDEN_ORIGIN", "This form can only be sent from the site's own pages.");
  }
  // Next holds a page's form (a server action, posted by script or without) to its limit, and
  // answers a 500 past it. The app's own route handlers (/api/…) read their bodies themselves.
  if ((req.url ?? "/").startsWith("/api/")) return undefined;
  if (Number(req.headers["content-length"] ?? 0) > ACTION_BODY_LIMIT) {
    return new ApiError("PAYLOAD_TOO_LARGE", `A form's body may be at most ${ACTION_BODY_LIMIT} bytes.`, { max_bytes: ACTION_BODY_LIMIT });
  }
  // Sent in chunks, its length is known only once read: the site's forms always state it.
  if (req.headers["content-length"] === undefined && req.headers["transfer-encoding"] !== undefined) {
    return new ApiError("LENGTH_REQUIRED", "A form's body must state its Content-Length: the site's own forms always do.");
  }
  return undefined;
}

/** Headers every answer carries, pages and API alike; HSTS only where the client came over https. Read only. */
export function securityHeaders(req: IncomingMessage, api: boolean, dev = false): Readonly<Record<string, string>> {
  const https = (req.socket as { encrypted?: boolean } | null)?.encrypted
    || (env().TRUST_PROXY > 0 && String(req.headers["x-forwarded-proto"] ?? "").split(",")[0]?.trim() === "https");
  if (api) return https ? API_SECURITY_HTTPS : API_SECURITY;
  const page = { ...API_SECURITY, "content-security-policy": dev ? PAGE_CSP.replace("'unsafe-inline'", "'unsafe-inline' 'unsafe-eval'") : PAGE_CSP };
  return https ? { ...page, ...HSTS } : page;
}

/** The security headers set on a response that something else writes (Next's pages, a server's own error). */
export function setSecurityHeaders(req: IncomingMessage, res: ServerResponse, api: boolean, dev = false): void {
  for (const [name, value] of Object.entries(securityHeaders(req, api, dev))) res.setHeader(name, value);
}

/**
 * A fetch Request over the node request; its body streams (routes bound what they read). A GET
 * or HEAD, which has no body, gets a light stand-in (NodeRequest): undici's Request with its
 * Headers and AbortSignal was 3 to 4 % of a cached card answer's CPU in its profile.
 */
const BODILESS = new Set(["GET", "HEAD", "TRACE", "TRACK"]);

export function toWebRequest(req: IncomingMessage, fallbackHost: string): Request {
  const url = `http://${req.headers.host ?? fallbackHost}${req.url ?? "/"}`;
  // TRACE and TRACK too: fetch's Request refuses to hold them (it throws); the router answers them 405.
  if (BODILESS.has(req.method ?? "")) return new NodeRequest(req.method!, url, req.headers) as unknown as Request;
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (Array.isArray(v)) for (const x of v) headers.append(k, x);
    else if (v !== undefined) headers.set(k, v);
  }
  return new Request(url, {
    method: req.method,
    headers,
    body: bodyOf(req),
    duplex: "half",
  } as RequestInit);
}

/** Requests whose body's rest is read and dropped: their answer is decided. */
const dropping = new WeakSet<IncomingMessage>();

/**
 * The request's body as a web stream, pulled as it is read. Unlike Readable.toWeb, cancelling it
 * (a body past its limit) does not destroy the request, which would close the socket under the
 * answer about to be written: the rest of the body is read and dropped instead (dropRestOf).
 */
function bodyOf(req: IncomingMessage): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(c) {
      const settle = (f: () => void) => {
        if (dropping.has(req)) return;
        try {
          f();
        } catch { /* already closed */ }
      };
      req.on("data", (chunk: Buffer) => settle(() => {
        c.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((c.desiredSize ?? 1) <= 0) req.pause();
      }));
      req.once("end", () => settle(() => c.close()));
      req.once("error", (err) => settle(() => c.error(err)));
      req.once("close", () => req.complete || settle(() => c.error(new Error("The client closed the connection mid-body."))));
    },
    pull() {
      req.resume();
    },
    cancel() {
      dropBody(req);
    },
  }, { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength });
}

/** From now on the rest of the request's body is read and dropped. */
function dropBody(req: IncomingMessage): void {
  dropping.add(req);
  req.resume();
}

/** A Request's headers read straight from node's (already lowercase and joined); read-only, as a Request's are. */
class NodeHeaders implements Headers {
  constructor(private readonly h: IncomingHttpHeaders) {}
  get(name: string): string | null {
    const v = this.h[name.toLowerCase()];
    return v === undefined ? null : Array.isArray(v) ? v.join(", ") : v;
  }
  has(name: string): boolean {
    return this.h[name.toLowerCase()] !== undefined;
  }
  getSetCookie(): string[] {
    const v = this.h["set-cookie"];
    return v === undefined ? [] : Array.isArray(v) ? [...v] : [v];
  }
  *entries(): HeadersIterator<[string, string]> {
    for (const k of Object.keys(this.h).sort()) {
      const v = this.get(k);
      if (v !== null) yield [k, v];
    }
  }
  *keys(): HeadersIterator<string> {
    for (const [k] of this.entries()) yield k;
  }
  *values(): HeadersIterator<string> {
    for (const [, v] of this.entries()) yield v;
  }
  [Symbol.iterator](): HeadersIterator<[string, string]> {
    return this.entries();
  }
  forEach(fn: (value: string, key: string, parent: Headers) => void, thisArg?: unknown): void {
    for (const [k, v] of this.entries()) fn.call(thisArg, v, k, this);
  }
  append(): void {
    throw new TypeError("immutable");
  }
  set(): void {
    throw new TypeError("immutable");
  }
  delete(): void {
    throw new TypeError("immutable");
  }
}

/**
 * What the API reads of a bodiless request (url, method, headers), as a Request has them: the
 * URL serialised (and refused, as Request refuses it, when it does not parse). Anything else of
 * a Request is that of a real one, made on first use.
 */
class NodeRequest {
  readonly url: string;
  readonly headers: Headers;
  readonly body = null;
  readonly bodyUsed = false;
  private real?: Request;
  constructor(readonly method: string, url: string, headers: IncomingHttpHeaders) {
    const parsed = parseUrl(url);
    this.url = parsed.href;
    this.headers = new NodeHeaders(headers);
    knownUrl(this as unknown as Request, parsed);
  }
  private web(): Request {
    return (this.real ??= new Request(this.url, { method: this.method, headers: [...this.headers] }));
  }
  get signal() { return this.web().signal; }
  get cache() { return this.web().cache; }
  get credentials() { return this.web().credentials; }
  get destination() { return this.web().destination; }
  get integrity() { return this.web().integrity; }
  get keepalive() { return this.web().keepalive; }
  get mode() { return this.web().mode; }
  get redirect() { return this.web().redirect; }
  get referrer() { return this.web().referrer; }
  get referrerPolicy() { return this.web().referrerPolicy; }
  arrayBuffer() { return this.web().arrayBuffer(); }
  blob() { return this.web().blob(); }
  formData() { return this.web().formData(); }
  json() { return this.web().json(); }
  text() { return this.web().text(); }
  clone() { return this.web().clone(); }
}

// The same URLs are asked again and again (a popular card, a polling client): parsed once
// each (new URL was 1.3 % of a cached card answer's CPU). Shared between requests, so read
// only, as every reader of urlOf already treats it (lib/api/context.ts).
const URLS_MAX = 1000;
const parsedUrls = new Map<string, URL>();
function parseUrl(url: string): URL {
  let parsed = parsedUrls.get(url);
  if (!parsed) {
    parsed = new URL(url);
    // Only short ones are kept: a thousand long ones would hold megabytes.
    if (url.length > 512) return parsed;
    if (parsedUrls.size >= URLS_MAX) parsedUrls.clear();
    parsedUrls.set(url, parsed);
  }
  return parsed;
}

/**
 * Writes an answer: a text or bytes body at once, in one write with its Content-Length (nothing
 * to wait for: undefined, not even a promise); a stream (a file) piped, the returned promise
 * settling when it is done. A client that leaves mid-answer is not an error of the server.
 */
export function sendAnswer(res: ServerResponse, a: Answer, security: Readonly<Record<string, string>>): Promise<void> | undefined {
  // All headers in writeHead's object: Node's fast case (a setHeader before would send each
  // through setHeader again). An answer's own header wins, as it would over a setHeader.
  const headers: OutgoingHttpHeaders = a.headers;
  for (const name in security) if (headers[name] === undefined) headers[name] = security[name];
  if (a.cookies) headers["set-cookie"] = a.cookies;
  // Answered before its body was read whole (a refusal, a body over its limit): its caller may
  // still be uploading the rest.
  if (res.req && !res.req.complete) res.once("finish", () => dropRestOf(res.req));
  const body = a.body;
  if (body === null) {
    res.writeHead(a.status, headers);
    res.end();
  } else if (typeof body === "string" || body instanceof Uint8Array) {
    headers["content-length"] = typeof body === "string" ? Buffer.byteLength(body) : body.byteLength;
    res.writeHead(a.status, headers);
    res.end(body);
  } else {
    res.writeHead(a.status, headers);
    return pipeline(Readable.fromWeb(body as import("node:stream/web").ReadableStream), res);
  }
  return undefined;
}

/**
 * The most of a request line and headers the servers read: node's default (16 KiB) refused a
 * batch's `ids` list of the length the OpenAPI document allows (20,000 characters) before it
 * could be answered LIMIT_EXCEEDED.
 */
export const MAX_HEADER_BYTES = 64 * 1024;

const CLIENT_ERRORS: Record<string, { code: ErrorCode; status: string; message: string }> = {
  HPE_INVALID_METHOD: { code: "METHOD_NOT_ALLOWED", status: "405 Method Not Allowed", message: "The method is not one this API serves." },
  HPE_HEADER_OVERFLOW: { code: "HEADERS_TOO_LARGE", status: "431 Request Header Fields Too Large", message: `The request line and headers are limited to ${MAX_HEADER_BYTES} bytes: send long id lists in several requests.` },
};
const MALFORMED = { code: "INVALID_PARAMETER" as ErrorCode, status: "400 Bad Request", message: "The request is not valid HTTP/1.1." };
const TIMEOUT = { code: "REQUEST_TIMEOUT" as ErrorCode, status: "408 Request Timeout", message: "The request's headers or body did not arrive in time." };
const NO_ROUTE = { code: "NOT_FOUND" as ErrorCode, status: "404 Not Found", message: "No route has this path. The API reference is at /v1/openapi.json." };

/**
 * Requests node's parser refuses before there is a request to answer: an unknown method gets 405
 * METHOD_NOT_ALLOWED, a line and headers past MAX_HEADER_BYTES 431 HEADERS_TOO_LARGE, anything
 * else malformed 400 INVALID_PARAMETER, headers or a body that do not arrive in time 408
 * REQUEST_TIMEOUT, in the envelope with a request id, instead of node's bare status line (or,
 * for CONNECT, which node hands to a listener of its own, nothing at all). `upgrade` takes an
 * upgrade itself when it returns true (Next's development server, its live reload).
 */
export function answerClientErrors(server: Server, allowOf?: (path: string) => string | null | undefined, upgrade?: (req: IncomingMessage, socket: Socket, head: Buffer) => boolean): void {
  server.on("connect", (req: IncomingMessage, socket: Socket) => {
    const path = (req.url ?? "").split("?")[0]!;
    const allow = isApiPath(path) && allowOf ? allowOf(path) : undefined;
    const e = allow === null ? NO_ROUTE : { code: "METHOD_NOT_ALLOWED" as ErrorCode, status: "405 Method Not Allowed", message: "CONNECT is not a method this server answers." };
    if (socket.writable) writeRefusal(socket, e, allow ? { allow } : {});
    else socket.destroy();
  });
  server.on("clientError", (err: NodeJS.ErrnoException, socket: Socket) => {
    let e = (err.code && CLIENT_ERRORS[err.code]) || (err.code?.startsWith("HPE_") ? MALFORMED : err.code === "ERR_HTTP_REQUEST_TIMEOUT" ? TIMEOUT : undefined);
    if (!e || !socket.writable) {
      socket.destroy();
      return;
    }
    // A method the parser does not know (TRACK, a made-up one; RTSP's DESCRIBE or RECORD, which
    // it knows for RTSP only) on a /v1 path: 405 with the path's Allow as the router's own 405s,
    // or 404 when no route has the path (allowOf: the router's).
    const extra: Record<string, string> = {};
    const unknown = unknownMethod(err);
    if (unknown) e = CLIENT_ERRORS.HPE_INVALID_METHOD!;
    if (unknown && allowOf) {
      const target = (err as { rawPacket?: Buffer }).rawPacket?.toString("latin1").split("\r\n", 1)[0]?.split(" ")[1] ?? "";
      const allow = allowOf(target.split("?")[0]!);
      if (allow === null) e = NO_ROUTE;
      else if (allow) extra.allow = allow;
    }
    writeRefusal(socket, e, extra);
  });
  // An expectation other than 100-continue: Node answers a bare 417 unless told otherwise. The
  // request is served as if it had none, which RFC 9110 allows (§10.1.1: the server MAY answer 417).
  server.on("checkExpectation", (req: IncomingMessage, res: ServerResponse) => server.emit("request", req, res));
  // A request asking to upgrade (h2c, which `curl --http2` asks for, or a websocket): with no
  // listener Node closes the connection without a byte. Nothing here upgrades, so the request is
  // answered as HTTP/1.1 (RFC 9110 §7.8: a server may ignore Upgrade), then the connection
  // closes, its parser being gone. One with a body is refused instead: the parser stopped before
  // it, and serving it without would lose what was sent.
  server.on("upgrade", (req: IncomingMessage, socket: Socket, head: Buffer) => {
    if (upgrade?.(req, socket, head)) return;
    if (!socket.writable) return void socket.destroy();
    const sized = Number(req.headers["content-length"] ?? 0);
    if (req.headers["transfer-encoding"] !== undefined || sized > 0) {
      return writeRefusal(socket, { ...MALFORMED, message: "This server does not upgrade connections: send the request without Upgrade." }, {});
    }
    const res = new ServerResponse(req);
    res.shouldKeepAlive = false;
    res.assignSocket(socket);
    res.once("finish", () => {
      res.detachSocket(socket);
      socket.end();
    });
    server.emit("request", req, res);
  });
}

/** The parser refused the request line's method: unknown to HTTP (FOO), or known for RTSP only (DESCRIBE). */
const unknownMethod = (err: NodeJS.ErrnoException) =>
  err.code === "HPE_INVALID_METHOD" || (err.code === "HPE_INVALID_CONSTANT" && /invalid method/i.test((err as { reason?: string }).reason ?? err.message));

/** An error answer written straight to the socket, which then closes. */
function writeRefusal(socket: Socket, e: { code: ErrorCode; status: string; message: string }, extra: Record<string, string>): void {
  const a = errorAnswer(new ApiError(e.code, e.message), newRequestId());
  const body = Buffer.from(a.body as string);
  const headers = { ...API_SECURITY, ...a.headers, ...extra, "content-length": String(body.length), connection: "close" };
  socket.end(Buffer.concat([Buffer.from(`HTTP/1.1 ${e.status}\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}`).join("\r\n")}\r\n\r\n`, "latin1"), body]));
}

/** How long the rest of a refused body is read and dropped after the answer, before the connection is cut. */
const LINGER_MS = 2_000;

/**
 * Reads and drops what the caller still sends after its answer, and cuts the connection if that
 * takes more than LINGER_MS. A client that uploads its whole body before it reads (curl does)
 * otherwise waits for ever on a server that stopped reading; a close with unread bytes resets
 * the connection at once, which may destroy the answer before the client has read it. A body
 * that ends in time leaves the connection open for the next request.
 */
function dropRestOf(req: IncomingMessage): void {
  const socket = req.socket as Socket | null;
  if (!socket || socket.destroyed || req.complete) return;
  const cut = setTimeout(() => socket.destroy(), LINGER_MS);
  cut.unref();
  req.once("end", () => clearTimeout(cut));
  socket.once("close", () => clearTimeout(cut));
  dropBody(req);
}

/**
 * An answer in the API's envelope when a server itself fails (no stack, no details), with a
 * request id of its own, logged with the fault, as every answer has one (CONTRACT.md §8).
 */
export function internalError(res: ServerResponse, err: unknown): void {
  const a = errorAnswer(new ApiError("INTERNAL_ERROR", "Internal error."), newRequestId());
  console.error(`[server] ${a.headers["x-request-id"]}`, err);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(500, a.headers);
  res.end(a.body);
}

/**
 * Refuses to start with a configuration that would be unsafe to serve: an operator token short
 * enough to guess, or an environment that does not parse.
 */
export function checkBeforeListening(): void {
  env();
  const token = process.env.ADMIN_TOKEN;
  if (token !== undefined && token.length < OPERATOR_TOKEN_MIN) {
    const advice = `ADMIN_TOKEN must be at least ${OPERATOR_TOKEN_MIN} characters (e.g. \`openssl rand -hex 32\`); unset it to disable the operator routes.`;
    if (operatorToken() === undefined) throw new Error(advice);
    console.warn(`[server] ${advice} Taken on the embedded default only.`);
  }
  trustClientIpHeader();
}

/**
 * On SIGTERM or SIGINT: stop accepting, let the requests in flight finish (at most `graceMs`),
 * then send what the meter and the request log still hold, and only then exit.
 */
export function onShutdown(server: Server, finish: () => Promise<void>, graceMs = 10_000): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`[server] ${signal}: finishing requests in flight`);
    process.exit(await shutDown(server, finish, { graceMs }));
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}

/**
 * The shutdown's steps, and the exit code they end with. The last writes wait for the database
 * and Redis; when one of them hangs (a statement that never returns), the process still exits
 * after `finishMs`, with code 1 and a line that says so, rather than never (a process manager
 * would kill it without a word, and the port's next server would find the old one still there).
 */
export async function shutDown(server: Pick<Server, "close" | "closeIdleConnections">, finish: () => Promise<void>, o: { graceMs: number; finishMs?: number }): Promise<number> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  await Promise.race([closed, new Promise((r) => setTimeout(r, o.graceMs).unref())]);
  const finishMs = o.finishMs ?? 30_000;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<"late">((r) => (timer = setTimeout(() => r("late"), finishMs)));
  try {
    if ((await Promise.race([finish().then(() => "done" as const), late])) === "late") {
      console.error(`[server] shutdown: the last writes (meter, request log) did not finish within ${finishMs / 1000} s; exiting without them`);
      return 1;
    }
    return 0;
  } catch (err) {
    console.error("[server] shutdown:", err);
    return 1;
  } finally {
    clearTimeout(timer);
  }
}
