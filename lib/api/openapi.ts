import { z } from "zod";
import { bodyOptional, MAX_JSON_BODY } from "./body";
import { ERRORS, type ErrorCode } from "./errors";
import type { RouteSpec } from "./route";
import { KEPT_REQUEST_ID } from "./respond";
import { ErrorEnvelope } from "./schemas";

// The OpenAPI 3.1 document, generated from the same zod schemas and cost table the routes
// run on. Nothing here is written by hand per route, so the document cannot drift.

type Json = Record<string, unknown>;
const SAFE = 9007199254740991;

/** JSON Schema of a zod schema; named schemas move to components, refs follow them there. */
function schemaOf(schema: z.ZodType, io: "input" | "output", components: Json): Json {
  const out = z.toJSONSchema(schema, { target: "draft-2020-12", io, unrepresentable: "any" }) as Json;
  const defs = (out.$defs ?? {}) as Json;
  delete out.$defs;
  delete out.$schema;
  for (const [k, v] of Object.entries(defs)) components[k] ??= tidy(v, io);
  return tidy(out, io) as Json;
}

function tidy(node: unknown, io: "input" | "output"): unknown {
  if (Array.isArray(node)) return node.map((n) => tidy(n, io));
  if (!node || typeof node !== "object") return node;
  const o: Json = {};
  for (const [k, v] of Object.entries(node as Json)) {
    if (k === "$ref" && typeof v === "string") o[k] = v.replace("#/$defs/", "#/components/schemas/");
    else if ((k === "minimum" && v === -SAFE) || (k === "maximum" && v === SAFE)) continue;
    // Answers may gain fields over time; only requests are closed to unknown properties.
    else if (k === "additionalProperties" && v === false && io === "output") continue;
    else o[k] = tidy(v, io);
  }
  return o;
}

/** How the trial reaches a route above its plan: not at all, with its credits, or with counted calls. */
const trialAccess = (spec: RouteSpec): "none" | "credits" | "calls" => (!spec.cost.trial ? "none" : spec.cost.trial === "credits" ? "credits" : "calls");
const TRIAL_TEXT = {
  none: "not on the trial",
  credits: "the trial may call it with its credits after email confirmation",
  calls: "the trial has a few counted calls after email confirmation",
} as const;

function parameters(spec: RouteSpec, components: Json): Json[] {
  const out: Json[] = [];
  const add = (where: "path" | "query", obj: z.ZodType | undefined) => {
    const shape = (obj as unknown as z.ZodObject | undefined)?.shape ?? {};
    for (const [name, field] of Object.entries(shape)) {
      const schema = schemaOf(field as z.ZodType, "input", components);
      const description = schema.description;
      delete schema.description;
      const optional = where === "query" && ((field as z.ZodType).safeParse(undefined).success);
      out.push({ name, in: where, required: where === "path" || !optional, ...(description ? { description } : {}), schema });
    }
  };
  add("path", spec.params);
  add("query", spec.query);
  for (const [name, field] of Object.entries(spec.headers?.shape ?? {})) {
    const schema = schemaOf(field as z.ZodType, "input", components);
    const description = schema.description;
    delete schema.description;
    out.push({ name, in: "header", required: !(field as z.ZodType).safeParse(undefined).success, ...(description ? { description } : {}), schema });
  }
  if (spec.etag) {
    out.push({ name: "If-None-Match", in: "header", required: false, schema: { type: "string" }, description: "An ETag from an earlier answer: 304, no body, 0 credits." });
  }
  return out;
}

/** What the pipeline itself may answer on every keyed route: the key, the plan gate and the meter's refusals. */
const KEYED_ERRORS: ErrorCode[] = [
  "MISSING_API_KEY", "INVALID_API_KEY", "QUOTA_EXCEEDED", "RATE_LIMITED", "CONCURRENCY_LIMIT", "PLAN_REQUIRED", "TRIAL_EXPIRED", "METER_UNAVAILABLE",
];

