import { env } from "@/lib/env";
import { scope } from "@/lib/scope";

// The request a route's handler is answering, for the few answers that print absolute URLs of
// the app itself (card image links) without every lib function taking the request. Only while
// a handler runs: a cached answer runs none, and then Node has no promise hooks to call.
const store = scope<Request>();

export const withRequest = <T>(req: Request, fn: () => Promise<T>): Promise<T> => store.run(req, fn);
export const currentRequest = (): Request | undefined => store.get();

// The request's URL, parsed once however many steps read it. Read only: a caller that changes a
// URL (a link with another query) makes its own.
const urls = new WeakMap<Request, URL>();
/** A request whose URL its maker has parsed already (server/http.ts). */
export function knownUrl(req: Request, url: URL): void {
  urls.set(req, url);
}

export function urlOf(req: Request): URL {
  let url = urls.get(req);
  if (!url) {
    url = new URL(req.url);
    urls.set(req, url);
  }
  return url;
}

/**
 * Public origin for links: PUBLIC_BASE_URL when set (production behind a proxy), else the Host
 * the client called. X-Forwarded-* is trusted only behind TRUST_PROXY proxies: any client can send it,
 * and a link built from it would send the next request, key included, to that host.
 */
export function publicOrigin(req: Request): string {
  const { PUBLIC_BASE_URL, TRUST_PROXY } = env();
  if (PUBLIC_BASE_URL) return PUBLIC_BASE_URL.replace(/\/+$/, "");
  const url = urlOf(req);
  const host = forwarded(req, "x-forwarded-host", TRUST_PROXY) || req.headers.get("host") || url.host;
  const proto = forwarded(req, "x-forwarded-proto", TRUST_PROXY) || url.protocol.replace(":", "");
  return `${proto}://${host}`;
}

// Not a closure in publicOrigin: asked on every request, and the server runs through tsx, whose
// esbuild names each closure it makes (Object.defineProperty, about half a microsecond).
function forwarded(req: Request, header: string, trustProxy: number): string | undefined {
  return trustProxy > 0 ? req.headers.get(header)?.split(",")[0]?.trim() : undefined;
}

/** The public origin of the request being answered; PUBLIC_BASE_URL (or none) outside one. */
export function currentOrigin(): string {
  const req = currentRequest();
  return req ? publicOrigin(req) : (env().PUBLIC_BASE_URL ?? "").replace(/\/+$/, "");
}
