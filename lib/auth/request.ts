import { selectAccountByAuthUser } from "@/lib/accounts/queries/accounts";
import type { Account } from "@/lib/accounts/types";
import { getAuth } from "./index";

// Route handlers the dashboard and the collection call with the session's cookie, not a key.

/**
 * A cookie-authenticated write must come from this site's own pages: Sec-Fetch-Site says
 * same-origin, or (a browser without it) the Origin header names this host. A cross-site form
 * or script is refused before the session is even read.
 */
export function sameOrigin(req: Request): boolean {
  const site = req.headers.get("sec-fetch-site");
  if (site) return site === "same-origin";
  const origin = req.headers.get("origin");
  const host = req.headers.get("host");
  if (!origin || !host) return false;
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}

/** The account of the request's session, or undefined. */
export async function requestAccount(req: Request): Promise<Account | undefined> {
  const session = await (await getAuth()).api.getSession({ headers: req.headers });
  return session ? await selectAccountByAuthUser(session.user.id) : undefined;
}
