import { listSetCards } from "@/lib/catalog/cards/list";
import { listSeries } from "@/lib/catalog/lists";
import { listSets } from "@/lib/catalog/sets";
import { listMovers } from "@/lib/prices/movers";
import { byCatalogVersion } from "@/lib/catalog/memo";
import { cardRow, type CardRow } from "../cards/card-views";

// What the set and series pages read, through the API's own list functions (the rows GET
// /v1/sets, /v1/series and /v1/sets/{code}/cards answer), every page of them followed, and kept
// per catalogue version (lib/catalog/memo.ts): a later visit reads them from memory.

export type SetRow = {
  id: string; name: string; name_en: string | null; ptcgo_code: string | null; series: { id: string; name: string };
  print_region: string | null; release_date: string | null; printed_total: number | null; total: number | null; card_count: number;
  languages: string[];
};
export type SeriesRow = { id: string; name: string; set_count: number; card_count: number; first_release_date: string | null; last_release_date: string | null };

// The list functions take a link builder; handing back the raw cursor lets the next call follow it.
const cursorLink = (p: Record<string, string | number | undefined>) => (p.cursor ? String(p.cursor) : "");

/** Every set (of one series), newest first. */
export function allSets(series?: string): Promise<SetRow[]> {
  return byCatalogVersion(`sets:${series ?? ""}`, () => readSets(series));
}

async function readSets(series?: string): Promise<SetRow[]> {
  const out: SetRow[] = [];
  let cursor: string | undefined;
  do {
    const { body } = await listSets({ limit: 250, orderBy: "-release_date", series, cursor }, cursorLink);
    out.push(...(body.data as unknown as SetRow[]));
    cursor = body.links.next || undefined;
  } while (cursor);
  return out;
}

export function allSeries(): Promise<SeriesRow[]> {
  return byCatalogVersion("series", readSeries);
}

async function readSeries(): Promise<SeriesRow[]> {
  const { body } = await listSeries({ limit: 250, orderBy: "name" }, cursorLink);
  // Newest era first: the order a collector meets them in.
  return (body.data as unknown as SeriesRow[]).sort((a, b) => (b.last_release_date ?? "").localeCompare(a.last_release_date ?? "") || a.name.localeCompare(b.name));
}

/** Every card of a set in number order (number_sort, number, id) with its index. Throws SET_NOT_FOUND. */
export function setCards(code: string): Promise<CardRow[]> {
  return byCatalogVersion(`set-cards:${code}`, () => readSetCards(code));
}

async function readSetCards(code: string): Promise<CardRow[]> {
  const out: CardRow[] = [];
  let cursor: string | undefined;
  do {
    const { body } = await listSetCards(code, { limit: 250, include: "index", orderBy: "number", cursor }, cursorLink);
    out.push(...(body.data as unknown as CardRow[]).map(cardRow));
    cursor = body.links.next || undefined;
  } while (cursor);
  return out;
}

export type SetValue = { total_eur: number; priced: number; change_eur: number | null; change_pct: number | null };

/**
 * The set's value: the sum of its cards' composite indexes, and how that sum moved over the
 * window, from the movers' table (each card's index then and now; a card with no move over the
 * window, or none recorded, counts as unchanged).
 */
export function setValue(code: string, cards: CardRow[], window: "7d" | "30d" = "30d"): Promise<SetValue> {
  return byCatalogVersion(`set-value:${code}:${window}`, () => readSetValue(code, cards, window));
}

async function readSetValue(code: string, cards: CardRow[], window: "7d" | "30d"): Promise<SetValue> {
  const priced = cards.filter((c) => c.index_eur != null);
  const total = priced.reduce((s, c) => s + c.index_eur!, 0);
  if (!priced.length) return { total_eur: 0, priced: 0, change_eur: null, change_pct: null };
  const { body } = await listMovers({ window, product: "card", limit: 1000, min_eur: 0, set: code });
  const moves = [...body.data.rose, ...body.data.fell];
  if (!moves.length) return { total_eur: total, priced: priced.length, change_eur: null, change_pct: null };
  const change = moves.reduce((s, m) => s + (m.to.eur - m.from.eur), 0);
  const before = total - change;
  return { total_eur: total, priced: priced.length, change_eur: change, change_pct: before > 0 ? (change / before) * 100 : null };
}

export const regionLabel = (r: string | null) => ({ WEST: "International", JP: "Japan", CN: "China", KR: "Korea" })[r ?? ""] ?? "Other";
export const fmtDate = (d: string | null) =>
  d ? new Date(`${d}T00:00:00Z`).toLocaleDateString("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" }) : "–";

/** A set's badge: its printed code when it has one, else its own code without the upstream's prefix. */
export const badgeText = (s: { ptcgo_code: string | null; id: string }) => s.ptcgo_code ?? s.id.replace(/^tcgdex-(asia-)?/i, "");

export const symbolUrl = (s: { id: string }) => `/sets/${encodeURIComponent(s.id)}/symbol.svg`;

/**
 * The set's symbol, an image of the app's own. Decorative (alt=""): the set's name is beside it,
 * and the set's page shows its code as text.
 */
export function SetSymbol({ set, size }: { set: { id: string; ptcgo_code: string | null }; size: "small" | "large" }) {
  const [w, h] = size === "small" ? [60, 24] : [100, 40];
  return <img className={`set-symbol ${size}`} src={symbolUrl(set)} alt="" width={w} height={h} loading={size === "small" ? "lazy" : "eager"} decoding="async" data-badge={badgeText(set)} />;
}
