import { expect } from "vitest";
import { query } from "./db";
import { call } from "./api";

// Assertions shared by the integration files: the error envelope, and "this sequence of rows
// is in this order" with the SPEC.md null rules.

export type ErrorBody = { error: { code: string; message: string; request_id: string; details?: Record<string, any> } };

/**
 * Every error is the SPEC.md envelope {error: {code, message, request_id, details?}}, JSON,
 * and X-Request-Id equals error.request_id.
 */
export function expectEnvelope(res: Response, body: unknown): ErrorBody["error"] {
  expect(res.headers.get("content-type") ?? "").toMatch(/^application\/json/);
  const b = body as ErrorBody;
  expect(Object.keys(b)).toEqual(["error"]);
  expect(typeof b.error.code).toBe("string");
  expect(b.error.code).toMatch(/^[A-Z][A-Z_]+$/);
  expect(typeof b.error.message).toBe("string");
  expect(b.error.message.length).toBeGreaterThan(0);
  expect(typeof b.error.request_id).toBe("string");
  expect(b.error.request_id.length).toBeGreaterThan(0);
  for (const k of Object.keys(b.error)) expect(["code", "message", "request_id", "details"]).toContain(k);
  if (b.error.details !== undefined) expect(typeof b.error.details).toBe("object");
  expect(res.headers.get("x-request-id")).toBe(b.error.request_id);
  // SPEC.md Errors: every 4xx and 5xx is refunded, and says so.
  expect(res.headers.get("x-credits-cost")).toBe("0");
  return b.error;
}

/** Calls a path and expects an error of this status and code in the envelope; returns error. */
export async function expectError(path: string, status: number, code: string, method = "GET", headers: Record<string, string> = {}) {
  const res = await call(method, path, { headers });
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`${method} ${path} → ${res.status}, body is not JSON: ${text.slice(0, 200)}`);
  }
  expect({ path, status: res.status, code: (body as ErrorBody).error?.code }).toEqual({ path, status, code });
  return { res, error: expectEnvelope(res, body) };
}

// ── ordering ─────────────────────────────────────────────────────────────────

export type SortKey<R> = { get: (row: R) => string | number | null; desc: boolean; text?: boolean };

/**
 * Ranks of text values in the database's own collation, so order checks hold whatever the
 * server's locale (ties share a rank).
 */
export async function collationRank(values: Iterable<string>): Promise<Map<string, number>> {
  const distinct = [...new Set(values)];
  if (!distinct.length) return new Map();
  const sorted = await query<{ v: string; r: number }>(
    "select v, (dense_rank() over (order by v))::int as r from unnest($1::text[]) v",
    [distinct],
  );
  return new Map(sorted.map((x) => [x.v, x.r]));
}

/** Comparator over sort keys: nulls last ascending, first descending (SPEC.md Pagination 5). */
export async function comparator<R>(keys: SortKey<R>[], rows: R[]): Promise<(a: R, b: R) => number> {
  const texts: string[] = [];
  for (const k of keys) if (k.text) for (const r of rows) { const v = k.get(r); if (typeof v === "string") texts.push(v); }
  const rank = await collationRank(texts);
  const val = (k: SortKey<R>, r: R) => {
    const v = k.get(r);
    return v !== null && k.text ? rank.get(v as string)! : v;
  };
  return (a, b) => {
    for (const k of keys) {
      const x = val(k, a);
      const y = val(k, b);
      if (x === y) continue;
      if (x === null) return k.desc ? -1 : 1;
      if (y === null) return k.desc ? 1 : -1;
      const c = x < y ? -1 : 1;
      return k.desc ? -c : c;
    }
    return 0;
  };
}

/** Asserts rows are strictly increasing under the keys: sorted, and no two rows tie (a total order). */
export async function expectStrictOrder<R>(rows: R[], keys: SortKey<R>[], label: (r: R) => string) {
  const cmp = await comparator(keys, rows);
  for (let i = 1; i < rows.length; i++) {
    if (!(cmp(rows[i - 1]!, rows[i]!) < 0)) {
      throw new Error(`out of order at ${i}: ${label(rows[i - 1]!)} then ${label(rows[i]!)}`);
    }
  }
}

/** Numeric part of a printed number, as SPEC.md describes the number sort: `1S` → 1, none → null. */
export function numericPart(number: string): number | null {
  const m = /\d+/.exec(number);
  return m ? Number(m[0]) : null;
}
