import { z } from "zod";
import { acquire, settle, type Lease } from "@/lib/meter/meter";
import { gate } from "@/lib/meter/gate";
import { ANONYMOUS, authenticate, type Principal } from "./auth";
import { ApiError } from "./errors";
import { etagOf, matchesIfNoneMatch } from "./etag";
import { issueToError, PAGING_PARAMS } from "./params";
import { publicOrigin, withRequest } from "./context";
import { CORS, errorResponse, jsonResponse, requestId } from "./respond";
import { cached, cacheEnabled, type Rendered } from "./response-cache";
import type { Ctx, RouteSpec, Upload } from "./route";

// The one wrapper every /v1 route runs through. The steps, in this order:
//   1. request id          every answer carries X-Request-Id
//   2. parse and validate  zod schemas of path, query and body, photo uploads → 400s, 413
//   3. authenticate        key → principal (401s)
//   4. plan gate           PLAN_REQUIRED / TRIAL_EXPIRED, before any credit is reserved
//   5. meter acquire       one atomic script: rate, concurrency, credits (429s)
//   6. handler             the route's own work in lib/<domain>, or its cached rendering
//   7. card allowance      the answer's cards counted; 403 if new ones exceed the allowance
//   8. ETag / 304          strong validator over the exact body
//   9. meter settle        release the slot; refund on 4xx, 5xx and 304, and what a cheaper
//                          answer did not spend (an empty identify costs its base)
//  10. headers             cache, meter and request headers, on answers and refusals alike

const MAX_JSON_BODY = 1_000_000;

type Input = { query: Record<string, unknown>; params: Record<string, unknown>; body: unknown; paging: string[]; upload?: Upload };

export async function runRoute(spec: RouteSpec<any, any, any>, req: Request, rawParams: Record<string, unknown>): Promise<Response> {
  const reqId = requestId(req);
  let lease: Lease | undefined;
  let principal: Principal = ANONYMOUS;
  try {
    // Operator routes must not exist for anyone without the token: checked before validation.
    if (spec.auth === "admin") principal = await authenticate(req, "admin");
    const input = await parseInput(spec, req, rawParams);
    if (spec.auth !== "admin") principal = await authenticate(req, spec.auth);
    const warnings = pagingWarnings(input.paging, principal);
    const cost = spec.auth === "key" ? spec.cost.credits({ query: input.query, params: input.params }) : 0;
    const feature = gatePlan(spec, principal, cost);
    lease = await acquireMeter(spec, principal, cost, feature);
    const ctx: Ctx<any, any, any> = {
      req, requestId: reqId, query: input.query, params: input.params, body: input.body, upload: input.upload, principal,
      link: (q) => linkTo(spec, req, input.params, q),
    };
    const rendered = await runHandler(spec, req, ctx, input);
    const res = finish(spec, req, reqId, rendered, warnings);
    const meter = lease ? await settleMeter(lease, res.status, rendered.cardIds, rendered.credits) : {};
    return withHeaders(res, principal, meter);
  } catch (err) {
    const error = toApiError(err, reqId);
    const meter = error instanceof MeterRefusal ? error.meterHeaders : lease ? (await settleMeter(lease, error.status)) : {};
    // Every refused answer of a keyed route says it cost nothing, also before the meter ran.
    return withHeaders(errorResponse(error, reqId), principal, spec.auth === "key" ? { "x-credits-cost": "0", ...meter } : meter);
  }
}

// ── 4. plan gate ─────────────────────────────────────────────────────────────

/** The counted trial feature to charge, if any; throws the refusal otherwise. */
function gatePlan(spec: RouteSpec<any, any, any>, principal: Principal, cost: number): string | undefined {
  if (principal.kind !== "account") return undefined;
  const g = gate(principal.account, spec.cost, cost);
  if (!g.ok) throw g.error;
  return g.feature;
}

// ── 5. meter acquire ─────────────────────────────────────────────────────────

/** A refusal of the meter: it carries the meter's headers, a rejection included. */
class MeterRefusal extends ApiError {
  constructor(error: ApiError, readonly meterHeaders: Record<string, string>) {
    super(error.code, error.message, error.details, error.headers);
  }
}

async function acquireMeter(spec: RouteSpec<any, any, any>, principal: Principal, cost: number, feature: string | undefined) {
  if (principal.kind !== "account") return undefined;
  // Outside production only: lets the benchmark measure the meter's own cost on one process.
  if (process.env.BENCH_UNMETERED === "1" && process.env.NODE_ENV !== "production") return undefined;
  const outcome = await acquire(principal.account, { route: spec.operationId, cost, feature });
  if (!outcome.ok) throw new MeterRefusal(outcome.error, outcome.headers);
  return outcome.lease;
}

