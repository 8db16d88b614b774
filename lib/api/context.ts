import { AsyncLocalStorage } from "node:async_hooks";
import { env } from "@/lib/env";

// The request a route's handler is answering, for the few answers that print absolute URLs of
// the app itself (card image links) without every lib function taking the request.
const store = new AsyncLocalStorage<Request>();

export const withRequest = <T>(req: Request, fn: () => Promise<T>): Promise<T> => store.run(req, fn);
export const currentRequest = (): Request | undefined => store.getStore();

/**
 * Public origin for links: PUBLIC_BASE_URL when set (production behind a proxy), else the Host
 * the client called. X-Forwarded-* is trusted only with TRUST_PROXY=1: any client can send it,
 * and a link built from it would send the next request, key included, to that host.
 */
export function publicOrigin(req: Request): string {
  const { PUBLIC_BASE_URL, TRUST_PROXY } = env();
  if (PUBLIC_BASE_URL) return PUBLIC_BASE_URL.replace(/\/+$/, "");
  const url = new URL(req.url);
  const forwarded = (h: string) => (TRUST_PROXY ? req.headers.get(h)?.split(",")[0]?.trim() : undefined);
  const host = forwarded("x-forwarded-host") || req.headers.get("host") || url.host;
  const proto = forwarded("x-forwarded-proto") || url.protocol.replace(":", "");
  return `${proto}://${host}`;
}

/** The public origin of the request being answered; PUBLIC_BASE_URL (or none) outside one. */
export function currentOrigin(): string {
  const req = currentRequest();
  return req ? publicOrigin(req) : (env().PUBLIC_BASE_URL ?? "").replace(/\/+$/, "");
}
