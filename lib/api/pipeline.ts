import { z } from "zod";
import { acquire, settle, type Lease } from "@/lib/meter/meter";
import { gate } from "@/lib/meter/gate";
import { ANONYMOUS, authenticate, ExpiredKey, trialHeader, type Principal } from "./auth";
import { logAnswer, watchSettle, type Pending } from "@/lib/usage/record";
import { bodyOptional, readJson, readUpload, refuseDeclaredBody } from "./body";
import { ApiError } from "./errors";
import { acceptsGzip, gzipEtag, gzipOf, GZIP_MIN_BYTES } from "./compress";
import { etagOf, matchesIfNoneMatch } from "./etag";
import { issueToError, PAGING_PARAMS } from "./params";
import { malformedCursor } from "./paging";
import { decoded, hasNul } from "@/lib/util/text";
import { env } from "@/lib/env";
import { toResponse, type Answer } from "./answer";
import { publicOrigin, urlOf, withRequest } from "./context";
import { addHeaders, corsHeaders, errorAnswer, jsonAnswer, requestId } from "./respond";
import { cached, cacheEnabled, type Rendered } from "./response-cache";
import type { Ctx, RouteSpec, Upload } from "./route";

// The one wrapper every /v1 route runs through. The steps, in this order:
//   1. request id          every answer carries X-Request-Id
//   2. authenticate        key → principal (401s); the operator's token on operator routes (404)
//   3. parse and validate  zod schemas of path, query and headers → 400s; the body is not read yet
//   4. plan gate           PLAN_REQUIRED / TRIAL_EXPIRED, before any credit is reserved
//   5. body                read within the route's limit (413), then validated: JSON by zod,
//                          a photo sniffed (400s); see body.ts
//   6. meter acquire       one atomic script: rate, concurrency, credits (429s); a request
//                          with If-None-Match refused for spent credits goes on at the plan's
//                          pace (a lease of no cost), and is answered only if it is the free
//                          304 (step 9), the 429 otherwise
//   7. handler             the route's own work in lib/<domain>, or its cached rendering
//   8. card allowance      the answer's cards counted; 403 if new ones exceed the allowance
//   9. ETag / 304          strong validator over the exact body
//  10. meter settle        release the slot; refund on 4xx, 5xx and 304, and what a cheaper
//                          answer did not spend (an empty identify costs its base)
//  11. headers             cache, meter and request headers, on answers and refusals alike
//  12. request log         the call's row for the owner (lib/usage), buffered off the path;
//                          what it cost is filled in when its settle is answered
// Nothing of a body is read for a caller who would be refused anyway (steps 2 to 4): a large
// upload without a key costs the server its headers only.

type Input = { query: Record<string, unknown>; params: Record<string, unknown>; paging: string[] };
type Body = { body?: unknown; upload?: Upload };
const NO_BODY: Body = Object.freeze({});

export async function runRoute(spec: RouteSpec<any, any, any>, req: Request, rawParams: Record<string, unknown>, as?: Principal): Promise<Response> {
  return toResponse(await answerRoute(spec, req, rawParams, as));
}

/**
 * runRoute's answer before it is a Response: what the app's servers write to the socket. `as`
 * replaces step 3 for a caller the app has already authenticated otherwise (the dashboard's
 * signed-in owner); every other step runs as for a key.
 */