// ── 7 and 9. card allowance and settle ───────────────────────────────────────

async function settleMeter(lease: Lease, status: number, cardIds?: string[], credits?: number): Promise<Record<string, string>> {
  const outcome = await settle(lease, status, cardIds, credits);
  if (!outcome.ok) throw new MeterRefusal(outcome.error, outcome.headers);
  return outcome.headers;
}

// ── 10. headers ──────────────────────────────────────────────────────────────

function withHeaders(res: Response, principal: Principal, meter: Record<string, string>): Response {
  for (const [k, v] of Object.entries(meter)) res.headers.set(k, v);
  if (principal.kind === "account") {
    const a = principal.account;
    if (a.plan === "trial" && a.trialExpiresAt) res.headers.set("x-trial-expires-at", a.trialExpiresAt);
    // Keyed answers differ by key: a shared cache must not hand one caller's answer to another.
    res.headers.set("vary", "X-Api-Key, Authorization, Accept-Encoding");
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
// surfacing as a database error wherever the value is bound.
function noNul(value: string, parameter: string): void {
  if (value.includes("\u0000")) {
    throw new ApiError("INVALID_PARAMETER", `${parameter} contains a NUL character.`, { parameter });
  }
}

async function parseInput(spec: RouteSpec<any, any, any>, req: Request, rawParams: Record<string, unknown>): Promise<Input> {
  const url = new URL(req.url);
  const query: Record<string, string> = Object.create(null);
  for (const [name, value] of Object.entries(rawParams)) if (typeof value === "string") noNul(value, name);
  if (spec.anyQuery) return { query: {}, params: validate(spec.params ?? z.object({}), rawParams, "path", []) as Record<string, unknown>, body: undefined, paging: [] };
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
  const parsedQuery = spec.query ? validate(spec.query, query, "query", validParams) : rejectUnknown(query);
  const params = spec.params ? validate(spec.params, rawParams, "path", []) : {};
  if (spec.headers) {
    const given: Record<string, string> = {};
    for (const name of Object.keys(spec.headers.shape)) {
      const v = req.headers.get(name);
      if (v !== null) given[name] = v;
    }
    validate(spec.headers, given, "header", []);
  }
  const body = spec.body ? validate(spec.body, await readJson(req), "body", []) : undefined;
  const upload = spec.upload ? await readUpload(req, spec.upload.maxBytes) : undefined;
  return { query: parsedQuery as Record<string, unknown>, params: params as Record<string, unknown>, body, paging, upload };
}

/** The `image` field of a multipart upload: 413 when too large, 400 INVALID_IMAGE when absent or not an image. */
async function readUpload(req: Request, maxBytes: number): Promise<Upload> {
  const tooLarge = () => new ApiError("PAYLOAD_TOO_LARGE", `Uploads are limited to ${maxBytes} bytes.`, { max_bytes: maxBytes });
  if (Number(req.headers.get("content-length") ?? 0) > maxBytes + 64 * 1024) throw tooLarge();
  if (!/^multipart\/form-data/i.test(req.headers.get("content-type") ?? "")) {
    throw new ApiError("INVALID_IMAGE", "Send the photo as multipart/form-data with the file in the field 'image'.", { parameter: "image" });
  }
  let file: FormDataEntryValue | null;
  try {
    file = (await req.formData()).get("image");
  } catch {
    throw new ApiError("INVALID_IMAGE", "The multipart body could not be read.", { parameter: "image" });
  }
  if (!file || typeof file === "string") throw new ApiError("INVALID_IMAGE", "The field 'image' must hold a file.", { parameter: "image" });
  if (file.size > maxBytes) throw tooLarge();
  const bytes = Buffer.from(await file.arrayBuffer());
  // The bytes decide, not the declared type: a PNG sent as image/jpg is still a PNG.
  const sniffed = sniff(bytes);
  if (!sniffed) throw new ApiError("INVALID_IMAGE", "The file is not a JPEG, PNG or WebP image.", { parameter: "image" });
  return { bytes, contentType: sniffed };
}

function sniff(b: Buffer): string | undefined {
  if (b.length > 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return "image/jpeg";
  if (b.length > 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return "image/png";
  if (b.length > 12 && b.toString("ascii", 0, 4) === "RIFF" && b.toString("ascii", 8, 12) === "WEBP") return "image/webp";
  return undefined;
}

function validate(schema: z.ZodType, value: unknown, where: "query" | "path" | "body" | "header", validParams: string[]): unknown {
  const r = schema.safeParse(value, { reportInput: true });
  if (!r.success) throw issueToError(r.error.issues[0]!, where, validParams);
  return r.data;
}

function rejectUnknown(query: Record<string, string>): Record<string, never> {
  const key = Object.keys(query)[0];
  if (key !== undefined) throw new ApiError("INVALID_PARAMETER", `Unknown parameter '${key}'.`, { parameter: key, valid_parameters: [] });
  return {};
}

async function readJson(req: Request): Promise<unknown> {
  const declared = Number(req.headers.get("content-length") ?? 0);
  if (declared > MAX_JSON_BODY) throw new ApiError("PAYLOAD_TOO_LARGE", `Bodies are limited to ${MAX_JSON_BODY} bytes.`, { max_bytes: MAX_JSON_BODY });
  const text = await req.text();
  if (text.length > MAX_JSON_BODY) throw new ApiError("PAYLOAD_TOO_LARGE", `Bodies are limited to ${MAX_JSON_BODY} bytes.`, { max_bytes: MAX_JSON_BODY });
  if (!text.trim()) throw new ApiError("INVALID_PARAMETER", "A JSON body is required.", { parameter: "body" });
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ApiError("INVALID_PARAMETER", "The body is not valid JSON.", { parameter: "body" });
  }
  if (text.includes("\\u0000") || text.includes("\u0000")) throw new ApiError("INVALID_PARAMETER", "The body contains a NUL character.", { parameter: "body" });
  return parsed;
}

// ── 6. handler ───────────────────────────────────────────────────────────────

function runHandler(spec: RouteSpec<any, any, any>, req: Request, ctx: Ctx<any, any, any>, input: Input): Promise<Rendered> {
  if (spec.cache && cacheEnabled()) return cached(spec.cache, cacheKey(spec, req, input.params, ctx.principal), () => withRequest(req, () => render(spec, ctx)));
  return withRequest(req, () => render(spec, ctx));
}

async function render(spec: RouteSpec<any, any, any>, ctx: Ctx<any, any, any>): Promise<Rendered> {
  const result = await spec.handler(ctx);
  if (result.file) return { text: "", status: 200, etag: result.file.etag, headers: result.headers, file: result.file };
  const text = JSON.stringify(result.body);
  const status = result.status ?? spec.successStatus ?? 200;
  return { text, status, etag: spec.etag && status === 200 ? etagOf(text) : "", headers: result.headers, cardIds: result.cardIds, credits: result.credits };
}

/**
 * Everything an answer depends on: route, path, query in any order, the origin of links, and
 * the plan's view of prices (the trial sees fewer rows than paid plans).
 */
function cacheKey(spec: RouteSpec<any, any, any>, req: Request, params: Record<string, unknown>, principal: Principal): string {
  const query = [...new URL(req.url).searchParams].sort((a, b) => (a[0] === b[0] ? a[1].localeCompare(b[1]) : a[0].localeCompare(b[0])));
  const view = principal.kind === "account" ? (principal.account.plan === "trial" ? "trial" : "paid") : principal.kind;
  return `${spec.operationId}\n${publicOrigin(req)}\n${view}\n${JSON.stringify(params)}\n${JSON.stringify(query)}`;
}

// ── 8 and 10. ETag / 304 and headers ─────────────────────────────────────────

function finish(spec: RouteSpec<any, any, any>, req: Request, reqId: string, rendered: Rendered, warnings: string[] = []): Response {
  const r = warnings.length ? withWarnings(rendered, warnings) : rendered;
  const headers = new Headers({ ...CORS, ...r.headers });
  if (warnings.length) headers.set("warning", warnings.map((w) => `299 - "${w.replace(/"/g, "'")}"`).join(", "));
  headers.set("x-request-id", reqId);
  if (spec.cache) headers.set("x-cache", r.hit ? "HIT" : "MISS");
  if (spec.cacheControl) headers.set("cache-control", spec.cacheControl);
  else if (!headers.has("cache-control")) headers.set("cache-control", "no-store");
  if (r.etag) {
    headers.set("etag", r.etag);
    if (matchesIfNoneMatch(req.headers.get("if-none-match"), r.etag)) {
      void r.file?.stream.cancel();
      return new Response(null, { status: 304, headers });
    }
  }
  if (r.file) {
    headers.set("content-type", r.file.contentType);
    headers.set("content-length", String(r.file.size));
    headers.set("content-disposition", `attachment; filename="${r.file.filename}"`);
    return new Response(r.file.stream, { status: 200, headers });
  }
  return jsonResponse(r.text, r.status, headers);
}

/** The compatibility mode's meta.warnings, added to a rendered list answer. */
function withWarnings(r: Rendered, warnings: string[]): Rendered {
  const body = JSON.parse(r.text) as { meta?: Record<string, unknown> };
  body.meta = { ...body.meta, warnings };
  const text = JSON.stringify(body);
  return { ...r, text, etag: r.etag ? etagOf(text) : "" };
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
