// The pieces every API route uses: the request as handlers see it, a tiny router, list
// pagination (newest first, limit/starting_after/ending_before) and `expand[]`.

import type { Engine } from "./engine";
import { invalid } from "./errors";
import { int, str, strs, type Params } from "./params";
import type { Store } from "./state";
import type { List, RequestInfo } from "./types";

export interface ApiRequest {
  method: string;
  path: string;
  /** Query string and body parameters together (Stripe reads both). */
  params: Params;
  /** Captures of the route's `:name` segments. */
  args: Record<string, string>;
  info: RequestInfo;
}

export type Handler = (e: Engine, r: ApiRequest) => unknown;

interface Route<H> {
  method: string;
  re: RegExp;
  names: string[];
  handler: H;
}

export class Router<H = Handler> {
  private routes: Route<H>[] = [];

  on(method: string, pattern: string, handler: H): this {
    const names: string[] = [];
    const re = new RegExp(
      `^${pattern.replace(/:([a-z_]+)/g, (_, n: string) => {
        names.push(n);
        return "([^/]+)";
      })}$`,
    );
    this.routes.push({ method, re, names, handler });
    return this;
  }

  match(method: string, path: string): { handler: H; args: Record<string, string> } | null {
    for (const r of this.routes) {
      if (r.method !== method) continue;
      const m = r.re.exec(path);
      if (!m) continue;
      const args: Record<string, string> = {};
      r.names.forEach((n, i) => {
        args[n] = decodeURIComponent(m[i + 1] ?? "");
      });
      return { handler: r.handler, args };
    }
    return null;
  }
}

/** A page of `items` (given newest first), as Stripe's list object. */
export function paginate<T extends { id: string }>(items: T[], p: Params, url: string): List<T> {
  const limit = int(p, "limit") ?? 10;
  if (limit < 1 || limit > 100) throw invalid("Invalid integer: limit must be between 1 and 100", "limit");
  const after = str(p, "starting_after");
  const before = str(p, "ending_before");
  let start = 0;
  let end = items.length;
  if (after) {
    const i = items.findIndex((x) => x.id === after);
    if (i < 0) throw invalid(`No such object: '${after}'`, "starting_after", "resource_missing");
    start = i + 1;
  } else if (before) {
    const i = items.findIndex((x) => x.id === before);
    if (i < 0) throw invalid(`No such object: '${before}'`, "ending_before", "resource_missing");
    end = i;
    start = Math.max(0, end - limit);
  }
  const data = items.slice(start, Math.min(end, start + limit));
  const hasMore = before ? start > 0 : start + limit < end;
  return { object: "list", data, has_more: hasMore, url };
}

/** Values of a record, newest first. */
export function newestFirst<T>(rec: Record<string, T>): T[] {
  return Object.values(rec).reverse();
}

const MAX_DEPTH = 4;

function expandAt(value: unknown, segs: string[], store: Store, full: string): unknown {
  if (Array.isArray(value)) return value.map((v) => expandAt(v, segs, store, full));
  if (segs.length === 0) {
    if (typeof value !== "string") return value;
    const found = store.find(value);
    return found ? structuredClone(found) : value;
  }
  if (value === null || typeof value !== "object") {
    if (value === null || value === undefined) return value;
    // a string id in the middle of the path: expand it, then go on inside
    const found = typeof value === "string" ? store.find(value) : undefined;
    if (!found) throw invalid(`This property cannot be expanded (${full}).`, "expand");
    return expandAt(structuredClone(found), segs, store, full);
  }
  const obj = value as Record<string, unknown>;
  const [head, ...rest] = segs as [string, ...string[]];
  if (!(head in obj)) throw invalid(`This property cannot be expanded (${full}).`, "expand");
  obj[head] = expandAt(obj[head], rest, store, full);
  return obj;
}

/** A copy of `obj` with the `expand[]` paths of the request replaced by the objects they name. */
export function withExpand<T>(obj: T, p: Params, store: Store): T {
  const paths = strs(p, "expand");
  let out = structuredClone(obj) as unknown;
  for (const path of paths) {
    const segs = path.split(".");
    if (segs.length > MAX_DEPTH) throw invalid(`You cannot expand more than ${MAX_DEPTH} levels of a property (${path}).`, "expand");
    out = expandAt(out, segs, store, path);
  }
  return out as T;
}

export function render<T>(obj: T, r: ApiRequest, store: Store): T {
  return withExpand(obj, r.params, store);
}
