import { sql, type SQL } from "drizzle-orm";
import { fieldName } from "@/lib/util/text";
import { ApiError } from "./errors";

// Cursor paging over a total order. Every sort ends with the resource's unique tiebreaker;
// the cursor carries the last row's sort values and the order it was issued for, so a page
// boundary is a keyset condition on indexed columns, never an OFFSET.

export type SortType = "text" | "int" | "bigint" | "float" | "date" | "timestamp";
export type SortColumn = { expr: SQL; type: SortType; nullable: boolean };
/** `listed: false`: accepted, but not among the keys an error lists (SPEC.md fixes the card list). */
export type SortKeyDef = { columns: SortColumn[]; requires?: string; listed?: false };
export type SortSpec = { resource: string; keys: Record<string, SortKeyDef>; tiebreaker: string; default: string };
export type OrderTerm = { key: string; desc: boolean };
export type Order = { terms: OrderTerm[]; signature: string; columns: (SortColumn & { desc: boolean })[] };

export const MAX_SORT_KEYS = 4;
export const MAX_LIMIT = 250;

export function col(expr: SQL, type: SortType, nullable = true): SortColumn {
  return { expr, type, nullable };
}

/** The sort keys an error names as valid. */
export const listedKeys = (spec: SortSpec) => Object.keys(spec.keys).filter((k) => spec.keys[k]!.listed !== false);

export function parseOrderBy(spec: SortSpec, input: { orderBy?: string; order_by?: string }, included: Set<string> = new Set()): Order {
  if (input.orderBy !== undefined && input.order_by !== undefined && input.orderBy !== input.order_by) {
    throw new ApiError("INVALID_PARAMETER", "orderBy and order_by are the same parameter; send one.", { parameter: "orderBy" });
  }
  const raw = (input.orderBy ?? input.order_by ?? "").trim() || spec.default;
  const parts = raw.split(",").map((s) => s.trim());
  const valid = listedKeys(spec);
  if (parts.some((p) => !p || p === "-")) {
    throw new ApiError("INVALID_PARAMETER", `orderBy '${raw}' has an empty key.`, { parameter: "orderBy", valid_fields: valid });
  }
  if (parts.length > MAX_SORT_KEYS) {
    throw new ApiError("INVALID_PARAMETER", `orderBy takes at most ${MAX_SORT_KEYS} keys.`, {
      parameter: "orderBy", max: MAX_SORT_KEYS, requested: parts.length,
    });
  }
  const terms: OrderTerm[] = [];
  for (const p of parts) {
    const desc = p.startsWith("-");
    const key = fieldName(p.replace(/^[-+]/, ""), Object.keys(spec.keys));
    // Own keys only: `constructor` or `__proto__` must not resolve through Object.prototype.
    const def = Object.hasOwn(spec.keys, key) ? spec.keys[key] : undefined;
    if (!def) {
      throw new ApiError("INVALID_PARAMETER", `Cannot sort by '${key}'.`, { parameter: "orderBy", value: key, valid_fields: valid });
    }
    if (def.requires && !included.has(def.requires)) {
      throw new ApiError("INVALID_PARAMETER", `orderBy=${key} needs include=${def.requires}: the field is not included.`, {
        parameter: "orderBy", value: key, requires_include: def.requires,
      });
    }
    if (terms.some((t) => t.key === key)) {
      throw new ApiError("INVALID_PARAMETER", `orderBy names '${key}' twice.`, { parameter: "orderBy", value: key });
    }
    terms.push({ key, desc });
  }
  // Every order ends with the tiebreaker; naming it only sets its direction (SPEC.md Pagination
  // rule 4): wherever it was named, it moves to the end, keeping the direction it was given.
  // Appended, it ascends; descending sorts have indexes of their own for that mixed order.
  const tie = terms.findIndex((t) => t.key === spec.tiebreaker);
  terms.push(tie === -1 ? { key: spec.tiebreaker, desc: false } : terms.splice(tie, 1)[0]!);
  const columns = terms.flatMap((t) => spec.keys[t.key]!.columns.map((c) => ({ ...c, desc: t.desc })));
  return { terms, signature: terms.map((t) => (t.desc ? `-${t.key}` : t.key)).join(","), columns };
}

