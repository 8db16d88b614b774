import { sql, type SQL } from "drizzle-orm";
import { decodeCursor, encodeCursor, parseOrderBy, type Order, type SortSpec } from "@/lib/api/paging";
import type { Account } from "@/lib/accounts/types";
import { selectCardPage } from "@/lib/catalog/queries/cards";
import { selectSealedPage, sealedWhere } from "@/lib/catalog/queries/lists";
import { selectSetPage, setWhere } from "@/lib/catalog/queries/sets";
import { presentCard } from "@/lib/catalog/cards/present";
import { CARD_SORT } from "@/lib/catalog/cards/sort";
import { SEALED_SORT } from "@/lib/catalog/lists";
import { presentSealed, presentSet } from "@/lib/catalog/present";
import { SET_SORT } from "@/lib/catalog/sets";
import { rows } from "@/lib/db/client";
import { pricesOf } from "@/lib/prices/embed";

// The rows of each bulk file, exactly as the API answers them, read page by page through the
// lists' own keyset order so that memory stays flat whatever the catalogue's size.

export const BULK_TYPES = ["cards", "sets", "sealed", "index", "prices"] as const;
export type BulkType = (typeof BULK_TYPES)[number];

const PAGE = 1000;

async function* keyset<R extends Record<string, unknown>>(spec: SortSpec, fetch: (order: Order, after: unknown[] | undefined, limit: number) => Promise<R[]>) {
  const order = parseOrderBy(spec, { orderBy: spec.tiebreaker });
  let after: unknown[] | undefined;
  for (;;) {
    const page = await fetch(order, after, PAGE);
    const rowsOfPage = page.slice(0, PAGE);
    yield rowsOfPage;
    if (page.length <= PAGE) return;
    after = decodeCursor(encodeCursor(spec, order, rowsOfPage[rowsOfPage.length - 1]!), spec, order);
  }
}

const ALL_CARDS: SQL = sql`c.deleted_at is null`;
/** The bulk files show every row a paid plan sees. */
const PAID_VIEW = { plan: "enterprise" } as Account;

async function* productIds(kind: "card" | "sealed") {
  let last = "";
  for (;;) {
    const ids = (await rows<{ id: string }>(sql`select distinct product_id as id from price_series
      where product_kind = ${kind} and product_id > ${last} order by product_id limit ${PAGE}`)).map((r) => r.id);
    if (!ids.length) return;
    yield ids;
    last = ids[ids.length - 1]!;
  }
}

async function* priceRows(withQuotes: boolean) {
  for (const kind of ["card", "sealed"] as const) {
    for await (const ids of productIds(kind)) {
      const regions = kind === "card"
        ? new Map((await rows<{ id: string; r: string | null }>(sql`select c.id, s.print_region as r from cards c join sets s on s.id = c.set_id
            where c.id = any(${sql.param(ids)}::text[])`)).map((x) => [x.id, x.r]))
        : new Map<string, string | null>();
      const { prices } = await pricesOf(kind, ids.map((id) => ({ id, region: regions.get(id) ?? null })), PAID_VIEW);
      for (const id of ids) {
        const p = prices.get(id)!;
        if (!withQuotes && !p.index) continue;
        const ref = kind === "card" ? { card_id: id } : { sealed_id: id };
        yield withQuotes ? { ...ref, index: p.index, quotes: p.quotes } : { ...ref, index: p.index };
      }
    }
  }
}

/** The rows of one bulk file, in a stable order. */
export async function* bulkRows(type: BulkType): AsyncGenerator<unknown> {
  switch (type) {
    case "cards":
      for await (const page of keyset(CARD_SORT, (o, a, l) => selectCardPage(ALL_CARDS, o, a, l, { filtered: false }))) {
        for (const r of page) yield presentCard(r, { include: new Set() });
      }
      return;
    case "sets":
      for await (const page of keyset(SET_SORT, (o, a, l) => selectSetPage(setWhere({}), o, a, l))) for (const r of page) yield presentSet(r);
      return;
    case "sealed":
      for await (const page of keyset(SEALED_SORT, (o, a, l) => selectSealedPage(sealedWhere({}), o, a, l))) {
        for (const r of page) yield presentSealed(r, { index: false });
      }
      return;
    case "index":
      yield* priceRows(false);
      return;
    case "prices":
      yield* priceRows(true);
  }
}
