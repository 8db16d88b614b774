"use server";

import { listRequests } from "@/lib/usage/requests";
import { signedIn } from "../../server";
import type { RequestRow } from "../format";
import { cursorOf, readFilters } from "./filters";
import { toQuery } from "./query";

// "Load more" of the request log: the next page after a cursor, for the signed-in person's own
// account only (the session decides the account; the filters are validated again here).

export type Page = { ok: true; rows: RequestRow[]; next: string | null } | { ok: false; error: string };

export async function loadRequests(filters: Record<string, string>, cursor: string, now: number): Promise<Page> {
  const me = await signedIn();
  if (!me?.account) return { ok: false, error: "Your session has ended. Sign in again." };
  if (typeof cursor !== "string" || !cursor || cursor.length > 4000) return { ok: false, error: "Nothing more to load." };
  // `since` is resolved at the first page's time: the next pages continue the same window.
  const parsed = toQuery(readFilters(filters ?? {}), cursor, Number.isFinite(now) ? now : Date.now());
  if (!parsed.ok) return parsed;
  try {
    const page = await listRequests(me.account, parsed.query, (q) => `/v1/me/requests?cursor=${encodeURIComponent(String(q.cursor ?? ""))}`);
    return { ok: true, rows: page.body.data, next: cursorOf(page.body.links.next) };
  } catch {
    return { ok: false, error: "The next page could not be read. Reload the page to start again." };
  }
}