export async function answerRoute(spec: RouteSpec<any, any, any>, req: Request, rawParams: Record<string, unknown>, as?: Principal): Promise<Answer> {
  const started = performance.now();
  const reqId = requestId(req);
  let lease: Lease | undefined;
  let pending: Pending | undefined;
  let principal: Principal = ANONYMOUS;
  try {
    // The caller first, as Stripe does: a request without a key is 401 whatever else is wrong
    // with it, and operator routes do not exist for anyone without the token.
    principal = spec.auth === "admin" ? await authenticate(req, "admin") : as ?? (await authenticate(req, spec.auth));
    const input = parseInput(spec, req, rawParams);
    const warnings = pagingWarnings(input.paging, principal);
    const cost = spec.auth === "key" ? spec.cost.credits({ query: input.query, params: input.params }) : 0;
    const feature = gatePlan(spec, principal, cost);
    // Most routes read no body: no await (each one a turn of the microtask queue) for them.
    const { body, upload } = spec.method === "GET" ? getBody(req) : spec.rawBody ? NO_BODY : await readBody(spec, req);
    let refused: MeterRefusal | undefined;
    try {
      lease = await acquireMeter(spec, principal, cost, feature);
    } catch (err) {
      if (!(refused = revalidating(err, req))) throw err;
      // Spent credits still buy a revalidation, at the plan's pace: a lease of no cost (a rate
      // or concurrency refusal of that one is the answer; spent credits again, the first).
      lease = await acquireMeter(spec, principal, 0, undefined).catch((again: unknown) => {
        throw again instanceof MeterRefusal && again.code !== "QUOTA_EXCEEDED" ? again : refused;
      });
    }
    if (lease) pending = watchSettle(lease);
    const ctx: Ctx<any, any, any> = {
      req, requestId: reqId, query: input.query, params: input.params, body, upload, principal,
      // Bound, not an arrow: tsx's esbuild names every closure made per request (lib/api/context.ts).
      link: linkTo.bind(null, spec, req, input.params),
    };
    let rendered: Rendered;
    try {
      rendered = await runHandler(spec, req, ctx, input.params);
    } catch (err) {
      if (refused) await giveBack(lease, refused);
      throw err;
    }
    const res = finish(spec, req, reqId, rendered, warnings);
    // Spent credits buy a revalidation only: any other answer is the refusal.
    if (refused && res.status !== 304) await giveBack(lease, refused);
    const meter = lease ? await settleMeter(lease, res.status, rendered.cardIds, rendered.credits) : {};
    logAnswer({ principal, method: req.method, path: spec.path, requestId: reqId, started, status: res.status, errorCode: null, pending });
    return withHeaders(res, principal, principal.kind === "account" || spec.auth !== "none" ? meter : await unlookedTrial(spec, req));
  } catch (err) {
    const error = toApiError(err, reqId);
    const meter = planDecision(error.code, error instanceof MeterRefusal ? error.meterHeaders : lease ? await settleMeter(lease, error.status) : {});
    // A refusal is logged too (the account's, from step 2 on, an expired key's included): the
    // owner looks its request id up.
    logAnswer({ principal: err instanceof ExpiredKey ? err.owner : principal, method: req.method, path: spec.path, requestId: reqId, started, status: error.status, errorCode: error.code, pending });
    if (principal.kind !== "account" && error.code !== "MISSING_API_KEY" && error.code !== "INVALID_API_KEY") Object.assign(meter, await unlookedTrial(spec, req));
    return withHeaders(errorAnswer(error, reqId), principal, meter);
  }
}

/** X-Trial-Expires-At for a trial key the answer did not authenticate (a public route, a refusal before step 3); not on operator routes. */
async function unlookedTrial(spec: RouteSpec<any, any, any>, req: Request): Promise<Record<string, string>> {
  return spec.auth === "admin" ? {} : ((await trialHeader(req)) ?? {});
}

// ── 4. plan gate ─────────────────────────────────────────────────────────────

/** The counted trial feature to charge, if any; throws the refusal otherwise. */
function gatePlan(spec: RouteSpec<any, any, any>, principal: Principal, cost: number): string | undefined {
  if (principal.kind !== "account") return undefined;
  const g = gate(principal.account, spec.cost, cost);
  if (!g.ok) throw g.error;
  return g.feature;
}

// ── 5. body ──────────────────────────────────────────────────────────────────

/**
 * The body of a route that takes one (not GET, whose routes read none; not a raw body its
 * handler reads). A route that takes none (a rotate, a DELETE) still answers a body that does
 * not parse, or one past the limit, as every route does (CONTRACT.md §8): an empty body or any
 * JSON (`{}`) is ignored.
 */
