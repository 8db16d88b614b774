import type { z } from "zod";
import { keysetPage, type Link } from "@/lib/api/list";
import { col, type SortSpec } from "@/lib/api/paging";
import { sql } from "drizzle-orm";
import type { Account } from "@/lib/accounts/types";
import { flushSettles } from "@/lib/meter/settle-queue";
import { flushRequestLog } from "./log";
import { logWhere, selectLogPage, type LogDbRow, type LogFilter } from "./queries/read";
import type { RequestsQuery } from "./schemas";

// GET /v1/me/requests: the account's request log, newest first, filtered.

export const REQUEST_SORT: SortSpec = {
  resource: "requests", tiebreaker: "id", default: "-at,-id",
  keys: {
    at: { columns: [col(sql`l.at`, "timestamp", false)] },
    id: { columns: [col(sql`l.id`, "bigint", false)] },
  },
};

/** `4xx` → 400..499, `429` → 429..429. */
function statusRange(status: string | undefined): Pick<LogFilter, "statusFrom" | "statusTo"> {
  if (!status) return {};
  if (status.endsWith("xx")) {
    const c = Number(status[0]) * 100;
    return { statusFrom: c, statusTo: c + 99 };
  }
  return { statusFrom: Number(status), statusTo: Number(status) };
}

/** `GET /v1/cards/{id}` or `/v1/cards/{id}`; a route given without /v1 is taken under it. */
function routeFilter(route: string | undefined): Pick<LogFilter, "method" | "route"> {
  if (!route) return {};
  const m = /^([A-Za-z]+)\s+(\S+)$/.exec(route.trim());
  const path = (m ? m[2]! : route.trim()).replace(/\/+$/, "");
  return { method: m?.[1]!.toUpperCase(), route: path.startsWith("/v1/") || path === "/v1" ? path : `/v1${path.startsWith("/") ? "" : "/"}${path}` };
}

export function presentRequest(r: LogDbRow) {
  return {
    request_id: r.request_id, at: r.at,
    key: r.key_id && r.key_name !== null ? { id: r.key_id, name: r.key_name, prefix: r.key_prefix ?? "", deleted: !!r.key_deleted } : null,
    method: r.method, route: r.route, status: r.status, error_code: r.error_code, credits: r.credits,
    cards_added: r.cards_added, refunded: r.refunded, latency_ms: r.latency / 10,
  };
}

export async function listRequests(account: Account, query: z.output<typeof RequestsQuery>, link: Link) {
  // This instance's latest calls first, settled so their cost is final: the owner looks up the
  // call they just made.
  await flushSettles(account.id);
  await flushRequestLog(false);
  const where = logWhere({
    accountId: account.id, keyId: query.key, errorCode: query.error_code, requestId: query.request_id,
    from: query.from, to: query.to, ...statusRange(query.status), ...routeFilter(query.route),
  });
  const { rows, meta, links } = await keysetPage({
    spec: REQUEST_SORT, input: query, link,
    fetch: (order, after, limit) => selectLogPage(where, order, after, limit),
  });
  return { body: { data: rows.map(presentRequest), meta, links } };
}
