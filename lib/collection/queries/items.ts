import { and, asc, count, eq, sql } from "drizzle-orm";
import { getDb, rows, type Db } from "@/lib/db/client";
import { collectionItems, watchlist, type CollectionItemRow, type WatchRow } from "@/lib/db/schema";

// Every statement names the account: an item or alert of another account is not found.

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
export type DbOrTx = Db | Tx;

export type NewItem = {
  cardId: string; quantity: number; condition: string; printing: string; language: string;
  pricePaid: number | null; currency: string; addedAt?: string | null;
};

export async function insertItems(accountId: string, items: NewItem[], tx?: DbOrTx): Promise<number[]> {
  if (!items.length) return [];
  const db = tx ?? (await getDb());
  const ids: number[] = [];
  // In slices: 5,000 lines of 9 parameters stay far below PostgreSQL's 65,535.
  for (let i = 0; i < items.length; i += 1000) {
    const part = items.slice(i, i + 1000).map((it) => ({
      accountId, cardId: it.cardId, quantity: it.quantity, condition: it.condition, printing: it.printing, language: it.language,
      pricePaid: it.pricePaid, currency: it.currency, ...(it.addedAt ? { addedAt: it.addedAt } : {}),
    }));
    const got = await db.insert(collectionItems).values(part).returning({ id: collectionItems.id });
    ids.push(...got.map((g) => g.id));
  }
  return ids;
}

export async function countItems(accountId: string, tx?: DbOrTx): Promise<number> {
  const db = tx ?? (await getDb());
  const [r] = await db.select({ n: count() }).from(collectionItems).where(eq(collectionItems.accountId, accountId));
  return Number(r?.n ?? 0);
}

/** The account's items, oldest first (the export's order). */
export async function selectItems(accountId: string): Promise<CollectionItemRow[]> {
  const db = await getDb();
  return db.select().from(collectionItems).where(eq(collectionItems.accountId, accountId))
    .orderBy(asc(collectionItems.addedAt), asc(collectionItems.id));
}

export async function selectItem(accountId: string, id: number): Promise<CollectionItemRow | undefined> {
  const db = await getDb();
  const [r] = await db.select().from(collectionItems).where(and(eq(collectionItems.accountId, accountId), eq(collectionItems.id, id)));
  return r;
}

/** The updated row, or undefined when the account has no such item. */
export async function updateItemQuantity(accountId: string, id: number, quantity: number): Promise<CollectionItemRow | undefined> {
  const db = await getDb();
  const [r] = await db.update(collectionItems).set({ quantity })
    .where(and(eq(collectionItems.accountId, accountId), eq(collectionItems.id, id))).returning();
  return r;
}

export async function deleteItem(accountId: string, id: number): Promise<boolean> {
  const db = await getDb();
  const r = await db.delete(collectionItems).where(and(eq(collectionItems.accountId, accountId), eq(collectionItems.id, id)))
    .returning({ id: collectionItems.id });
  return r.length > 0;
}

// ── watchlist ────────────────────────────────────────────────────────────────

export async function selectWatches(accountId: string): Promise<WatchRow[]> {
  const db = await getDb();
  return db.select().from(watchlist).where(eq(watchlist.accountId, accountId)).orderBy(asc(watchlist.createdAt), asc(watchlist.id));
}

export async function countWatches(accountId: string): Promise<number> {
  const db = await getDb();
  const [r] = await db.select({ n: count() }).from(watchlist).where(eq(watchlist.accountId, accountId));
  return Number(r?.n ?? 0);
}

/** Sets (or replaces, re-armed) the account's alert on a card in one direction. */
export async function upsertWatch(accountId: string, cardId: string, direction: "above" | "below", threshold: number): Promise<WatchRow> {
  const db = await getDb();
  const [r] = await db.insert(watchlist).values({ accountId, cardId, direction, threshold })
    .onConflictDoUpdate({
      target: [watchlist.accountId, watchlist.cardId, watchlist.direction],
      set: { threshold, armed: true, lastAlertedAt: null },
    }).returning();
  return r!;
}

export async function deleteWatch(accountId: string, id: number): Promise<boolean> {
  const db = await getDb();
  const r = await db.delete(watchlist).where(and(eq(watchlist.accountId, accountId), eq(watchlist.id, id))).returning({ id: watchlist.id });
  return r.length > 0;
}

export type WatchToCheck = WatchRow & { email: string };

/** Every alert with its owner's address, by card (the check reads the cards' prices once). */
export async function selectAllWatches(afterId = 0, limit = 5000): Promise<WatchToCheck[]> {
  return rows<WatchToCheck>(sql`select w.id, w.account_id as "accountId", w.card_id as "cardId", w.direction, w.threshold::float8 as threshold,
      w.armed, w.last_price::float8 as "lastPrice", w.last_alerted_at::text as "lastAlertedAt", w.created_at::text as "createdAt", a.email
    from watchlist w join accounts a on a.id = w.account_id
    where w.id > ${afterId} order by w.id limit ${limit}`);
}

/** The crossing's claim: turns the alert off if it was on; true for the one caller that did. */
export async function disarm(tx: DbOrTx, id: number, price: number): Promise<boolean> {
  const r = await tx.update(watchlist).set({ armed: false, lastPrice: price, lastAlertedAt: sql`now()` })
    .where(and(eq(watchlist.id, id), eq(watchlist.armed, true))).returning({ id: watchlist.id });
  return r.length > 0;
}

export async function rearm(id: number, price: number): Promise<boolean> {
  const db = await getDb();
  const r = await db.update(watchlist).set({ armed: true, lastPrice: price })
    .where(and(eq(watchlist.id, id), eq(watchlist.armed, false))).returning({ id: watchlist.id });
  return r.length > 0;
}

export async function notePrice(id: number, price: number): Promise<void> {
  const db = await getDb();
  await db.update(watchlist).set({ lastPrice: price }).where(eq(watchlist.id, id));
}
