import { pastedRequestId } from "../format";

// The request log's filters as the page's URL holds them: plain functions, which the filter form
// uses in the browser too (query.ts turns them into lib/usage's query on the server). `since`
// (1h, 24h, 7d, 30d) is a window relative to now, so that a shared link keeps showing the latest
// calls; `from`/`to` are exact instants (UTC).

export const SINCE = { "1h": 3_600_000, "24h": 86_400_000, "7d": 7 * 86_400_000, "30d": 30 * 86_400_000 } as const;
export type Since = keyof typeof SINCE;
export const PAGE = 50;

export type Filters = {
  key?: string; route?: string; status?: string; error_code?: string; request_id?: string;
  since?: Since; from?: string; to?: string;
};
export const FILTER_NAMES = ["key", "route", "status", "error_code", "request_id", "since", "from", "to"] as const;

const clean = (v: unknown): string | undefined => {
  const s = Array.isArray(v) ? v[0] : v;
  return typeof s === "string" && s.trim() ? s.trim().slice(0, 300) : undefined;
};

/** A datetime-local value (no offset) is read as UTC; a full RFC 3339 instant as it is. */
function instant(v: string | undefined): string | undefined {
  if (!v) return undefined;
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(v)) return `${v.length === 16 ? `${v}:00` : v}Z`;
  return v;
}

/** The filters of a URL's query, tidied: a pasted request id reduced to the id, codes upper-cased. */
export function readFilters(sp: Record<string, unknown>): Filters {
  const f: Filters = {};
  const key = clean(sp.key);
  if (key) f.key = key;
  const route = clean(sp.route);
  if (route) f.route = route;
  const status = clean(sp.status)?.toLowerCase();
  if (status) f.status = status;
  const code = clean(sp.error_code)?.toUpperCase().replace(/\s+/g, "_");
  if (code) f.error_code = code;
  const id = pastedRequestId(clean(sp.request_id));
  if (id) f.request_id = id;
  const since = clean(sp.since);
  // Own keys only: `in` also finds toString and constructor (a 500 further on).
  if (since && Object.hasOwn(SINCE, since)) f.since = since as Since;
  // A relative window replaces exact times.
  const from = f.since ? undefined : instant(clean(sp.from));
  if (from) f.from = from;
  const to = f.since ? undefined : instant(clean(sp.to));
  if (to) f.to = to;
  return f;
}

/** The URL's query of a set of filters (empty values left out). */
export function filterSearch(f: Filters): string {
  const q = new URLSearchParams();
  for (const name of FILTER_NAMES) if (f[name]) q.set(name, f[name]!);
  return q.toString();
}

/** The cursor of a links.next URL. */
export function cursorOf(next: string | undefined): string | null {
  if (!next) return null;
  try {
    return new URL(next, "http://x").searchParams.get("cursor");
  } catch {
    return null;
  }
}