async function readBody(spec: RouteSpec<any, any, any>, req: Request): Promise<Body> {
  if (spec.body) return { body: validate(spec.body, await readJson(req, bodyOptional(spec.body)), "body", []) };
  if (spec.upload) return { upload: await readUpload(req, spec.upload.maxBytes) };
  await readJson(req, true);
  return NO_BODY;
}

/** A GET's body: never read, but one declared past the JSON limit refused as on every route (413). */
function getBody(req: Request): Body {
  refuseDeclaredBody(req);
  return NO_BODY;
}

// ── 6. meter acquire ─────────────────────────────────────────────────────────

/** A refusal of the meter: it carries the meter's headers, a rejection included. */
class MeterRefusal extends ApiError {
  constructor(error: ApiError, readonly meterHeaders: Record<string, string>) {
    super(error.code, error.message, error.details, error.headers);
  }
}

/**
 * A refusal for spent credits of a request that may be a revalidation: its answer is made all
 * the same, and given when it is the free 304 (SPEC.md: a 304 costs 0 credits), the refusal
 * otherwise.
 */
function revalidating(err: unknown, req: Request): MeterRefusal | undefined {
  return err instanceof MeterRefusal && err.code === "QUOTA_EXCEEDED" && req.headers.has("if-none-match") ? err : undefined;
}

/** The revalidation's lease released, nothing charged, and the refusal for spent credits given instead. */
async function giveBack(lease: Lease | undefined, refused: MeterRefusal): Promise<never> {
  if (lease) await settle(lease, refused.status);
  throw refused;
}

/**
 * PLAN_REQUIRED and TRIAL_EXPIRED are plan decisions and carry no quota or rate headers (SPEC.md
 * QUOTA_EXCEEDED details 7), wherever they were decided: before the meter, inside its script (a
 * spent trial feature, counted there so that instances never race on it), or by a handler after
 * it (a paid-only bulk file), whose lease is settled and refunded all the same.
 */
function planDecision(code: string, meter: Record<string, string>): Record<string, string> {
  if (code !== "PLAN_REQUIRED" && code !== "TRIAL_EXPIRED") return meter;
  const trial = meter["x-trial-expires-at"];
  return trial ? { "x-trial-expires-at": trial } : {};
}

async function acquireMeter(spec: RouteSpec<any, any, any>, principal: Principal, cost: number, feature: string | undefined) {
  if (principal.kind !== "account") return undefined;
  // Outside production only: lets the benchmark measure the meter's own cost on one process.
  if (env().NODE_ENV !== "production" && process.env.BENCH_UNMETERED === "1") return undefined;
  const outcome = await acquire(principal.account, { route: spec.operationId, cost, feature, minPlan: spec.cost.minPlan });
  if (!outcome.ok) throw new MeterRefusal(outcome.error, outcome.headers);
  return outcome.lease;
}

// ── 8 and 10. card allowance and settle ──────────────────────────────────────

async function settleMeter(lease: Lease, status: number, cardIds?: string[], credits?: number): Promise<Record<string, string>> {
  const outcome = await settle(lease, status, cardIds, credits);
  if (!outcome.ok) throw new MeterRefusal(outcome.error, outcome.headers);
  return outcome.headers;
}

// ── 11. headers ──────────────────────────────────────────────────────────────

function withHeaders(res: Answer, principal: Principal, meter: Record<string, string>): Answer {
  addHeaders(res.headers, meter);
  if (principal.kind === "account") {
    const a = principal.account;
    if (a.plan === "trial" && a.trialExpiresAt) res.headers["x-trial-expires-at"] = a.trialExpiresAt;
    // Keyed answers differ by key: a shared cache must not hand one caller's answer to another.
    res.headers.vary = "X-Api-Key, Authorization, Accept-Encoding";
  }
  return res;
}

/**
 * page/offset are refused with did_you_mean (SPEC.md Pagination rule 1), except for accounts
 * in the temporary compatibility mode: they get a Warning header and meta.warnings instead.
 */
