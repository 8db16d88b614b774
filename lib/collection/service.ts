import { cardIndex, lookupCard } from "@/lib/catalog/cards/get";
import { selectCardsByIds, type CardDbRow } from "@/lib/catalog/queries/cards";
import { getDb, isoTimestamp } from "@/lib/db/client";
import type { Window } from "@/lib/prices/history";
import { describeErrors, formatCollectionCsv, parseCollectionCsv, type CsvError } from "./csv";
import {
  cents, itemValue, languagesOf, MAX_ITEMS, MAX_WATCHES, parseItemFields, parsePrice, parseQuantity, printingsOf, totals, valueByDay,
  type ItemValue, type Language, type Printing, type Totals,
} from "./model";
import { currentAmount, dailyPoints, eurConverter, headlinePrices, indexSeries, seriesFor } from "./prices";
import {
  countItems, countWatches, deleteItem, deleteWatch, insertItems, selectItems, selectWatches, updateItemQuantity, upsertWatch, type NewItem,
} from "./queries/items";

// A collector's collection and price alerts (issue 14, docs/collection.md). Every function
// takes the account of the session: nothing here reads an id of another account, and an item
// or alert id the account does not own is "not found", never "forbidden".

export class CollectionNotFound extends Error {
  constructor(what = "item") {
    super(`No such ${what} in your collection.`);
  }
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: string };

export type CardFacts = { id: string; name: string; setName: string; number: string; printings: Printing[]; languages: Language[] };

const facts = (r: CardDbRow): CardFacts => ({
  id: r.id, name: r.name, setName: r.s_name, number: r.number, printings: printingsOf(r.attrs?.variants), languages: languagesOf(r.languages),
});

/** Live cards by the ids asked (id or alternate id, any case), keyed by the id as asked. */
export async function cardsByIds(ids: string[]): Promise<Map<string, CardFacts>> {
  const unique = [...new Set(ids)];
  const out = new Map<string, CardFacts>();
  for (let i = 0; i < unique.length; i += 500) {
    const part = unique.slice(i, i + 500);
    const index = cardIndex(await selectCardsByIds(part));
    for (const id of part) {
      const r = lookupCard(index, id);
      if (r && !r.deleted_at) out.set(id, facts(r));
    }
  }
  return out;
}

/** Why an item cannot be of this card (printing or language it does not exist in), or null. */
export function cardMismatch(card: CardFacts, printing: string, language: string): string | null {
  if (card.printings.length && !(card.printings as string[]).includes(printing)) {
    return `${card.id} exists in ${card.printings.join(", ")}, not ${printing}`;
  }
  if (!(card.languages as string[]).includes(language)) return `${card.id} exists in ${card.languages.join(", ")}, not ${language}`;
  return null;
}

// ── items ────────────────────────────────────────────────────────────────────

export type AddRaw = { card_id?: unknown; quantity?: unknown; condition?: unknown; printing?: unknown; language?: unknown; price_paid?: unknown; currency?: unknown };

export async function addItem(accountId: string, raw: AddRaw): Promise<Result<{ id: number; cardId: string }>> {
  const cardId = String(raw.card_id ?? "").trim().slice(0, 100);
  if (!cardId) return { ok: false, error: "Which card? card_id is empty." };
  const fields = parseItemFields(raw);
  if (typeof fields === "string") return { ok: false, error: fields };
  const card = (await cardsByIds([cardId])).get(cardId);
  if (!card) return { ok: false, error: `No card ${cardId} in the catalogue.` };
  const mismatch = cardMismatch(card, fields.printing, fields.language);
  if (mismatch) return { ok: false, error: mismatch };
  const db = await getDb();
  return db.transaction(async (tx) => {
    if ((await countItems(accountId, tx)) >= MAX_ITEMS) return { ok: false as const, error: `A collection holds at most ${MAX_ITEMS.toLocaleString("en")} items.` };
    const [id] = await insertItems(accountId, [{ ...fields, cardId: card.id }], tx);
    return { ok: true as const, value: { id: id!, cardId: card.id } };
  });
}

