import { headers } from "next/headers";
import { selectAccountByAuthUser } from "@/lib/accounts/queries/accounts";
import type { Account } from "@/lib/accounts/types";
import { getAuth } from "@/lib/auth";

// What the account pages and their server actions share. Request headers are read before the
// auth instance is built: that marks a page dynamic, so `next build` never opens the database.

/** A Request carrying this request's headers (the caller's address among them), for the helpers written for route handlers. */
export async function currentRequest(): Promise<Request> {
  return new Request("http://localhost/", { headers: new Headers(await headers()) });
}

export type SignedIn = { userId: string; email: string; account: Account | undefined };

/** The signed-in person and their API account, or null without a session. */
export async function signedIn(): Promise<SignedIn | null> {
  const h = await headers();
  const auth = await getAuth();
  const session = await auth.api.getSession({ headers: h });
  if (!session) return null;
  return { userId: session.user.id, email: session.user.email, account: await selectAccountByAuthUser(session.user.id) };
}

export const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