// SPEC.md's meter headers, documented once and referred to by each keyed route's answers.
const int = { type: "integer" };
const METER_HEADERS: Record<string, Json> = {
  "X-Credits-Cost": { schema: int, description: "Credits the call cost; 0 on every 4xx, 5xx and 304." },
  "RateLimit-Limit": { schema: int, description: "Bucket capacity (burst)." },
  "RateLimit-Policy": { schema: { type: "string" }, description: "The pace in the IETF draft form, e.g. `5;w=1;burst=10, 300;w=60` on the trial." },
  "RateLimit-Remaining": { schema: int, description: "Requests the bucket holds now." },
  "RateLimit-Reset": { schema: int, description: "Seconds until the bucket is full, or until a refused call may be retried; omitted on quota refusals with no future reset." },
  "X-Quota-Limit": { schema: int, description: "Credits of the period. Omitted by plans without a period limit." },
  "X-Quota-Remaining": { schema: int, description: "The balance after this answer (a refunded one shows it before the call)." },
  "X-Quota-Reset": { schema: { type: "string", format: "date-time" }, description: "When the period's credits renew (paid plans with a known period end)." },
  "X-Cards-Used": { schema: int, description: "Distinct cards answered this period (card routes' successful answers)." },
  "X-Cards-Limit": { schema: { oneOf: [int, { type: "string", const: "unlimited" }] }, description: "The period's distinct-card allowance, or `unlimited` on plans without one." },
  "X-Cards-Warning": { schema: { type: "string", const: "approaching_limit" }, description: "When the count before the answer is at least 80 % of the allowance; never on failures, 304s and plans without an allowance." },
  "X-Trial-Expires-At": { schema: { type: "string", format: "date-time" }, description: "On every answer to a trial key: when the trial ends." },
  "X-RateLimit-Degraded": { schema: { type: "string", const: "1" }, description: "Paid plans, meter unreachable: served uncounted." },
  "X-Plan-Withheld": { schema: { type: "string" }, description: "A sentence saying what the plan held back of the prices in this answer (include=prices on one card or sealed product), as `meta.plan_notes` says it on lists." },
  "Retry-After": { schema: int, description: "Seconds to wait before retrying (429, 503), when anything comes back." },
};
const SUCCESS_METER_HEADERS = ["RateLimit-Limit", "RateLimit-Policy", "RateLimit-Remaining", "RateLimit-Reset", "X-Quota-Limit", "X-Quota-Remaining", "X-Quota-Reset",
  "X-Cards-Used", "X-Cards-Limit", "X-Cards-Warning", "X-Trial-Expires-At", "X-RateLimit-Degraded", "X-Plan-Withheld"];
const ERROR_METER_HEADERS = ["RateLimit-Limit", "RateLimit-Policy", "RateLimit-Remaining", "RateLimit-Reset", "X-Quota-Limit", "X-Quota-Remaining", "X-Quota-Reset", "X-Trial-Expires-At"];
const REFUSAL_HEADERS = [...ERROR_METER_HEADERS, "Retry-After"];
const meterRefs = (names: string[]): Json => Object.fromEntries(names.map((n) => [n, { $ref: `#/components/headers/${n}` }]));

// Refusals that only a call costing credits can meet.
const CREDIT_ERRORS: ErrorCode[] = ["QUOTA_EXCEEDED", "PLAN_REQUIRED", "TRIAL_EXPIRED"];
// (A card query's q is INVALID_QUERY too: the routes that take one list it themselves.)
const PARAM_ERRORS: Record<string, ErrorCode> = { limit: "LIMIT_EXCEEDED", include: "INVALID_INCLUDE", select: "INVALID_SELECT_FIELD", cursor: "INVALID_CURSOR" };

/**
 * The meter headers an answer of a route without a key documents: on a public route, what it
 * still says to a trial key sent with it (when the trial ends); none on an operator route.
 */
type Auth = RouteSpec<any, any, any>["auth"];
const unkeyedHeaders = (auth: Auth): Json => (auth === "none" ? meterRefs(["X-Trial-Expires-At"]) : {});

