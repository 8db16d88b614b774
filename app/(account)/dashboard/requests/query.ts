import type { z } from "zod";
import { RequestsQuery } from "@/lib/usage/schemas";
import { PAGE, SINCE, type Filters } from "./filters";

// The filters as lib/usage's query takes them, on the server.

export type Parsed = { ok: true; query: z.output<typeof RequestsQuery> } | { ok: false; error: string };

/** lib/usage's query for the filters, `since` turned into `from`; a refused value says which. */
export function toQuery(f: Filters, cursor?: string, now = Date.now()): Parsed {
  const from = f.since ? new Date(now - SINCE[f.since]).toISOString() : f.from;
  const r = RequestsQuery.safeParse({
    key: f.key, route: f.route, status: f.status, error_code: f.error_code, request_id: f.request_id,
    from, to: f.since ? undefined : f.to, limit: PAGE, cursor,
  });
  if (r.success) return { ok: true, query: r.data };
  const issue = r.error.issues[0]!;
  const field = String(issue.path[0] ?? "filter").replace("_", " ");
  return { ok: false, error: `The ${field} filter is not valid: ${issue.message}.` };
}

