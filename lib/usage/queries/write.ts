import { sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";

export type LogRow = {
  accountId: string; at: number; keyId: string | null; method: string; route: string; status: number;
  errorCode: string | null; credits: number; cardsAdded: number; refunded: boolean; latency: number; requestId: string;
};

const hourOf = (ms: number) => new Date(ms - (ms % 3_600_000)).toISOString();

/**
 * One batch in one transaction: the rows through unnest (a statement whatever the batch's
 * size, no parameter limit), and their hourly sums added to usage_hourly.
 */
export async function insertLogRows(batch: LogRow[]): Promise<void> {
  if (!batch.length) return;
  const col = <K extends keyof LogRow>(k: K) => batch.map((r) => r[k]);
  const sums = new Map<string, { accountId: string; hour: string; route: string; keyId: string; status: number; requests: number; credits: number; refunds: number; cards: number }>();
  for (const r of batch) {
    const hour = hourOf(r.at);
    const k = `${r.accountId}\u0000${hour}\u0000${r.route}\u0000${r.keyId ?? ""}\u0000${r.status}`;
    let s = sums.get(k);
    if (!s) sums.set(k, (s = { accountId: r.accountId, hour, route: r.route, keyId: r.keyId ?? "", status: r.status, requests: 0, credits: 0, refunds: 0, cards: 0 }));
    s.requests++;
    s.credits += r.credits;
    s.refunds += r.refunded ? 1 : 0;
    s.cards += r.cardsAdded;
  }
  const h = [...sums.values()];
  const hcol = <K extends keyof (typeof h)[number]>(k: K) => h.map((r) => r[k]);
  const db = await getDb();
  await db.transaction(async (tx) => {
    await tx.execute(sql`
      insert into request_log (account_id, at, key_id, method, route, status, error_code, credits, cards_added, refunded, latency, request_id)
      select * from unnest(${col("accountId")}::text[], ${batch.map((r) => new Date(r.at).toISOString())}::timestamptz[],
        ${col("keyId")}::text[], ${col("method")}::text[], ${col("route")}::text[], ${col("status")}::smallint[],
        ${col("errorCode")}::text[], ${col("credits")}::int[], ${col("cardsAdded")}::int[], ${col("refunded")}::boolean[],
        ${col("latency")}::int[], ${col("requestId")}::text[])`);
    await tx.execute(sql`
      insert into usage_hourly (account_id, hour, route, key_id, status, requests, credits, refunds, cards_added)
      select * from unnest(${hcol("accountId")}::text[], ${hcol("hour")}::timestamptz[], ${hcol("route")}::text[],
        ${hcol("keyId")}::text[], ${hcol("status")}::smallint[], ${hcol("requests")}::int[], ${hcol("credits")}::int[],
        ${hcol("refunds")}::int[], ${hcol("cards")}::int[])
      on conflict (account_id, hour, route, key_id, status) do update set
        requests = usage_hourly.requests + excluded.requests, credits = usage_hourly.credits + excluded.credits,
        refunds = usage_hourly.refunds + excluded.refunds, cards_added = usage_hourly.cards_added + excluded.cards_added`);
  });
}

/** Rows older than the retention, a bounded batch at a time so no delete holds locks for long. */
export async function deleteLogBefore(cutoff: string, batch = 10_000): Promise<number> {
  const db = await getDb();
  let total = 0;
  for (;;) {
    const res = (await db.execute(sql`
      delete from request_log where id in (select id from request_log where at < ${cutoff}::timestamptz limit ${batch})`)) as unknown as { rowCount?: number; affectedRows?: number };
    const n = res.rowCount ?? res.affectedRows ?? 0;
    total += n;
    if (n < batch) break;
  }
  await db.execute(sql`delete from usage_hourly where hour < ${cutoff}::timestamptz - interval '62 days'`);
  return total;
}
