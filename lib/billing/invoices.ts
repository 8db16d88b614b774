import { malformedCursor } from "@/lib/api/paging";
import type { Link } from "@/lib/api/list";
import type { Account } from "@/lib/accounts/types";
import { listInvoices } from "./manage";

// The invoices list in the API's list envelope. Stripe pages by the last invoice's id; the cursor
// carries it, opaque like every cursor, and is checked before it reaches Stripe.

const STRIPE_MAX = 100;

export const invoiceCursor = {
  encode: (lastId: string) => Buffer.from(JSON.stringify({ a: lastId })).toString("base64url"),
  decode(cursor: string): string {
    try {
      const v = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as { a?: unknown };
      if (typeof v.a === "string" && /^in_[A-Za-z0-9_]{1,100}$/.test(v.a)) return v.a;
    } catch {
      // falls through to the refusal
    }
    throw malformedCursor();
  },
};

export async function invoicePage(account: Account, limit: number, after: string | undefined, link: Link) {
  const applied = Math.min(limit, STRIPE_MAX);
  const { rows, hasMore } = await listInvoices(account, applied, after);
  const links: { next?: string } = {};
  if (hasMore && rows.length) links.next = link({ limit: applied, cursor: invoiceCursor.encode(rows[rows.length - 1]!.id) });
  return { data: rows, meta: { limit: applied, count: rows.length, has_more: Boolean(links.next) }, links };
}