function pagingWarnings(paging: string[], principal: Principal): string[] {
  if (!paging.length) return [];
  if (principal.kind === "account" && principal.account.legacyPaging) {
    return paging.map((p) => `'${p}' is deprecated and ignored: follow links.next (cursor paging).`);
  }
  const p = paging[0]!;
  throw new ApiError("INVALID_PARAMETER", `'${p}' is not supported: lists page with an opaque cursor.`, { parameter: p, did_you_mean: "cursor" });
}

// ── 2. parse and validate ────────────────────────────────────────────────────

// PostgreSQL text cannot hold U+0000: refused here once, for every input, instead of
// surfacing as a database error wherever the value is bound. A cursor is opaque: one with a
// NUL is a malformed cursor like any other (SPEC.md: INVALID_CURSOR).
function noNul(value: string, parameter: string): void {
  if (!hasNul(value)) return;
  if (parameter === "cursor") throw malformedCursor();
  throw new ApiError("INVALID_PARAMETER", `${parameter} contains a NUL character.`, { parameter });
}

// Catalogue reads are asked the same few ways again and again: their validated input is kept
// per route, keyed by the exact path parameters and query string, and frozen (handlers read it,
// never change it). Refusals are not kept: they are worked out again each time.
const MEMO_MAX = 1000;
const memos = new WeakMap<RouteSpec<any, any, any>, Map<string, Input>>();

