import { z } from "zod";
import { instant } from "@/lib/api/params";
import { ERRORS, type ErrorCode } from "@/lib/api/errors";
import { cursorParam, decimal, limitParam } from "@/lib/api/params";
import { listOf } from "@/lib/api/schemas";

const ts = z.string().meta({ description: "RFC 3339 timestamp" });
const instantAt = instant();

export const STATUS_CLASSES = ["2xx", "3xx", "4xx", "5xx"] as const;

export const RequestsQuery = z.strictObject({
  key: z.string().min(1).max(100).optional().meta({ description: "A key's id (`key_...`): only its calls." }),
  route: z.string().min(1).max(200).optional().meta({ description: "A route's path template, `/v1/cards/{id}`, optionally after its method: `GET /v1/cards/{id}`." }),
  status: z.string().regex(/^([2-5]xx|[1-5][0-9]{2})$/, "a status class (2xx, 3xx, 4xx, 5xx) or a status code").optional()
    .meta({ description: "A status class (`4xx`) or an exact status (`429`)." }),
  error_code: z.enum(Object.keys(ERRORS) as [ErrorCode, ...ErrorCode[]]).optional().meta({ description: "An error code of the API's (SPEC.md's table and this document's), such as `RATE_LIMITED`." }),
  request_id: z.string().min(1).max(128).optional().meta({ description: "The X-Request-Id of an answer: finds its row." }),
  from: instantAt.optional().meta({ description: "Calls at or after this instant (RFC 3339)." }),
  to: instantAt.optional().meta({ description: "Calls before this instant (RFC 3339)." }),
  limit: limitParam(),
  cursor: cursorParam,
});

export const RequestObject = z.object({
  request_id: z.string(),
  at: ts,
  key: z.object({
    id: z.string(), name: z.string(), prefix: z.string(),
    deleted: z.boolean().meta({ description: "The key was deleted, or rotated away, since: its secret no longer works." }),
  }).nullable().meta({ description: "The key that made the call, also once deleted; null for a call without a key row." }),
  method: z.string(),
  route: z.string().meta({ description: "Path template, `/v1/cards/{id}`." }),
  status: z.number().int(),
  error_code: z.string().nullable(),
  credits: z.number().int().meta({ description: "Credits the call finally cost (0 when refunded or refused)." }),
  cards_added: z.number().int().meta({ description: "Distinct cards the call added to the period's allowance." }),
  refunded: z.boolean().meta({ description: "It reached the meter and was given back (an error answer, a 304)." }),
  latency_ms: z.number().meta({ description: "Time to the answer inside the server." }),
}).meta({ id: "RequestLogEntry" });

export const RequestsResponse = listOf(RequestObject, { totalCount: false });

export const RANGES = ["24h", "7d", "30d", "period"] as const;
export const GROUPS = ["route", "key", "status"] as const;

export const UsageQuery = z.strictObject({
  days: decimal(z.coerce.number().int().min(1).max(400).default(30)).meta({ description: "Days back from today (UTC), 1 to 400: the `days` and `routes` from the ledger." }),
  range: z.enum(RANGES).optional().meta({ description: "The analytics' window: 24h: the hours from the one that began 24 hours ago to the current one (25 hourly buckets, both ends partly); 7d or 30d: days from UTC midnight; period: the current credit period. Default 30d." }),
  granularity: z.enum(["hour", "day"]).optional().meta({ description: "Buckets of `series`; default hour for 24h, day otherwise." }),
  group_by: z.enum(GROUPS).optional().meta({ description: "Splits `series` and `groups` by route (method and template), key or status." }),
});

const Sums = { requests: z.number().int(), credits: z.number().int(), refunds: z.number().int(), cards_added: z.number().int() };

export const UsageResponse = z.object({
  data: z.object({
    from: z.string(), to: z.string(),
    totals: z.object({ requests: z.number(), credits: z.number(), refunds: z.number() }),
    days: z.array(z.object({ date: z.string(), requests: z.number(), credits: z.number(), refunds: z.number(), new_cards: z.number() })),
    routes: z.array(z.object({
      route: z.string().meta({ description: "Method and path template, as the request log and `analytics` name it.", example: "GET /v1/cards/{id}" }),
      operation_id: z.string().meta({ description: "The route's operationId in this document.", example: "getCard" }),
      requests: z.number(), credits: z.number(), refunds: z.number(),
    })),
    analytics: z.object({
      range: z.enum(RANGES), granularity: z.enum(["hour", "day"]), group_by: z.enum(GROUPS).nullable(),
      from: ts, to: ts,
      totals: z.object(Sums),
      series: z.array(z.object({
        start: ts, ...Sums,
        groups: z.record(z.string(), z.object(Sums)).optional().meta({ description: "With group_by: this bucket's sums per group." }),
      })),
      groups: z.array(z.object({ group: z.string(), label: z.string(), ...Sums })).meta({ description: "With group_by: the window's sums per group, most credits first; else empty." }),
      cards: z.object({ used: z.number().int(), limit: z.number().int().nullable() }).meta({ description: "The distinct-card allowance's use this period." }),
    }).meta({ description: "From the request log's hourly sums (kept 62 days); requests count refused calls, credits only what was charged." }),
  }),
}).meta({ id: "Usage" });