function errorResponses(codes: ErrorCode[], auth: Auth, strictQuery: boolean, free: boolean, query: string[]): Json {
  const keyed = auth === "key";
  const all = new Set<ErrorCode>(codes);
  // An operator route is, to anyone without the token, a path that does not exist (lib/api/auth.ts).
  if (auth === "admin") all.add("NOT_FOUND");
  // Unknown query parameters are refused on every route but the liveness probe.
  if (strictQuery) all.add("INVALID_PARAMETER");
  if (keyed) for (const c of KEYED_ERRORS) if (!(free && CREDIT_ERRORS.includes(c))) all.add(c);
  // A too-long q, include, select or cursor keeps its parameter's own code (params.ts issueToError).
  for (const [param, code] of Object.entries(PARAM_ERRORS)) if (query.includes(param)) all.add(code);
  // Every route reads its body within a limit (lib/api/body.ts), also one that takes none; a GET's
  // is never read, but one declared past the limit is refused all the same.
  all.add("PAYLOAD_TOO_LARGE");
  all.add("INTERNAL_ERROR");
  const byStatus = new Map<number, ErrorCode[]>();
  for (const c of all) byStatus.set(ERRORS[c][0], [...(byStatus.get(ERRORS[c][0]) ?? []), c]);
  const out: Json = {};
  for (const [status, list] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    out[String(status)] = {
      description: list.map((c) => `\`${c}\`: ${ERRORS[c][1]}`).join("\n\n"),
      headers: {
        "X-Request-Id": { $ref: "#/components/headers/X-Request-Id" },
        "X-Error-Code": { schema: { type: "string", enum: list } },
        "X-Credits-Cost": { $ref: "#/components/headers/X-Credits-Cost" },
        ...(keyed ? meterRefs(status === 429 || status === 503 ? REFUSAL_HEADERS : ERROR_METER_HEADERS) : unkeyedHeaders(auth)),
      },
      content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
    };
  }
  return out;
}

