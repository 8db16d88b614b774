import { loadFx } from "@/lib/prices/fx";
import { historyPoints, dayRange, windowStart, type Window } from "@/lib/prices/history";
import { monthKey, unpack } from "@/lib/prices/pack";
import { monthsOf, seriesOfProducts, type SeriesRead } from "@/lib/prices/queries/read";
import { servablePoint } from "@/lib/prices/quotes";
import { cents } from "./model";

// A collection's prices come from the composite INDEX series the price routes serve
// (lib/prices): an item is valued by the index of its language and printing when the card has
// one, else by the card's headline index. History is the same series' month rows.

const isIndex = (s: SeriesRead) => s.source === "INDEX";
const isHeadline = (s: SeriesRead) => isIndex(s) && s.locale === null && s.printing === null;

export type PriceKey = { cardId: string; language: string; printing: string };

/** The INDEX series that prices an item: its language and printing's, else the headline. */
export function seriesFor(series: SeriesRead[], k: PriceKey): SeriesRead | undefined {
  const own = series.filter((s) => s.product_id === k.cardId && isIndex(s));
  return own.find((s) => s.locale === k.language && s.printing === k.printing) ?? own.find(isHeadline);
}

export async function indexSeries(cardIds: string[]): Promise<SeriesRead[]> {
  const ids = [...new Set(cardIds)];
  const out: SeriesRead[] = [];
  for (let i = 0; i < ids.length; i += 500) out.push(...(await seriesOfProducts("card", ids.slice(i, i + 500))).filter(isIndex));
  return out;
}

/** Today's amount of a series (EUR), as the price routes would serve it. */
export function currentAmount(s: SeriesRead | undefined, now = Date.now()): number | null {
  if (!s) return null;
  return servablePoint(s, now)?.amount ?? null;
}

/** The headline index of each card today. */
export async function headlinePrices(cardIds: string[], now = Date.now()): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const s of await indexSeries(cardIds)) {
    if (!isHeadline(s)) continue;
    const v = currentAmount(s, now);
    if (v != null) out.set(s.product_id, v);
  }
  return out;
}

/** Daily points (carried to the series' last day) of these series over the window. */
export async function dailyPoints(series: SeriesRead[], window: Window, now = Date.now()): Promise<Map<number, { date: string; amount: number }[]>> {
  const to = new Date(now).toISOString().slice(0, 10);
  const from = windowStart(window, to);
  const unique = [...new Map(series.map((s) => [s.id, s])).values()];
  const months = await monthsOf(unique.map((s) => s.id), monthKey(dayRange(from, to, 7)[0]!), monthKey(to));
  const pairs = new Map<number, [string, number][]>();
  for (const m of months) {
    const list = pairs.get(m.series_id) ?? [];
    list.push(...unpack(m.month, m.amounts));
    pairs.set(m.series_id, list);
  }
  const days = dayRange(from, to, 7);
  const out = new Map<number, { date: string; amount: number }[]>();
  for (const s of unique) {
    // Carried to today: a card's value is its last index until a newer one (as "value today" is).
    out.set(s.id, historyPoints(pairs.get(s.id) ?? [], { from, to, interval: "day", source: s.source, lastAsOf: to, now, days }));
  }
  return out;
}

/** Converts an amount in `currency` to EUR at today's reference rate (the latest within a week); rates loaded only when needed. */
export async function eurConverter(currencies: Iterable<string>, now = Date.now()): Promise<(amount: number, currency: string) => number | null> {
  const need = [...currencies].some((c) => c !== "EUR");
  const fx = need ? await loadFx() : undefined;
  const day = new Date(now).toISOString().slice(0, 10);
  return (amount, currency) => {
    if (currency === "EUR") return amount;
    const rate = fx?.(currency, day);
    return rate && rate > 0 ? cents(amount / rate) : null;
  };
}
