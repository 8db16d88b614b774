// Typed reads of parsed request parameters, failing the way Stripe fails (400 with `param`).

import { invalid } from "./errors";
import type { FormObject, FormValue } from "./form";
import type { Metadata } from "./types";

export type Params = FormObject;

/** Refuses parameters the endpoint does not know (Stripe: `parameter_unknown`). */
export function allowOnly(p: Params, allowed: readonly string[]): void {
  for (const k of Object.keys(p)) {
    if (k === "expand" || allowed.includes(k)) continue;
    throw invalid(`Received unknown parameter: ${k}`, k, "parameter_unknown");
  }
}

export function str(p: Params, key: string, path = key): string | undefined {
  const v = p[key];
  if (v === undefined) return undefined;
  if (typeof v !== "string") throw invalid(`Invalid string: ${path}`, path, "parameter_invalid_string");
  return v;
}

export function reqStr(p: Params, key: string, path = key): string {
  const v = str(p, key, path);
  if (v === undefined || v === "") throw invalid(`Missing required param: ${path}.`, path, "parameter_missing");
  return v;
}

export function bool(p: Params, key: string, path = key): boolean | undefined {
  const v = str(p, key, path);
  if (v === undefined) return undefined;
  if (v === "true") return true;
  if (v === "false") return false;
  throw invalid(`Invalid boolean: ${v}`, path, "parameter_invalid_boolean");
}

export function int(p: Params, key: string, path = key): number | undefined {
  const v = str(p, key, path);
  if (v === undefined || v === "") return undefined;
  if (!/^-?\d+$/.test(v)) throw invalid(`Invalid integer: ${v}`, path, "parameter_invalid_integer");
  return Number(v);
}

export function obj(p: Params, key: string, path = key): Params | undefined {
  const v = p[key];
  if (v === undefined || v === "") return undefined;
  if (typeof v === "string" || Array.isArray(v)) throw invalid(`Invalid hash: ${path}`, path, "parameter_invalid_hash");
  return v;
}

export function arr(p: Params, key: string, path = key): FormValue[] | undefined {
  const v = p[key];
  if (v === undefined || v === "") return undefined;
  if (!Array.isArray(v)) throw invalid(`Invalid array: ${path}`, path, "parameter_invalid_array");
  return v;
}

/** Elements of an array of hashes (`items[0][price]` …). */
export function objs(p: Params, key: string): Params[] {
  return (arr(p, key) ?? []).map((v, i) => {
    if (typeof v === "string" || Array.isArray(v)) throw invalid(`Invalid hash: ${key}[${i}]`, `${key}[${i}]`);
    return v;
  });
}

export function strs(p: Params, key: string): string[] {
  return (arr(p, key) ?? []).map((v, i) => {
    if (typeof v !== "string") throw invalid(`Invalid string: ${key}[${i}]`, `${key}[${i}]`);
    return v;
  });
}

/** Stripe's metadata update: keys set, a key set to "" removed, `metadata=""` clears all. */
export function applyMetadata(target: Metadata, p: Params, key = "metadata"): void {
  const v = p[key];
  if (v === undefined) return;
  if (v === "") {
    for (const k of Object.keys(target)) delete target[k];
    return;
  }
  const m = obj(p, key);
  if (!m) return;
  for (const [k, val] of Object.entries(m)) {
    if (typeof val !== "string") throw invalid(`Invalid metadata value for ${k}`, `${key}[${k}]`);
    if (val === "") delete target[k];
    else target[k] = val;
  }
}

export function metadataOf(p: Params, key = "metadata"): Metadata {
  const out: Metadata = {};
  applyMetadata(out, p, key);
  return out;
}
