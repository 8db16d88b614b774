import { decodeCursor, encodeCursor, parseOrderBy, type Order, type SortSpec } from "./paging";

export type PageInput = { orderBy?: string; order_by?: string; limit: number; cursor?: string };
export type Link = (query: Record<string, string | number | undefined>) => string;

/**
 * One keyset page of any list: parse the order, decode the cursor, fetch limit + 1 rows, and
 * build the SPEC.md envelope (meta.limit/count/has_more, total_count where counted, links.next
 * exactly when more rows exist).
 */
export async function keysetPage<R extends Record<string, unknown>>(opts: {
  spec: SortSpec;
  input: PageInput;
  included?: Set<string>;
  fetch: (order: Order, after: unknown[] | undefined, limit: number) => Promise<R[]>;
  count?: () => Promise<number>;
  link: Link;
}) {
  const { spec, input } = opts;
  const order = parseOrderBy(spec, input, opts.included);
  const after = input.cursor ? decodeCursor(input.cursor, spec, order) : undefined;
  const [found, total] = await Promise.all([opts.fetch(order, after, input.limit), opts.count?.()]);
  const hasMore = found.length > input.limit;
  const rows = found.slice(0, input.limit);
  const meta: Record<string, unknown> = { limit: input.limit, count: rows.length };
  if (total !== undefined) meta.total_count = total;
  meta.has_more = hasMore;
  const links: { next?: string } = {};
  if (hasMore) links.next = opts.link({ cursor: encodeCursor(spec, order, rows[rows.length - 1]!) });
  return { rows, meta, links };
}