/** Sets an item's quantity; CollectionNotFound when the account has no such item. */
export async function setQuantity(accountId: string, id: number, rawQuantity: unknown): Promise<Result<{ id: number; quantity: number }>> {
  const q = parseQuantity(rawQuantity);
  if (typeof q === "string") return { ok: false, error: q };
  const row = Number.isSafeInteger(id) && id > 0 ? await updateItemQuantity(accountId, id, q) : undefined;
  if (!row) throw new CollectionNotFound();
  return { ok: true, value: { id: row.id, quantity: row.quantity } };
}

export async function removeItem(accountId: string, id: number): Promise<void> {
  if (!(Number.isSafeInteger(id) && id > 0) || !(await deleteItem(accountId, id))) throw new CollectionNotFound();
}

export type ItemView = {
  id: number; cardId: string; name: string; setName: string; number: string; quantity: number; condition: string; printing: string;
  language: string; pricePaid: number | null; currency: string; addedAt: string;
  /** Today's index price of one copy, EUR; null without an index. */
  unitEur: number | null;
  /** Whether the price is the card's headline index (no index of its own language and printing). */
  headline: boolean;
} & ItemValue;

export type CollectionView = { items: ItemView[]; totals: Totals; history: { date: string; eur: number }[]; window: Window };

/** The account's items valued today, the totals and the value per day over the window. */
export async function collectionView(accountId: string, window: Window = "90d", now = Date.now()): Promise<CollectionView> {
  const rows = await selectItems(accountId);
  const cards = await cardsByIds(rows.map((r) => r.cardId));
  const series = await indexSeries(rows.map((r) => r.cardId));
  const toEur = await eurConverter(rows.filter((r) => r.pricePaid != null).map((r) => r.currency), now);
  const chosen = rows.map((r) => seriesFor(series, r));
  const items: ItemView[] = rows.map((r, i) => {
    const s = chosen[i];
    const unitEur = currentAmount(s, now);
    const paidEur = r.pricePaid == null ? null : toEur(r.pricePaid, r.currency);
    const c = cards.get(r.cardId);
    return {
      id: r.id, cardId: r.cardId, name: c?.name ?? r.cardId, setName: c?.setName ?? "", number: c?.number ?? "", quantity: r.quantity,
      condition: r.condition, printing: r.printing, language: r.language, pricePaid: r.pricePaid, currency: r.currency,
      addedAt: isoTimestamp(r.addedAt)!, unitEur, headline: !!s && s.locale === null && s.printing === null,
      ...itemValue({ quantity: r.quantity, unitEur, paidEur }),
    };
  });
  const t = totals(rows.map((r, i) => ({ quantity: r.quantity, unitEur: items[i]!.unitEur, paidEur: r.pricePaid == null ? null : toEur(r.pricePaid, r.currency) })));
  const points = await dailyPoints(chosen.filter((s) => !!s), window, now);
  const history = valueByDay(rows.map((r, i) => ({ quantity: r.quantity, points: chosen[i] ? points.get(chosen[i]!.id) ?? [] : [] })));
  return { items, totals: t, history, window };
}

// ── CSV ──────────────────────────────────────────────────────────────────────

export async function exportCsv(accountId: string): Promise<string> {
  const rows = await selectItems(accountId);
  return formatCollectionCsv(rows.map((r) => ({ ...r, addedAt: isoTimestamp(r.addedAt)! })));
}

export type ImportResult = { ok: true; imported: number } | { ok: false; errors: string[]; count: number };

/**
 * Adds every line of the file or none: the lines are validated whole (fields, then the cards
 * against the catalogue), and the rows are written in one transaction.
 */