function parseInput(spec: RouteSpec<any, any, any>, req: Request, rawParams: Record<string, unknown>): Input {
  if (!spec.cache || spec.headers || spec.anyQuery) return parseFresh(spec, req, rawParams);
  let memo = memos.get(spec);
  if (!memo) memos.set(spec, (memo = new Map()));
  const key = `${JSON.stringify(rawParams)}\n${urlOf(req).search}`;
  let input = memo.get(key);
  if (!input) {
    input = deepFreeze(parseFresh(spec, req, rawParams));
    if (memo.size >= MEMO_MAX) memo.clear();
    memo.set(key, input);
  }
  return input;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

function parseFresh(spec: RouteSpec<any, any, any>, req: Request, rawParams: Record<string, unknown>): Input {
  const url = urlOf(req);
  const query: Record<string, string> = Object.create(null);
  for (const [name, value] of Object.entries(rawParams)) if (typeof value === "string") noNul(value, name);
  if (spec.anyQuery) return { query: {}, params: validate(spec.params ?? z.object({}), rawParams, "path", []) as Record<string, unknown>, paging: [] };
  // URLSearchParams turns a malformed escape (%E0%A4%A) into U+FFFD and the call would be
  // served on a value nobody sent: refused, as the same bytes in the path are.
  if (url.search.includes("%")) {
    for (const part of url.search.slice(1).split("&")) {
      if (decoded(part.replace(/\+/g, " ")) === null) {
        const name = decoded(part.split("=", 1)[0]!) ?? "query";
        // A cursor is opaque: one that does not decode is a malformed cursor like any other.
        if (name === "cursor") throw malformedCursor();
        throw new ApiError("INVALID_PARAMETER", `Parameter '${name}' is not valid percent-encoded UTF-8.`, { parameter: name });
      }
    }
  }
  for (const [k, v] of url.searchParams) {
    if (Object.hasOwn(query, k)) throw new ApiError("INVALID_PARAMETER", `Parameter '${k}' was given more than once.`, { parameter: k });
    noNul(k, "query");
    noNul(v, k);
    query[k] = v;
  }
  // page/offset on a list are decided after authentication (some accounts get a warning).
  const lists = !!spec.query && "cursor" in ((spec.query as unknown as z.ZodObject).shape ?? {});
  const paging = lists ? PAGING_PARAMS.filter((p) => Object.hasOwn(query, p)) : [];
  for (const p of paging) delete query[p];
  const validParams = spec.query ? Object.keys((spec.query as unknown as z.ZodObject).shape ?? {}) : [];
  const parsedQuery = validate(spec.query ?? NO_QUERY, query, "query", validParams);
  const params = spec.params ? validate(spec.params, rawParams, "path", []) : {};
  if (spec.headers) {
    const given: Record<string, string> = {};
    for (const name of Object.keys(spec.headers.shape)) {
      const v = req.headers.get(name);
      if (v !== null) given[name] = v;
    }
    validate(spec.headers, given, "header", []);
  }
  return { query: parsedQuery as Record<string, unknown>, params: params as Record<string, unknown>, paging };
}

function validate(schema: z.ZodType, value: unknown, where: "query" | "path" | "body" | "header", validParams: string[]): unknown {
  const r = schema.safeParse(value, { reportInput: true });
  if (!r.success) throw issueToError(r.error.issues[0]!, where, validParams, value);
  return r.data;
}

/** The query of a route that takes none: any parameter is refused as a schema's unknown one is (page and offset with did_you_mean). */
const NO_QUERY = z.strictObject({});

// ── 7. handler ───────────────────────────────────────────────────────────────

function runHandler(spec: RouteSpec<any, any, any>, req: Request, ctx: Ctx<any, any, any>, params: Record<string, unknown>): Promise<Rendered> {
  if (spec.cache && cacheEnabled()) return cached(spec.cache, cacheKey(spec, req, params, ctx.principal), () => withRequest(req, () => render(spec, ctx)));
  return withRequest(req, () => render(spec, ctx));
}

async function render(spec: RouteSpec<any, any, any>, ctx: Ctx<any, any, any>): Promise<Rendered> {
  const result = await spec.handler(ctx);
  if (result.file) return { body: EMPTY, status: 200, etag: result.file.etag, headers: result.headers, file: result.file };
  // Encoded once: a cached answer is sent as these bytes however often it is asked for.
  const body = Buffer.from(JSON.stringify(result.body));
  const status = result.status ?? spec.successStatus ?? 200;
  return { body, status, etag: spec.etag && status === 200 ? etagOf(body) : "", headers: result.headers, cardIds: result.cardIds, credits: result.credits };
}

/**
 * Everything an answer depends on: route, path, query in any order, the origin of links, and
 * the plan's view of prices (the trial sees fewer rows than paid plans).
 */
function cacheKey(spec: RouteSpec<any, any, any>, req: Request, params: Record<string, unknown>, principal: Principal): string {
  const view = principal.kind === "account" ? (principal.account.plan === "trial" ? "trial" : "paid") : principal.kind;
  const origin = publicOrigin(req);
  // The same few requests again and again: each one's key is worked out once (the path holds
  // the params, the search the query, in the order sent).
  const url = urlOf(req);
  const asked = `${spec.operationId}\n${origin}\n${view}\n${url.pathname}${url.search}`;
  let key = cacheKeys.get(asked);
  if (key === undefined) {
    const query = [...url.searchParams].sort((a, b) => (a[0] === b[0] ? a[1].localeCompare(b[1]) : a[0].localeCompare(b[0])));
    key = `${spec.operationId}\n${origin}\n${view}\n${JSON.stringify(params)}\n${JSON.stringify(query)}`;
    // Only short ones are kept: a thousand long ones would hold megabytes.
    if (asked.length > 512) return key;
    if (cacheKeys.size >= MEMO_MAX) cacheKeys.clear();
    cacheKeys.set(asked, key);
  }
  return key;
}
const cacheKeys = new Map<string, string>();

const EMPTY = Buffer.alloc(0);

// ── 9 and 11. ETag / 304 and headers ─────────────────────────────────────────

function finish(spec: RouteSpec<any, any, any>, req: Request, reqId: string, rendered: Rendered, warnings: string[] = []): Answer {
  const r = warnings.length ? withWarnings(rendered, warnings) : rendered;
  const headers = addHeaders(corsHeaders(), r.headers);
  if (warnings.length) headers.warning = warnings.map((w) => `299 - "${w.replace(/"/g, "'")}"`).join(", ");
  headers["x-request-id"] = reqId;
  if (spec.cache) headers["x-cache"] = r.hit ? "HIT" : "MISS";
  if (spec.cacheControl) headers["cache-control"] = spec.cacheControl;
  else if (!Object.hasOwn(headers, "cache-control")) headers["cache-control"] = "no-store";
  // The compressed representation has a validator of its own; either one revalidates it.
  const gzip = !r.file && r.body.length >= GZIP_MIN_BYTES && acceptsGzip(req.headers.get("accept-encoding"));
  if (!r.file && r.body.length >= GZIP_MIN_BYTES) headers.vary = "Accept-Encoding";
  if (r.etag) {
    headers.etag = gzip ? gzipEtag(r.etag) : r.etag;
    const inm = req.headers.get("if-none-match");
    if (matchesIfNoneMatch(inm, r.etag) || (gzip && matchesIfNoneMatch(inm, headers.etag))) {
      void r.file?.stream.cancel();
      // Free, on a public route as on a metered one (where the settle says the same).
      headers["x-credits-cost"] = "0";
      return { status: 304, headers, body: null };
    }
  }
  if (r.file) {
    headers["content-type"] = r.file.contentType;
    headers["content-length"] = String(r.file.size);
    headers["content-disposition"] = `attachment; filename="${r.file.filename}"`;
    return { status: 200, headers, body: r.file.stream };
  }
  if (gzip) {
    headers["content-encoding"] = "gzip";
    return jsonAnswer(gzipOf(r), r.status, headers);
  }
  return jsonAnswer(r.body, r.status, headers);
}

/** The compatibility mode's meta.warnings, added to a rendered list answer. */
function withWarnings(r: Rendered, warnings: string[]): Rendered {
  const parsed = JSON.parse(r.body.toString("utf8")) as { meta?: Record<string, unknown> };
  parsed.meta = { ...parsed.meta, warnings };
  const body = Buffer.from(JSON.stringify(parsed));
  return { ...r, body, etag: r.etag ? etagOf(body) : "" };
}

// ── links ────────────────────────────────────────────────────────────────────

export { publicOrigin };

function linkTo(spec: RouteSpec<any, any, any>, req: Request, params: Record<string, unknown>, q: Record<string, string | number | undefined>): string {
  const path = spec.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(params[name] ?? "")));
  const search = new URL(req.url).searchParams;
  for (const [k, v] of Object.entries(q)) {
    if (v === undefined) search.delete(k);
    else search.set(k, String(v));
  }
  const qs = search.toString();
  return `${publicOrigin(req)}/v1${path}${qs ? `?${qs}` : ""}`;
}

