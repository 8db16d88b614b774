import { sql, type SQL } from "drizzle-orm";
import { rows } from "@/lib/db/client";
import { iso } from "@/lib/db/sql";
import { keysetWhere, orderBySql, sortKeySelect, type Order } from "@/lib/api/paging";

// SQL of the owner's usage: the request log's rows and its hourly sums.

export type LogFilter = {
  accountId: string; keyId?: string; method?: string; route?: string; statusFrom?: number; statusTo?: number;
  errorCode?: string; requestId?: string; from?: string; to?: string;
};

export function logWhere(f: LogFilter): SQL {
  const parts: SQL[] = [sql`l.account_id = ${f.accountId}`];
  if (f.keyId) parts.push(sql`l.key_id = ${f.keyId}`);
  if (f.method) parts.push(sql`l.method = ${f.method}`);
  if (f.route) parts.push(sql`l.route = ${f.route}`);
  if (f.statusFrom !== undefined) parts.push(sql`l.status between ${f.statusFrom} and ${f.statusTo ?? f.statusFrom}`);
  if (f.errorCode) parts.push(sql`l.error_code = ${f.errorCode}`);
  if (f.requestId) parts.push(sql`l.request_id = ${f.requestId}`);
  if (f.from) parts.push(sql`l.at >= ${f.from}::timestamptz`);
  if (f.to) parts.push(sql`l.at < ${f.to}::timestamptz`);
  return sql.join(parts, sql` and `);
}

export type LogDbRow = {
  request_id: string; at: string; key_id: string | null; key_name: string | null; key_prefix: string | null; key_deleted: boolean | null; method: string;
  route: string; status: number; error_code: string | null; credits: number; cards_added: number; refunded: boolean; latency: number;
};

export function selectLogPage(where: SQL, order: Order, after: unknown[] | undefined, limit: number) {
  const keyset = after ? sql`and ${keysetWhere(order, after)}` : sql``;
  return rows<LogDbRow & Record<string, unknown>>(sql`
    select l.request_id, ${iso(sql`l.at`)} as at, l.key_id, k.name as key_name, k.prefix as key_prefix, k.revoked_at is not null as key_deleted, l.method, l.route,
           l.status, l.error_code, l.credits, l.cards_added, l.refunded, l.latency, ${sortKeySelect(order)}
    from request_log l left join api_keys k on k.id = l.key_id
    where ${where} ${keyset}
    order by ${orderBySql(order)}
    limit ${limit + 1}`);
}

export type Sums = { requests: number; credits: number; refunds: number; cards_added: number };
export type HourlyDbRow = Sums & { start: string; grp: string };

/**
 * The hourly sums of a window, bucketed by hour or UTC day, per group (route: method and
 * template, key, or status); `grp` is '' without a grouping.
 */
export function selectHourly(accountId: string, from: string, to: string, bucket: "hour" | "day", groupBy: "route" | "key" | "status" | null) {
  const grp = groupBy === "key" ? sql`h.key_id` : groupBy === "status" ? sql`h.status::text` : groupBy === "route" ? sql`h.route` : sql`''`;
  const start = bucket === "day" ? sql`date_trunc('day', h.hour at time zone 'UTC') at time zone 'UTC'` : sql`h.hour`;
  return rows<HourlyDbRow>(sql`
    select ${iso(start)} as start, ${grp} as grp, sum(h.requests)::int as requests, sum(h.credits)::int as credits,
           sum(h.refunds)::int as refunds, sum(h.cards_added)::int as cards_added
    from usage_hourly h
    where h.account_id = ${accountId} and h.hour >= ${from}::timestamptz and h.hour < ${to}::timestamptz
    group by 1, 2 order by 1, 2`);
}

/** Calls per key over the last 30 days, from the hourly sums (the keys list's count). */
export async function requestsPerKey(accountId: string, since: string): Promise<Map<string, number>> {
  const found = await rows<{ key_id: string; n: number }>(sql`
    select key_id, sum(requests)::int as n from usage_hourly
    where account_id = ${accountId} and hour >= ${since}::timestamptz group by key_id`);
  return new Map(found.map((r) => [r.key_id, r.n]));
}

/** Each key's label for the sums by key: its name and prefix, and whether it was deleted (or rotated away). */
export async function keyLabels(accountId: string): Promise<Map<string, string>> {
  const found = await rows<{ id: string; name: string; prefix: string; deleted: boolean }>(sql`
    select id, name, prefix, revoked_at is not null as deleted from api_keys where account_id = ${accountId}`);
  return new Map(found.map((r) => [r.id, `${r.name} (${r.prefix.replace(/…$/, "")}…${r.deleted ? ", deleted" : ""})`]));
}

export async function countPeriodCards(accountId: string, period: string): Promise<number> {
  return (await rows<{ n: number }>(sql`select count(*)::int as n from account_cards where account_id = ${accountId} and period = ${period}`))[0]!.n;
}