export async function importCsv(accountId: string, file: string | Uint8Array, now = Date.now()): Promise<ImportResult> {
  const parsed = parseCollectionCsv(file, now);
  if (!parsed.ok) {
    if (parsed.fatal) return { ok: false, errors: [parsed.fatal], count: 1 };
    return { ok: false, errors: describeErrors(parsed.errors), count: parsed.errors.length };
  }
  const cards = await cardsByIds(parsed.lines.map((l) => l.item.cardId));
  const errors: CsvError[] = [];
  const items: NewItem[] = [];
  for (const { line, item } of parsed.lines) {
    const card = cards.get(item.cardId);
    if (!card) {
      errors.push({ line, message: `no card ${item.cardId} in the catalogue` });
      continue;
    }
    const mismatch = cardMismatch(card, item.printing, item.language);
    if (mismatch) {
      errors.push({ line, message: mismatch });
      continue;
    }
    items.push({ ...item, cardId: card.id, addedAt: item.addedAt ?? new Date(now).toISOString() });
  }
  if (errors.length) return { ok: false, errors: describeErrors(errors), count: errors.length };
  const db = await getDb();
  return db.transaction(async (tx) => {
    const have = await countItems(accountId, tx);
    if (have + items.length > MAX_ITEMS) {
      return { ok: false as const, errors: [`The collection would hold ${(have + items.length).toLocaleString("en")} items; at most ${MAX_ITEMS.toLocaleString("en")}. Nothing was imported.`], count: 1 };
    }
    await insertItems(accountId, items, tx);
    return { ok: true as const, imported: items.length };
  });
}

// ── price alerts ─────────────────────────────────────────────────────────────

export type WatchView = {
  id: number; cardId: string; name: string; direction: "above" | "below"; threshold: number; armed: boolean;
  priceEur: number | null; lastAlertedAt: string | null;
};

export async function setWatch(accountId: string, raw: { card_id?: unknown; direction?: unknown; threshold?: unknown }): Promise<Result<{ id: number }>> {
  const cardId = String(raw.card_id ?? "").trim().slice(0, 100);
  if (!cardId) return { ok: false, error: "Which card? card_id is empty." };
  const direction = String(raw.direction ?? "");
  if (direction !== "above" && direction !== "below") return { ok: false, error: "direction must be above or below" };
  const threshold = parsePrice(raw.threshold, "threshold");
  if (typeof threshold === "string") return { ok: false, error: threshold };
  if (threshold == null || threshold <= 0) return { ok: false, error: "threshold must be an amount in EUR above 0" };
  const card = (await cardsByIds([cardId])).get(cardId);
  if (!card) return { ok: false, error: `No card ${cardId} in the catalogue.` };
  const existing = await selectWatches(accountId);
  if (!existing.some((w) => w.cardId === card.id && w.direction === direction) && existing.length >= MAX_WATCHES) {
    return { ok: false, error: `At most ${MAX_WATCHES} price alerts.` };
  }
  const row = await upsertWatch(accountId, card.id, direction, cents(threshold));
  return { ok: true, value: { id: row.id } };
}

export async function removeWatch(accountId: string, id: number): Promise<void> {
  if (!(Number.isSafeInteger(id) && id > 0) || !(await deleteWatch(accountId, id))) throw new CollectionNotFound("price alert");
}

export async function watchView(accountId: string, now = Date.now()): Promise<WatchView[]> {
  const rows = await selectWatches(accountId);
  const cards = await cardsByIds(rows.map((r) => r.cardId));
  const prices = await headlinePrices(rows.map((r) => r.cardId), now);
  return rows.map((r) => ({
    id: r.id, cardId: r.cardId, name: cards.get(r.cardId)?.name ?? r.cardId, direction: r.direction as "above" | "below",
    threshold: Number(r.threshold), armed: r.armed, priceEur: prices.get(r.cardId) ?? null, lastAlertedAt: isoTimestamp(r.lastAlertedAt),
  }));
}

export { countWatches };
