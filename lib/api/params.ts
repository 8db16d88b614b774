import { z } from "zod";
import { ApiError, type ErrorCode } from "./errors";
import { MAX_LIMIT } from "./paging";

// Shared query parameters. Each is a zod schema: it validates the request and, through
// z.toJSONSchema, documents itself in the OpenAPI document.

// The lang table of SPEC.md plus ko: the reference vocabulary lists Korean, and its values are
// never rejected as unsupported.
export const LANGS = ["en", "fr", "de", "ja", "it", "es", "pt", "zh", "ko"] as const;
export type Lang = (typeof LANGS)[number];

// Written as a decimal number: coercion also took `1e2`, `0x10`, ` 5` and `Infinity`.
const digitsOnly = (v: unknown) => (typeof v === "string" && !/^-?\d+(\.\d+)?$/.test(v) ? Number.NaN : v);

/** A number query parameter, written as a decimal number. */
export const decimal = <T extends z.ZodType>(schema: T) => z.preprocess(digitsOnly, schema);

/**
 * An RFC 3339 instant the database can hold, given back in UTC: zod's pattern also takes year
 * 0000 and offsets up to ±23:59, which PostgreSQL refuses (they answered 500). Offsets in use
 * reach ±14:00.
 */
export const instant = () =>
  z.iso.datetime({ offset: true })
    .refine(holdable, { message: "must be an instant from the year 1 to 9999, with an offset of at most ±14:00" })
    .transform((v) => new Date(v).toISOString());

function holdable(v: string): boolean {
  const off = /([+-])(\d\d):(\d\d)$/.exec(v);
  if (off && Number(off[2]) * 60 + Number(off[3]) > 14 * 60) return false;
  const t = Date.parse(v);
  if (Number.isNaN(t)) return false;
  const year = new Date(t).getUTCFullYear();
  return year >= 1 && year <= 9999;
}

export const limitParam = (def = 50) =>
  decimal(z.coerce.number().int().min(1).max(MAX_LIMIT).default(def))
    .meta({ description: `Page size, 1 to ${MAX_LIMIT}. Above ${MAX_LIMIT}: 400 LIMIT_EXCEEDED.` });

export const cursorParam = z.string().max(4000).optional()
  .meta({ description: "Opaque cursor from links.next; bound to the list, and to the orderBy where the list takes one." });

export const orderByParam = (keys: readonly string[], def: string, more = "") =>
  z.string().max(200).optional().meta({
    description: `Up to four comma-separated keys of ${keys.join(", ")}; a leading '-' sorts descending. Default ${def}. ` +
      `The tiebreaker always comes last; naming it sets its direction.${more ? ` ${more}` : ""}`,
    example: def,
  });

export const orderByAlias = z.string().max(200).optional().meta({ description: "Accepted spelling of orderBy." });

export const langParam = z.enum(LANGS).optional().meta({
  description: "Language of names. A record without a translation in that language falls back to English.",
});

export const selectParam = (fields: readonly string[]) =>
  z.string().max(2000).optional().meta({
    description: `Comma-separated fields (camelCase or snake_case); id is always included. One of: ${fields.join(", ")}.`,
  });

export const includeParam = (values: readonly string[], note = "") =>
  z.string().max(200).optional().meta({
    description: `Comma-separated, from: ${values.join(", ")}. Anything else is INVALID_INCLUDE.${note ? ` ${note}` : ""}`,
  });

/** The longest card query (the query language's `q`); a plain-text `q` (names, words) has its own, shorter limit. */
const QUERY_MAX = 1000;
export const qParam = (description: string) => z.string().max(QUERY_MAX).optional().meta({ description });

export const PAGING_PARAMS = ["page", "offset"];

