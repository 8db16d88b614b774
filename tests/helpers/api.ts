import { dispatch } from "@/app/api/v1/router";
import { CLIENT_IP_HEADER, trustClientIpHeader } from "@/lib/api/client-ip";
import { roomyKey } from "./accounts";

// Calls the mounted route handlers the way Next.js does (app/api/v1/router.ts): same modules,
// same exports, a real Request, params resolved from the path. No server, no network.

export const BASE = "http://api.test";

// The tests stand in for the app's server, which sets the caller's address from the socket: a
// call names its address in CLIENT_IP_HEADER (127.0.0.1 unless the test gives one).
trustClientIpHeader();

export type CallInit = RequestInit & { headers?: Record<string, string>; anonymous?: boolean };

/**
 * Calls a route. Without a key of its own (X-Api-Key or Authorization) the request carries the
 * database's roomy test key, unless `anonymous` is set.
 */
export async function call(method: string, pathAndQuery: string, init: CallInit = {}): Promise<Response> {
  const url = new URL(pathAndQuery, BASE);
  const headers: Record<string, string> = { ...init.headers };
  const hasKey = Object.keys(headers).some((h) => /^(x-api-key|authorization)$/i.test(h));
  if (!hasKey && !init.anonymous) headers["x-api-key"] = await roomyKey();
  if (!Object.keys(headers).some((h) => h.toLowerCase() === CLIENT_IP_HEADER)) headers[CLIENT_IP_HEADER] = "127.0.0.1";
  return dispatch(new Request(url, { method, ...init, headers }));
}

export const get = (path: string, headers: Record<string, string> = {}) => call("GET", path, { headers });

/** GET and parse; fails the test on a non-JSON body. */
export async function getJson<T = any>(path: string, headers: Record<string, string> = {}): Promise<{ res: Response; body: T }> {
  const res = await get(path, headers);
  const text = await res.text();
  return { res, body: (text ? JSON.parse(text) : null) as T };
}

/** Follows links.next from a first page until it is absent; returns every row. */
export async function walk<T = any>(first: string, headers: Record<string, string> = {}): Promise<{ rows: T[]; pages: number }> {
  const rows: T[] = [];
  let next: string | undefined = first;
  let pages = 0;
  while (next) {
    const { res, body }: { res: Response; body: any } = await getJson(next, headers);
    if (res.status !== 200) throw new Error(`${next} → ${res.status} ${JSON.stringify(body)}`);
    rows.push(...body.data);
    pages++;
    if (body.meta.has_more !== Boolean(body.links?.next)) throw new Error("meta.has_more disagrees with links.next");
    next = body.links?.next;
    if (pages > 10_000) throw new Error("runaway paging");
  }
  return { rows, pages };
}
