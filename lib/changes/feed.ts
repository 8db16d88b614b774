import { sql } from "drizzle-orm";
import { keysetPage, type Link } from "@/lib/api/list";
import { col, type SortSpec } from "@/lib/api/paging";
import { changesWhere, lastSeq, selectChangesPage, type ChangeDbRow } from "./queries";

// GET /v1/changes: the append-only feed, in sequence order only. A mirror keeps the last seq
// it applied and asks for after=<seq>; links.next pages through a backlog.

export const CHANGES_SORT: SortSpec = {
  resource: "changes", tiebreaker: "seq", default: "seq",
  keys: { seq: { columns: [col(sql`ch.seq`, "int", false)] } },
};

export type ChangesInput = { kind?: string[]; after?: number; since?: string; limit: number; cursor?: string };

function present(r: ChangeDbRow) {
  const sealedPrice = r.kind === "PRICE" && r.entity_id.startsWith("sealed:");
  const product = r.kind === "PRICE" ? (sealedPrice ? "sealed" : "card") : undefined;
  return {
    seq: r.seq, kind: r.kind, id: sealedPrice ? r.entity_id.slice(7) : r.entity_id, ...(product ? { product } : {}),
    op: r.op, fields: r.fields ?? [], at: r.at,
  };
}

export async function listChanges(input: ChangesInput, link: Link) {
  const where = changesWhere({ kinds: input.kind, after: input.after, since: input.since });
  // Read before the page: changes are appended one transaction at a time (lockChangeFeed), so
  // every change up to it is visible to the page's query.
  const last = await lastSeq();
  const { rows, meta, links } = await keysetPage({ spec: CHANGES_SORT, input, link, fetch: (order, after, limit) => selectChangesPage(where, order, after, limit) });
  const data = rows.map(present);
  // Where a mirror resumes: the last seq of this page; after an empty page, the feed's end as it
  // was before the page was read, since nothing up to it matched (a `since` past every change, a
  // kind that did not occur): not back to the start, nor past the end (an `after` beyond it, as
  // from a feed restored from a backup, would skip the changes still to come).
  meta.next_after = data.length ? data[data.length - 1]!.seq : last;
  meta.last_seq = Math.max(last, data.length ? data[data.length - 1]!.seq : 0);
  return { body: { data, meta, links } };
}
