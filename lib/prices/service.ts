import { ApiError } from "@/lib/api/errors";
import type { Account } from "@/lib/accounts/types";
import { selectCardsByIds, type CardDbRow } from "@/lib/catalog/queries/cards";
import { cardIndex, findCard, lookupCard, parseIds } from "@/lib/catalog/cards/get";
import { pricesOf } from "./embed";
import { monthsOf, sealedSlug, seriesOfProducts, type SeriesRead } from "./queries/read";
import { planAllows, planNotes, productPrices, servablePoint, type QuoteFilters } from "./quotes";
import { SOURCES } from "./sources";
import { monthKey, unpack } from "./pack";
import { dayRange, historyPoints, stats, windowStart, type Interval, type Window } from "./history";

export const MAX_CURRENT_IDS = 50;

// The price routes add no distinct cards: SPEC.md counts them "on the card routes only" (the
// card lists, a card, the batch, a set's cards and identify's candidates). A card's prices
// asked through those (include=prices) count as that route does.

export function listSources() {
  return { body: { data: SOURCES, count: SOURCES.length } };
}

function pricesBody(productKey: "card_id" | "sealed_id", id: string, series: SeriesRead[], account: Account, filters: QuoteFilters, region: string | null) {
  const p = productPrices(series, account, filters, region);
  return {
    body: {
      data: { [productKey]: id, index: p.index, quotes: p.quotes },
      meta: { quotes: p.quotes.length, delayed_hours: p.delayedHours, plan_notes: planNotes(account, p.withheld) },
    },
    withheld: p.withheld,
  };
}

/** GET /v1/cards/{id}/prices */
export async function getCardPrices(id: string, filters: QuoteFilters, account: Account) {
  const row = await findCard(id);
  const { body } = pricesBody("card_id", row.id, await seriesOfProducts("card", [row.id]), account, filters, row.s_print_region);
  return { body };
}

/** GET /v1/sealed/{id}/prices */
export async function getSealedPrices(id: string, filters: QuoteFilters, account: Account) {
  const slug = await sealedSlug(id);
  if (!slug) throw new ApiError("SEALED_NOT_FOUND", `No sealed product with sku or slug '${id}'.`, { id });
  return { body: pricesBody("sealed_id", slug, await seriesOfProducts("sealed", [slug]), account, filters, null).body };
}

/** GET /v1/prices/current?ids= : up to 50 cards, in the order asked, unknown ids in meta.missing. */
export async function getCurrentPrices(rawIds: string, account: Account) {
  const ids = parseIds(rawIds, MAX_CURRENT_IDS);
  const byId = cardIndex(await selectCardsByIds(ids));
  const wanted = ids.map((i) => lookupCard(byId, i)).map((r) => (r?.deleted_at ? undefined : r));
  const present = [...new Map(wanted.filter((r): r is CardDbRow => !!r).map((r) => [r.id, r])).values()];
  const { prices, notes } = await pricesOf("card", present.map((r) => ({ id: r.id, region: r.s_print_region })), account);
  const data = present.map((r) => {
    const p = prices.get(r.id)!;
    return { card_id: r.id, index: p.index, quotes: p.quotes };
  });
  const missing = ids.filter((_, i) => !wanted[i]);
  return {
    body: { data, meta: { count: data.length, missing, quotes: data.reduce((n, d) => n + d.quotes.length, 0), plan_notes: notes } },
  };
}

async function historySeries(id: string, account: Account, filters: { source?: string; variant?: string }) {
  const row = await findCard(id);
  const all = (await seriesOfProducts("card", [row.id])).filter((s) => planAllows(account, s));
  return { row, series: all.filter((s) => (!filters.source || s.source === filters.source) && (!filters.variant || s.variant === filters.variant)) };
}

async function points(series: SeriesRead[], from: string, to: string) {
  const months = await monthsOf(series.map((s) => s.id), monthKey(from), monthKey(to));
  const by = new Map<number, [string, number][]>();
  for (const m of months) {
    const list = by.get(m.series_id);
    const got = unpack(m.month, m.amounts);
    if (list) list.push(...got);
    else by.set(m.series_id, got);
  }
  return by;
}

/** GET /v1/cards/{id}/prices/history */
export async function getHistory(id: string, q: { window: Window; interval: Interval; source?: string; variant?: string }, account: Account, now = Date.now()) {
  const { row, series } = await historySeries(id, account, q);
  const to = new Date(now).toISOString().slice(0, 10);
  const from = windowStart(q.window, to);
  const pts = await points(series, from, to);
  const days = dayRange(from, to, 7);
  const data = series
    .filter((s) => !(s.source === "INDEX" && s.locale === null && s.printing === null) || !q.source || q.source === "INDEX")
    .map((s) => ({
      source: s.source, variant: s.variant, basis: s.basis, currency: s.currency, locale: s.locale, condition: s.condition, printing: s.printing,
      grading: s.grading_score ? { ...(s.grading_company ? { company: s.grading_company } : {}), score: s.grading_score } : null,
      provenance: s.provenance,
      points: historyPoints(pts.get(s.id) ?? [], { from, to, interval: q.interval, source: s.source, lastAsOf: s.last_as_of, now, days, servableAsOf: servablePoint(s, now)?.as_of }),
    }))
    .filter((s) => s.points.length);
  return {
    body: { data: { card_id: row.id, window: q.window, interval: q.interval, from, to, series: data }, meta: { series: data.length, plan_notes: planNotes(account, 0) } },
  };
}

/**
 * The composite index series the account sees: the headline (all locales), or for the trial,
 * whose quotes are the English ones (SPEC.md prices rule 2), the index of its English rows. A
 * card priced in English only has that as its headline; one priced in other languages only has
 * none for the trial; one priced in both, its English index (the first printing's).
 */
function indexSeriesFor(all: SeriesRead[], account: Account): SeriesRead | undefined {
  const index = all.filter((s) => s.source === "INDEX");
  const headline = index.find((s) => s.locale === null && s.printing === null);
  if (account.plan !== "trial") return headline;
  const byLocale = index.filter((s) => s.locale !== null);
  if (byLocale.every((s) => planAllows(account, s))) return headline;
  return byLocale.filter((s) => planAllows(account, s)).sort((a, b) => ((a.printing ?? "") < (b.printing ?? "") ? -1 : 1))[0];
}

/** The composite index of a card as the account sees it, day by day over the window (no carried days). */
async function indexHistory(cardId: string, window: Window, now: number, account: Account) {
  const series = indexSeriesFor(await seriesOfProducts("card", [cardId]), account);
  const to = new Date(now).toISOString().slice(0, 10);
  const from = windowStart(window, to);
  const pts = series ? (await points([series], from, to)).get(series.id) ?? [] : [];
  return { from, to, provenance: series?.provenance ?? null, points: pts.filter(([d]) => d >= from && d <= to).sort((a, b) => (a[0] < b[0] ? -1 : 1)) };
}

/** GET /v1/cards/{id}/prices/stats: the composite index over the window. */
export async function getStats(id: string, q: { window: Window }, account: Account, now = Date.now()) {
  const row = await findCard(id);
  const { from, to, points: pts, provenance } = await indexHistory(row.id, q.window, now, account);
  const s = stats(pts);
  return { body: { data: { card_id: row.id, window: q.window, from, to, currency: "EUR", source: "INDEX", ...s, provenance } } };
}