export function buildOpenApi(specs: RouteSpec[], info: { version: string }): Json {
  const components: Json = {};
  schemaOf(ErrorEnvelope, "output", components);
  const paths: Record<string, Json> = {};
  for (const spec of [...specs].sort((a, b) => a.path.localeCompare(b.path))) {
    const keyed = spec.auth === "key";
    const success: Json = {
      description: "OK",
      headers: {
        "X-Request-Id": { $ref: "#/components/headers/X-Request-Id" },
        ...(spec.cacheControl ? { "Cache-Control": { schema: { type: "string", const: spec.cacheControl } } } : {}),
        ...(spec.etag ? { ETag: { schema: { type: "string" }, description: "Strong validator of this exact body." } } : {}),
        ...(spec.cache ? { "X-Cache": { schema: { type: "string", enum: ["HIT", "MISS"] }, description: "Whether this instance answered from its cache of rendered catalogue answers." } } : {}),
        ...(keyed ? { "X-Credits-Cost": { $ref: "#/components/headers/X-Credits-Cost" }, ...meterRefs(SUCCESS_METER_HEADERS) } : unkeyedHeaders(spec.auth)),
      },
      content: spec.responseContentType
        ? { [spec.responseContentType]: { schema: { type: "string", contentEncoding: "binary" } } }
        : { "application/json": { schema: schemaOf(spec.response, "output", components) } },
    };
    const responses: Json = { [String(spec.successStatus ?? 200)]: success };
    if (spec.etag) {
      responses["304"] = {
        description: "Not modified: the If-None-Match ETag still matches. No body, 0 credits.",
        headers: {
          "X-Request-Id": { $ref: "#/components/headers/X-Request-Id" },
          ETag: { schema: { type: "string" }, description: "The validator that matched." },
          "X-Credits-Cost": { $ref: "#/components/headers/X-Credits-Cost" },
          ...(keyed ? meterRefs(ERROR_METER_HEADERS) : unkeyedHeaders(spec.auth)),
        },
      };
    }
    const queryNames = Object.keys((spec.query as { shape?: Record<string, unknown> } | undefined)?.shape ?? {});
    Object.assign(responses, errorResponses(spec.errors, spec.auth, !spec.anyQuery, !!spec.cost.alwaysFree, queryNames));
    const op: Json = {
      operationId: spec.operationId,
      summary: spec.summary,
      description: [spec.description, `**Cost:** ${spec.cost.text}.`, spec.cost.minPlan ? `**Minimum plan:** ${spec.cost.minPlan}; ${TRIAL_TEXT[trialAccess(spec)]}.` : ""]
        .filter(Boolean).join("\n\n"),
      tags: spec.tags,
      parameters: parameters(spec, components),
      responses,
      security: keyed ? [{ ApiKey: [] }, { Bearer: [] }] : spec.auth === "admin" ? [{ AdminToken: [] }] : [],
      "x-credit-cost": spec.cost.text,
      ...(spec.cost.minPlan ? { "x-min-plan": spec.cost.minPlan, "x-trial": trialAccess(spec) } : {}),
    };
    if (spec.body) {
      op.requestBody = { required: !bodyOptional(spec.body), content: { "application/json": { schema: schemaOf(spec.body, "input", components) } } };
    }
    if (spec.rawBody) {
      op.requestBody = { required: true, description: spec.rawBody.description, content: { "application/json": { schema: { type: "object" } } } };
      (op.parameters as Json[]).push({ name: spec.rawBody.signedBy.header, in: "header", required: true, description: spec.rawBody.signedBy.description, schema: { type: "string" } });
    }
    if (spec.upload) {
      op.requestBody = {
        required: true,
        content: { "multipart/form-data": {
          schema: {
            type: "object", required: ["image"],
            properties: { image: { type: "string", contentMediaType: "application/octet-stream", description: `A JPEG, PNG or WebP photo or scan, at most ${spec.upload.maxBytes} bytes.` } },
          },
          encoding: { image: { contentType: "image/jpeg, image/png, image/webp" } },
        } },
      };
    }
    (paths[`/v1${spec.path}`] ??= {})[spec.method.toLowerCase()] = op;
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Pokémon TCG Card Catalogue and Price API",
      version: info.version,
      description:
        "A metered JSON API over the Pokémon trading card game catalogue and its prices. Every call costs credits (see each operation); " +
        "errors share one envelope `{error: {code, message, request_id, details?}}`; lists page by opaque cursor.\n\n" +
        "Every GET route also answers HEAD: the same status and headers without the body, metered and charged as the GET. " +
        "On any path under /v1, a method the path does not serve is `405 METHOD_NOT_ALLOWED` with `Allow`, " +
        "and a request line and headers over 64 KiB are `431 HEADERS_TOO_LARGE`, both in the error envelope with `X-Credits-Cost: 0`. " +
        "Every path also answers OPTIONS (a CORS preflight): 204 with `Allow` and the CORS headers, no key, no credits.\n\n" +
        `A JSON body is limited to ${MAX_JSON_BODY.toLocaleString("en")} bytes on every route that takes one (and on those that take none; ` +
        "a GET's body is never read, so there it is the declared `Content-Length` that counts), " +
        "a photo to the size its operation names: past either, `413 PAYLOAD_TOO_LARGE`.",
    },
    servers: [{ url: "/" }],
    paths,
    components: {
      schemas: components,
      headers: {
        ...METER_HEADERS,
        "X-Request-Id": {
          schema: { type: "string", pattern: KEPT_REQUEST_ID.source },
          description: "Identifies the request in our logs and in GET /v1/me/requests: `req_` and 24 hex digits, the first 12 the time in milliseconds, so that ids sort by time. An X-Request-Id sent with the request (8 to 128 of A-Z, a-z, 0-9, `.`, `_`, `:`, `-`) is answered and logged instead.",
        },
      },
      securitySchemes: {
        ApiKey: { type: "apiKey", in: "header", name: "X-Api-Key" },
        Bearer: { type: "http", scheme: "bearer", description: "The API key as a bearer token." },
        AdminToken: { type: "http", scheme: "bearer", description: "Operators only: ADMIN_TOKEN." },
      },
    },
  };
}
