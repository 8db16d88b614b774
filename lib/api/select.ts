import { fieldName } from "@/lib/util/text";
import { ApiError } from "./errors";

function list(raw: string | undefined): string[] {
  return (raw ?? "").split(",").map((s) => s.trim()).filter(Boolean);
}

/**
 * `select`: comma-separated field names, camelCase or snake_case, answered in snake_case.
 * `id` is always part of the answer. Undefined when the client selected nothing.
 */
export function parseSelect(raw: string | undefined, valid: readonly string[]): Set<string> | undefined {
  const names = list(raw);
  if (!names.length) return undefined;
  const set = new Set<string>(["id"]);
  for (const n of names) {
    const field = fieldName(n, valid);
    if (!valid.includes(field)) {
      throw new ApiError("INVALID_SELECT_FIELD", `Unknown select field '${n}'.`, { field: n, valid_fields: [...valid] });
    }
    set.add(field);
  }
  return set;
}

/** `include`: comma-separated names from a fixed list; anything else is INVALID_INCLUDE. */
export function parseInclude<T extends string>(raw: string | undefined, valid: readonly T[]): Set<T> {
  const out = new Set<T>();
  for (const n of list(raw)) {
    const v = n.toLowerCase() as T;
    if (!valid.includes(v)) {
      throw new ApiError("INVALID_INCLUDE", `include=${n} is not accepted here.`, { value: n, valid_values: [...valid] });
    }
    out.add(v);
  }
  return out;
}

/** Keeps the selected fields of a row, in the row's own order. */
export function project<T extends Record<string, unknown>>(row: T, fields: Set<string> | undefined): Partial<T> {
  if (!fields) return row;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(row)) if (fields.has(k)) out[k] = row[k];
  return out as Partial<T>;
}
