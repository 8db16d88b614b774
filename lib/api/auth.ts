import { timingSafeEqual } from "node:crypto";
import { verifyKey } from "@/lib/accounts/keys";
import type { Account } from "@/lib/accounts/types";
import { ApiError } from "./errors";

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
  const outcome = await verifyKey(key);
  if (!outcome.ok) throw new ApiError("INVALID_API_KEY", "The API key matches no account. It may have been rotated or deleted.");
  return { kind: "account", keyId: outcome.keyId, account: outcome.account };
}

/**
 * Operator routes answer only to `Authorization: Bearer <ADMIN_TOKEN>`; without ADMIN_TOKEN
 * configured they do not exist (404), and a wrong token cannot tell them apart from that.
 */
function operator(req: Request): Principal {
  const token = process.env.ADMIN_TOKEN;
  const given = /^Bearer\s+(\S+)$/i.exec(req.headers.get("authorization")?.trim() ?? "")?.[1];
  if (!token || !given || !sameSecret(given, token)) {
    throw new ApiError("NOT_FOUND", `No route ${req.method} ${new URL(req.url).pathname.replace(/^\/api\/v1/, "/v1")}.`);
  }
  return { kind: "operator" };
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The account of a keyed route's caller (the pipeline has already refused everyone else). */
export function accountOf(principal: Principal): Account {
  if (principal.kind !== "account") throw new ApiError("MISSING_API_KEY", "This route needs an API key.");
  return principal.account;
}

/** Who performed an operator action: the X-Operator header names the person, the token proves the right. */
export function operatorOf(req: Request): { actor: string; ip: string | null } {
  const who = req.headers.get("x-operator")?.trim().slice(0, 100);
  return { actor: who ? `operator:${who}` : "operator", ip: req.headers.get("x-forwarded-for")?.split(",").pop()?.trim() ?? null };
}
