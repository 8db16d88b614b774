import { sql, type SQL } from "drizzle-orm";
import { rows } from "@/lib/db/client";
import { iso } from "@/lib/db/sql";
import { keysetWhere, orderBySql, sortKeySelect, type Order } from "@/lib/api/paging";

export type ChangeDbRow = { seq: number; kind: string; entity_id: string; op: string; fields: string[] | null; at: string };

export function changesWhere(f: { kinds?: string[]; after?: number; since?: string }): SQL {
  const parts: SQL[] = [sql`true`];
  if (f.kinds?.length) parts.push(sql`ch.kind = any(${sql.param(f.kinds)}::text[])`);
  if (f.after !== undefined) parts.push(sql`ch.seq > ${f.after}`);
  if (f.since) parts.push(sql`ch.at >= ${f.since}::timestamptz`);
  return sql.join(parts, sql` and `);
}

export async function selectChangesPage(where: SQL, order: Order, after: unknown[] | undefined, limit: number) {
  const keyset = after ? sql`and ${keysetWhere(order, after)}` : sql``;
  const found = await rows<ChangeDbRow & Record<string, unknown>>(sql`
    select ch.seq::int as seq, ch.kind, ch.entity_id, ch.op, ch.fields, ${iso(sql`ch.at`)} as at, ${sortKeySelect(order)}
    from changes ch where ${where} ${keyset}
    order by ${orderBySql(order)} limit ${limit + 1}`);
  // seq is a bigint, which arrives as text; the cursor carries it as the integer it is.
  for (const r of found) r.__k0 = Number(r.__k0);
  return found;
}

export async function lastSeq(): Promise<number> {
  return (await rows<{ n: number }>(sql`select coalesce(max(seq), 0)::int as n from changes`))[0]!.n;
}