export function orderBySql(order: Order): SQL {
  // PostgreSQL's defaults are the contract: NULLS LAST ascending, NULLS FIRST descending.
  return sql.join(order.columns.map((c) => (c.desc ? sql`${c.expr} desc` : sql`${c.expr} asc`)), sql`, `);
}

/**
 * Sort values selected alongside each row, as `__k0…`, for building the next cursor. The
 * drivers hand timestamps back as PostgreSQL's text, microseconds included: a value rounded
 * to milliseconds would make the next page skip or repeat rows.
 */
export function sortKeySelect(order: Order): SQL {
  return sql.join(order.columns.map((c, i) => sql`${c.expr} as ${sql.identifier(`__k${i}`)}`), sql`, `);
}

/** The same order over the `__k` columns of a subquery that selected them. */
export function orderBySqlOuter(order: Order, alias?: string): SQL {
  const prefix = alias ? sql`${sql.identifier(alias)}.` : sql``;
  return sql.join(
    order.columns.map((c, i) => sql`${prefix}${sql.identifier(`__k${i}`)} ${sql.raw(c.desc ? "desc" : "asc")}`),
    sql`, `,
  );
}

type CursorPayload = { r: string; o: string; k: unknown[] };

export function encodeCursor(spec: SortSpec, order: Order, row: Record<string, unknown>): string {
  const k = order.columns.map((_, i) => row[`__k${i}`] ?? null);
  const payload: CursorPayload = { r: spec.resource, o: order.signature, k };
  return Buffer.from(JSON.stringify(payload)).toString("base64url");
}

const INT4 = 2_147_483_647;

/** A real calendar date PostgreSQL accepts: year 1 to 9999, month and day that exist. */
function validDate(v: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (y < 1 || mo < 1 || mo > 12 || d < 1) return false;
  return d <= new Date(Date.UTC(2000, mo, 0)).getUTCDate() && (mo !== 2 || d < 29 || new Date(Date.UTC(y, 1, 29)).getUTCDate() === 29);
}

/** PostgreSQL refuses a UTC offset of 16 hours or more ("time zone displacement out of range"). */
function validOffset(hours: string | undefined, minutes: string | undefined): boolean {
  return (hours === undefined || Number(hours) < 16) && (minutes === undefined || Number(minutes) < 60);
}

// A cursor is opaque but travels through clients: every value is checked against its
// column's type before it reaches SQL, so a crafted cursor is a 400, never a database error.
function validValue(v: unknown, c: SortColumn): boolean {
  if (v === null) return c.nullable;
  switch (c.type) {
    case "text": return typeof v === "string" && v.length <= 1000 && !v.includes("\u0000");
    case "int": return Number.isInteger(v) && Math.abs(v as number) <= INT4;
    // The drivers hand int8 back as text.
    case "bigint": return (typeof v === "string" && /^-?\d{1,18}$/.test(v)) || Number.isSafeInteger(v);
    case "float": return typeof v === "number" && Number.isFinite(v);
    case "date": return typeof v === "string" && validDate(v);
    case "timestamp": {
      if (typeof v !== "string") return false;
      const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}):(\d{2}):(\d{2})(\.\d{1,6})?(?:[+-](\d{2})(?::?(\d{2}))?|Z)?$/.exec(v);
      return !!m && validDate(m[1]!) && Number(m[2]) < 24 && Number(m[3]) < 60 && Number(m[4]) < 60 && validOffset(m[6], m[7]);
    }
  }
}

/** The refusal of a cursor that cannot be read (SPEC.md: INVALID_CURSOR), wherever it is found so. */
export const malformedCursor = () => new ApiError("INVALID_CURSOR", "The cursor is malformed. Follow links.next verbatim.", { parameter: "cursor" });

