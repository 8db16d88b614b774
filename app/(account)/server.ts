import { sql } from "drizzle-orm";
import { headers } from "next/headers";
import { publicOrigin } from "@/lib/api/pipeline";
import { selectAccountByAuthUser } from "@/lib/accounts/queries/accounts";
import type { Account } from "@/lib/accounts/types";
import { getAuth } from "@/lib/auth";
import { rows } from "@/lib/db/client";

// What the account pages and their server actions share. Request headers are read before the
// auth instance is built: that marks a page dynamic, so `next build` never opens the database.

/** A Request carrying this request's headers, for the helpers written for route handlers. */
export async function currentRequest(): Promise<Request> {
  const h = await headers();
  try {
    return new Request(`http://${h.get("host") ?? "localhost"}/`, { headers: new Headers(h) });
  } catch {
    // A Host header that is no host: links then point at PUBLIC_BASE_URL or localhost.
    return new Request("http://localhost/", { headers: new Headers(h) });
  }
}

/** The origin links in mail point at (PUBLIC_BASE_URL, or this request's host). */
export async function currentOrigin(): Promise<string> {
  return publicOrigin(await currentRequest());
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

export function formString(form: FormData, name: string, max = 500): string {
  const v = form.get(name);
  return typeof v === "string" ? v.slice(0, max) : "";
}

/** Whether a mail of this kind went to the address in the last minute (a resend button held down). */
export async function mailedRecently(to: string, kind: string): Promise<boolean> {
  const r = await rows(sql`select 1 from email_outbox where lower(to_address) = ${to.toLowerCase()} and kind = ${kind}
    and created_at > now() - interval '1 minute' limit 1`);
  return r.length > 0;
}
