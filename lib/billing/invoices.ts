import { ownCursor } from "@/lib/api/paging";
import type { Link } from "@/lib/api/list";
import type { Account } from "@/lib/accounts/types";
import { listInvoices } from "./manage";

// The invoices list in the API's list envelope. Stripe pages by the last invoice's id; the cursor
// carries it, opaque like every cursor, and is checked before it reaches Stripe.

const STRIPE_MAX = 100;

export const invoiceCursor = ownCursor<string>(
  (lastId) => ({ a: lastId }),
  (v) => (typeof v?.a === "string" && /^in_[A-Za-z0-9_]{1,100}$/.test(v.a) ? v.a : undefined),
);

/**
 * One page of `limit` invoices (1 to 250 as on every list, SPEC.md Pagination rule 7): Stripe
 * lists at most 100 a call, so a larger page is read in several.
 */
export async function invoicePage(account: Account, limit: number, after: string | undefined, link: Link) {
  const rows: Awaited<ReturnType<typeof listInvoices>>["rows"] = [];
  let hasMore = true;
  for (let last = after; hasMore && rows.length < limit; last = rows.at(-1)?.id) {
    const page = await listInvoices(account, Math.min(STRIPE_MAX, limit - rows.length), last);
    rows.push(...page.rows);
    hasMore = page.hasMore && page.rows.length > 0;
  }
  const links: { next?: string } = {};
  if (hasMore && rows.length) links.next = link({ limit, cursor: invoiceCursor.encode(rows[rows.length - 1]!.id) });
  return { data: rows, meta: { limit, count: rows.length, has_more: Boolean(links.next) }, links };
}