/**
 * The cursor of a list that pages by a value of its own rather than a sort's keys (an invoice's
 * id, an audit entry's): base64url JSON like every cursor, `write` making its payload and `read`
 * taking the value back, or undefined for a payload this list did not issue (INVALID_CURSOR).
 */
export function ownCursor<T>(write: (value: T) => unknown, read: (payload: any) => T | undefined) {
  return {
    encode: (value: T) => Buffer.from(JSON.stringify(write(value))).toString("base64url"),
    decode(cursor: string): T {
      let value: T | undefined;
      try {
        value = read(JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")));
      } catch {
        // refused below
      }
      if (value === undefined) throw malformedCursor();
      return value;
    },
  };
}

export function decodeCursor(raw: string, spec: SortSpec, order: Order): unknown[] {
  let payload: CursorPayload;
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(raw)) throw new Error("alphabet");
    payload = JSON.parse(Buffer.from(raw, "base64url").toString("utf8")) as CursorPayload;
  } catch {
    throw malformedCursor();
  }
  if (!payload || typeof payload !== "object" || !Array.isArray(payload.k) || typeof payload.o !== "string") {
    throw malformedCursor();
  }
  if (payload.r !== spec.resource) {
    throw new ApiError("INVALID_CURSOR", "The cursor was issued by another list. Follow this list's links.next verbatim.", { parameter: "cursor" });
  }
  if (payload.o !== order.signature) {
    throw new ApiError("INVALID_CURSOR", "The cursor was issued for a different orderBy.", {
      parameter: "cursor", cursor_order_by: payload.o, order_by: order.signature,
    });
  }
  if (payload.k.length !== order.columns.length || !payload.k.every((v, i) => validValue(v, order.columns[i]!))) {
    throw malformedCursor();
  }
  return payload.k;
}

function typed(v: unknown, c: SortColumn): SQL {
  switch (c.type) {
    case "int": return sql`${v}::int`;
    case "bigint": return sql`${v}::bigint`;
    case "float": return sql`${v}::float8`;
    case "date": return sql`${v}::date`;
    case "timestamp": return sql`${v}::timestamptz`;
    default: return sql`${v}::text`;
  }
}

/**
 * Rows strictly after the cursor row in the order: an OR-chain over the key prefix, with the
 * null rules of the order (nulls last ascending, first descending). The leading bound on the
 * first column lets PostgreSQL start the index scan at the cursor instead of the beginning.
 */
export function keysetWhere(order: Order, values: unknown[]): SQL {
  const cols = order.columns;
  const eq = (i: number): SQL => (values[i] === null ? sql`${cols[i]!.expr} is null` : sql`${cols[i]!.expr} = ${typed(values[i], cols[i]!)}`);
  const after = (i: number): SQL | null => {
    const c = cols[i]!;
    const v = values[i];
    if (c.desc) {
      if (v === null) return c.nullable ? sql`${c.expr} is not null` : null;
      return sql`${c.expr} < ${typed(v, c)}`;
    }
    if (v === null) return null; // nothing sorts after a null ascending
    return c.nullable ? sql`(${c.expr} > ${typed(v, c)} or ${c.expr} is null)` : sql`${c.expr} > ${typed(v, c)}`;
  };
  const branches: SQL[] = [];
  for (let i = 0; i < cols.length; i++) {
    const a = after(i);
    if (!a) continue;
    const prefix = Array.from({ length: i }, (_, j) => eq(j));
    branches.push(sql`(${sql.join([...prefix, a], sql` and `)})`);
  }
  if (!branches.length) return sql`false`;
  const chain = sql`(${sql.join(branches, sql` or `)})`;
  const first = cols[0]!;
  const v0 = values[0];
  if (!first.nullable && v0 !== null) {
    return sql`${first.expr} ${first.desc ? sql.raw("<=") : sql.raw(">=")} ${typed(v0, first)} and ${chain}`;
  }
  return chain;
}
