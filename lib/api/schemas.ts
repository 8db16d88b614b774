import { z } from "zod";
import { ERRORS } from "./errors";

// Envelopes shared by every route, for validation in tests and for the OpenAPI document.

export const ErrorEnvelope = z.object({
  error: z.object({
    code: z.enum(Object.keys(ERRORS) as [keyof typeof ERRORS, ...(keyof typeof ERRORS)[]]),
    message: z.string(),
    request_id: z.string(),
    details: z.record(z.string(), z.unknown()).optional(),
  }),
}).meta({ id: "Error" });

export const Links = z.object({
  next: z.string().url().optional().meta({ description: "Absolute URL of the next page; present exactly when meta.has_more is true." }),
}).meta({ id: "Links" });

/** A list's envelope; `withheld`: a list of products whose fields or prices a plan may hold back. */
export function listOf<T extends z.ZodType>(item: T, opts: { totalCount: boolean; withheld?: boolean; extraMeta?: z.ZodRawShape }) {
  return z.object({
    data: z.array(item),
    meta: z.object({
      limit: z.number().int(),
      count: z.number().int(),
      ...(opts.totalCount ? { total_count: z.number().int() } : {}),
      has_more: z.boolean(),
      ...(opts.withheld ? {
        withheld: z.array(z.string()).optional().meta({ description: "What the answer left out: `index` (fields a select named without include=index), `prices.graded`, `prices.non_english` (rows the plan does not see)." }),
        plan_notes: z.array(z.string()).optional().meta({ description: "With include=prices: what the plan withheld." }),
      } : {}),
      warnings: z.array(z.string()).optional().meta({ description: "Accounts in the temporary paging compatibility mode: page or offset were ignored (also in a Warning header)." }),
      ...opts.extraMeta,
    }),
    links: Links,
  });
}

export const dataOf = <T extends z.ZodType>(item: T) => z.object({ data: item });
