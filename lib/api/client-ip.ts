import { isIP } from "node:net";
import { configuredOrigin, env } from "@/lib/env";

// Who is calling, for per-address limits. The address comes from the TCP socket, never from a
// header a client can write: the app's own servers (server/app.ts, server/lean.ts) remove any
// CLIENT_IP_HEADER a request arrived with and set it from the socket, or, behind TRUST_PROXY
// trusted proxies, from the X-Forwarded-For entry that many hops from the right. Under a server
// that does not do this (a bare `next start`), every caller shares one address: limits then
// hold for everyone together instead of being bypassed with a made-up header.

export const CLIENT_IP_HEADER = "x-pokeprice-client-ip";
export const UNKNOWN_IP = "unknown";

const slot = globalThis as unknown as { __serverSetsClientIp?: boolean };

/** Called once by a server that strips and sets CLIENT_IP_HEADER on every request it passes on. */
export function trustClientIpHeader(on = true): void {
  slot.__serverSetsClientIp = on;
}

function normalize(address: string | undefined): string | undefined {
  if (!address) return undefined;
  const a = address.trim().replace(/^\[(.*)\]$/, "$1");
  const v4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(a)?.[1];
  const out = v4 ?? a;
  return isIP(out) ? out.toLowerCase() : undefined;
}

/**
 * The client's address: the socket's peer with no trusted proxy; with `hops` trusted proxies,
 * the address the outermost of them saw, i.e. the X-Forwarded-For entry `hops` from the right
 * (each proxy appends its own peer). A chain shorter than that, or an entry that is no address,
 * stops at the last address a trusted proxy vouched for.
 */
export function resolveClientIp(remote: string | undefined, forwardedFor: string | null | undefined, hops: number): string {
  let ip = normalize(remote) ?? UNKNOWN_IP;
  if (hops <= 0) return ip;
  const chain = (forwardedFor ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  for (let i = 1; i <= hops && i <= chain.length; i++) {
    const next = normalize(chain[chain.length - i]);
    if (!next) break;
    ip = next;
  }
  return ip;
}

/** The caller's address as the serving process established it; UNKNOWN_IP when none did. */
export function clientIp(req: Request): string {
  if (!slot.__serverSetsClientIp) return UNKNOWN_IP;
  return normalize(req.headers.get(CLIENT_IP_HEADER) ?? undefined) ?? UNKNOWN_IP;
}

/** Loopback callers: the embedded default shows its development outbox to them only. */
export function isLoopback(ip: string): boolean {
  return ip === "::1" || /^127\./.test(ip);
}

/**
 * A caller on this very machine of the embedded default (no DATABASE_URL, no proxy in front,
 * under one of this machine's own names): whoever ran `npm start`. Its development outbox opens
 * to them, and their script signups are not counted against an address (lib/accounts/abuse.ts).
 */
export function localOwner(req: Request): boolean {
  const e = env();
  return !e.DATABASE_URL && e.TRUST_PROXY === 0 && isLoopback(clientIp(req)) && namesThisMachine(req.headers.get("host"), configuredOrigin());
}

/**
 * A caller on this very machine, whatever the database: a loopback socket with no proxy
 * configured, a request that no proxy forwarded (no X-Forwarded-For, Forwarded or X-Real-IP),
 * under a loopback name only (not the public origin's, which a same-host proxy would pass on).
 * Whoever can run a process here can make accounts directly in the database anyway; a test
 * suite making one account per test is not an abuser to be limited per address.
 */
export function onThisMachine(req: Request): boolean {
  if (env().TRUST_PROXY !== 0 || !isLoopback(clientIp(req))) return false;
  const h = req.headers;
  if (h.has("x-forwarded-for") || h.has("forwarded") || h.has("x-real-ip")) return false;
  return namesThisMachine(h.get("host"));
}

/**
 * Whether a Host header names this machine (localhost, a loopback address) or `origin`'s host.
 * A page whose own domain was rebound to 127.0.0.1 (DNS rebinding) reaches local servers from a
 * browser under its own name: what only this machine may read checks the name too. No header
 * (a non-HTTP/1.1 client, a test's Request) counts as this machine.
 */
export function namesThisMachine(host: string | null | undefined, origin?: string): boolean {
  if (!host) return true;
  const name = host.replace(/:\d+$/, "").replace(/^\[(.*)\]$/, "$1").toLowerCase();
  if (name === "localhost" || name.endsWith(".localhost") || isLoopback(name)) return true;
  try {
    return !!origin && new URL(origin).hostname.toLowerCase() === name;
  } catch {
    return false;
  }
}