/** The first problem of a failed parse, as the error a client can act on; `raw` is what was parsed (flat: query or path parameters). */
export function issueToError(issue: z.core.$ZodIssue, where: "query" | "path" | "body" | "header", validParams: string[], raw?: unknown): ApiError {
  const param = issue.path.map(String).join(".");
  const custom = (issue as { params?: { code?: ErrorCode; details?: Record<string, unknown> } }).params;
  if (issue.code === "custom" && custom?.code) return new ApiError(custom.code, issue.message, custom.details);
  if (where === "header") {
    return new ApiError("INVALID_PARAMETER", `Header ${param}: ${issue.code === "invalid_type" ? "required" : issue.message}.`, { header: param });
  }
  if (where === "body") {
    // An unknown field is named itself, as an unknown query parameter is.
    const field = issue.code === "unrecognized_keys" ? [param, issue.keys[0]].filter(Boolean).join(".") : param;
    const message = issue.code === "unrecognized_keys" ? `Unknown field '${field}'.` : param ? `${param}: ${issue.message}` : issue.message;
    return new ApiError("INVALID_PARAMETER", message, { parameter: field || "body" });
  }
  if (issue.code === "unrecognized_keys") {
    const key = issue.keys[0]!;
    if (PAGING_PARAMS.includes(key)) {
      return new ApiError("INVALID_PARAMETER", `'${key}' is not supported: lists page with an opaque cursor.`, {
        parameter: key, did_you_mean: "cursor",
      });
    }
    return new ApiError("INVALID_PARAMETER", `Unknown parameter '${key}'.`, { parameter: key, valid_parameters: validParams });
  }
  // A number parameter names what it was sent: zod's own message reports the coerced NaN.
  if (issue.code === "invalid_type" && (issue.expected === "number" || issue.expected === "int")) {
    const sent = (raw as Record<PropertyKey, unknown> | undefined)?.[issue.path[0]!];
    const got = typeof sent === "string" ? ` (got '${sent.length > 40 ? `${sent.slice(0, 40)}…` : sent}')` : "";
    return new ApiError("INVALID_PARAMETER", `${param} must be ${issue.expected === "int" ? "a whole number" : "a number"}${got}.`, { parameter: param });
  }
  // A parameter with its own error code keeps it when it is merely too long: a card query's `q`
  // (qParam) is INVALID_QUERY; a plain-text one (an artist's name, a set's words) is a parameter
  // like any other, and SPEC.md lists no INVALID_QUERY on those routes.
  const max = (issue as { maximum?: unknown }).maximum;
  const own: Partial<Record<string, ErrorCode>> = { cursor: "INVALID_CURSOR", include: "INVALID_INCLUDE", select: "INVALID_SELECT_FIELD", ...(max === QUERY_MAX ? { q: "INVALID_QUERY" } : {}) };
  if (issue.code === "too_big" && (own[param] || (issue as { origin?: string }).origin === "string")) {
    const code = own[param] ?? "INVALID_PARAMETER";
    // INVALID_QUERY's details.position points at the problem: the first character past the limit.
    const at = code === "INVALID_QUERY" && typeof max === "number" ? { position: max } : {};
    return new ApiError(code, `${param} is too long: ${issue.message}`, { parameter: param, max_length: max, ...at });
  }
  if (param === "limit" && issue.code === "too_big") {
    // The route's own maximum, which details.max must state (MAX_LIMIT unless it allows fewer).
    const { input: requested, maximum } = issue as { input?: unknown; maximum?: unknown };
    // A limit past 2^53 fails zod's safe-integer bound first, whose maximum is no route's.
    const max = typeof maximum === "number" && maximum <= MAX_LIMIT ? maximum : MAX_LIMIT;
    return new ApiError("LIMIT_EXCEEDED", `limit may be at most ${max}.`, { max, requested: typeof requested === "number" ? requested : undefined });
  }
  if (issue.code === "invalid_value" && "values" in issue) {
    return new ApiError("INVALID_PARAMETER", `${param} must be one of ${issue.values.join(", ")}.`, {
      parameter: param, valid_values: issue.values,
    });
  }
  return new ApiError("INVALID_PARAMETER", `${param}: ${issue.message}`, { parameter: param });
}
