import { createHash, timingSafeEqual } from "node:crypto";
import { listenForAccountChanges } from "@/lib/accounts/invalidate";
import { verifyKey } from "@/lib/accounts/keys";
import type { Account } from "@/lib/accounts/types";
import { clientIp, UNKNOWN_IP } from "./client-ip";
import { ApiError } from "./errors";
import { operatorToken } from "./operator-token";
import { fail, noRouteText } from "./respond";

// Step 3: who is calling. `X-Api-Key: <key>`, or `Authorization: Bearer <key>` as an alias.

export type Principal =
  | { kind: "anonymous" }
  | { kind: "account"; keyId: string; account: Account }
  | { kind: "operator" };

export const ANONYMOUS: Principal = { kind: "anonymous" };

export function presentedKey(req: Request): string | undefined {
  const header = req.headers.get("x-api-key")?.trim();
  if (header) return header;
  const auth = req.headers.get("authorization")?.trim();
  const m = auth ? /^Bearer\s+(\S+)$/i.exec(auth) : null;
  return m?.[1];
}

export async function authenticate(req: Request, auth: "key" | "none" | "admin"): Promise<Principal> {
  if (auth === "none") return ANONYMOUS;
  if (auth === "admin") return operator(req);
  const key = presentedKey(req);
  if (!key) {
    throw new ApiError("MISSING_API_KEY", "This route needs an API key in the X-Api-Key header (or Authorization: Bearer).", {
      next_step: { action: "get_key", message: "Create a free trial key with POST /v1/accounts/free." },
    });
  }
  // Cached lookups must hear of plan changes made on other instances.
  listenForAccountChanges();
  const outcome = await verifyKey(key);
  if (!outcome.ok) {
    if (outcome.reason === "expired") throw new ExpiredKey(outcome.expiredAt, { kind: "account", keyId: outcome.keyId, account: outcome.account });
    throw new ApiError("INVALID_API_KEY", "The API key matches no account. It may have been rotated or deleted.");
  }
  return { kind: "account", keyId: outcome.keyId, account: outcome.account };
}

/** An expired key's refusal: the call is refused, but is still its owner's (the request log). */
export class ExpiredKey extends ApiError {
  constructor(expiredAt: string, readonly owner: Principal) {
    super("INVALID_API_KEY", `The API key expired at ${expiredAt}. Create a new key in the dashboard or with POST /v1/keys.`, { expired_at: expiredAt });
  }
}

/**
 * The account of a key that was not looked up on the way to the answer (a public route, a 404
 * or 405 of the router); undefined without a key and for a key that matches nothing. Never throws.
 */
export async function presentedAccount(req: Request): Promise<Principal | undefined> {
  const key = presentedKey(req);
  if (!key) return undefined;
  try {
    listenForAccountChanges();
    const outcome = await verifyKey(key);
    return outcome.ok ? { kind: "account", keyId: outcome.keyId, account: outcome.account } : undefined;
  } catch {
    return undefined;
  }
}

/** SPEC.md has every response on a trial key carry X-Trial-Expires-At: the header, for a trial's principal. */
export function trialHeaderOf(p: Principal | undefined): Record<string, string> | undefined {
  const a = p?.kind === "account" ? p.account : undefined;
  return a?.plan === "trial" && a.trialExpiresAt ? { "x-trial-expires-at": a.trialExpiresAt } : undefined;
}

/** X-Trial-Expires-At for a trial key the answer did not authenticate. */
export async function trialHeader(req: Request): Promise<Record<string, string> | undefined> {
  return trialHeaderOf(await presentedAccount(req));
}

/**
 * Operator routes answer only to `Authorization: Bearer <ADMIN_TOKEN>`; without ADMIN_TOKEN
 * configured they do not exist (404), and a wrong token cannot tell them apart from that.
 */
function operator(req: Request): Principal {
  if (!isOperator(req)) throw new ApiError("NOT_FOUND", ...noRouteText(req));
  return { kind: "operator" };
}

/**
 * An operator path asked by anyone without the token: the 404 of a path that does not exist, for
 * every method and the preflight too, so that neither a 405 nor an Allow header tells it apart.
 */
export function hiddenRoute(req: Request): Response {
  return fail(req, "NOT_FOUND", ...noRouteText(req));
}

const digest = (s: string) => createHash("sha256").update(s).digest();

/**
 * Whether the request carries the operator token. Both sides are hashed first, so the
 * comparison takes the same time whatever the length or content of a guess; a configured token
 * that may not be used (operatorToken) counts as none.
 */
export function isOperator(req: Request): boolean {
  const token = operatorToken();
  if (!token) return false;
  const given = /^Bearer\s+(\S+)$/i.exec(req.headers.get("authorization")?.trim() ?? "")?.[1] ?? "";
  return timingSafeEqual(digest(given), digest(token));
}

/** The account of a keyed route's caller (the pipeline has already refused everyone else). */
export function accountOf(principal: Principal): Account {
  if (principal.kind !== "account") throw new ApiError("MISSING_API_KEY", "This route needs an API key.");
  return principal.account;
}

/**
 * Who performed an operator action: the token that proved the right, by its fingerprint (the
 * first 12 hex digits of its SHA-256), which a caller cannot choose. The X-Operator header is
 * only what the caller says of themselves, kept as a note.
 */
export function operatorOf(req: Request): { actor: string; note: string | null; ip: string | null } {
  const token = process.env.ADMIN_TOKEN ?? "";
  const note = req.headers.get("x-operator")?.trim().slice(0, 100) || null;
  const ip = clientIp(req);
  return { actor: `admin-token:${digest(token).toString("hex").slice(0, 12)}`, note, ip: ip === UNKNOWN_IP ? null : ip };
}