// ── errors ───────────────────────────────────────────────────────────────────

const DB_DOWN = new Set(["ECONNREFUSED", "ECONNRESET", "ENOTFOUND", "ETIMEDOUT", "EPIPE", "57P01", "57P03", "08006", "08001", "08003", "53300"]);
const DB_DOWN_TEXT = /Connection terminated|connection error|Client was closed|timeout exceeded when trying to connect/i;

/** Drivers wrap each other's errors (drizzle's "Failed query" holds pg's in `cause`). */
function databaseDown(err: unknown): boolean {
  for (let e = err as { code?: string; message?: string; cause?: unknown } | undefined, i = 0; e && i < 5; e = e.cause as typeof e, i++) {
    if ((e.code && DB_DOWN.has(e.code)) || (e.message && DB_DOWN_TEXT.test(e.message))) return true;
  }
  return false;
}

export function toApiError(err: unknown, reqId: string): ApiError {
  if (err instanceof ApiError) return err;
  if (databaseDown(err)) {
    console.error(`[${reqId}] database unavailable:`, (err as Error).message);
    return new ApiError("SERVICE_UNAVAILABLE", "The catalogue database is unreachable. Retry shortly.", undefined, { "retry-after": "5" });
  }
  // Never leak a stack or SQL to the client: the request id finds the details in the log.
  console.error(`[${reqId}] internal error:`, err);
  return new ApiError("INTERNAL_ERROR", `Internal error. Quote request id ${reqId} when reporting it.`);
}
