import { cache } from "react";
import type { Account } from "@/lib/accounts/types";
import { readBounded } from "@/lib/api/body";
import { ApiError } from "@/lib/api/errors";
import { signedIn } from "@/app/(account)/server";

// The collection belongs to the dashboard account of the session (never to an API key). Pages
// and server actions read it through signedIn(); the route handlers below through the request.

/** The session's account in a page or server action, once per request. */
export const sessionAccount = cache(async (): Promise<Account | null> => (await signedIn())?.account ?? null);

export const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  Response.json(body, { status, headers: { "cache-control": "no-store", ...headers } });

export { requestAccount, sameOrigin } from "@/lib/auth/request";

export const FORBIDDEN = () => json(403, { error: { code: "FORBIDDEN", message: "This endpoint answers this site's own pages only." } });
export const SIGNED_OUT = () => json(401, { error: { code: "SIGNED_OUT", message: "Sign in to keep a collection." } });
export const NOT_FOUND = (what = "item") => json(404, { error: { code: "NOT_FOUND", message: `No such ${what} in your collection.` } });

/** The body, at most `limit` bytes (a larger one is 413 before or while reading). */
export async function boundedBody(req: Request, limit: number): Promise<Uint8Array | Response> {
  try {
    return await readBounded(req, limit, () => new ApiError("PAYLOAD_TOO_LARGE", `The body is limited to ${limit} bytes.`, { max_bytes: limit }));
  } catch (err) {
    if (err instanceof ApiError) return json(413, { error: { code: err.code, message: err.message } });
    throw err;
  }
}
