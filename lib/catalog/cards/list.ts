import { sql, type SQL } from "drizzle-orm";
import { ApiError } from "@/lib/api/errors";
import { keysetPage, type Link } from "@/lib/api/list";
import type { SortSpec } from "@/lib/api/paging";
import type { Lang } from "@/lib/api/params";
import { parseInclude, parseSelect } from "@/lib/api/select";
import { compileCardWhere, namePatterns, numberTerms, parseCardQuery, type Node } from "@/lib/query";
import { broadPatterns } from "@/lib/catalog/queries/terms";
import { selectCardImages, selectCardPage, type CardDbRow, type CardImageRow } from "@/lib/catalog/queries/cards";
import type { Account } from "@/lib/accounts/types";
import { needsPlanPrices, pricesOf } from "@/lib/prices/embed";
import { withholdsRows } from "@/lib/prices/quotes";
import { CARD_FIELDS, CARD_INCLUDES, presentCard, withheldGroups, type CardView } from "./present";
import { CARD_SORT, cardSortFor, SET_CARD_SORT } from "./sort";
import { findSet } from "@/lib/catalog/sets";
import { withImpliedIndex } from "@/lib/catalog/present";

export type CardListInput = {
  q?: string; region?: string; orderBy?: string; order_by?: string; limit: number; cursor?: string;
  select?: string; include?: string; lang?: Lang;
  /** Only cards with a composite index (the collector pages' price ranking; not an API parameter). */
  priced?: boolean;
  /** Only cards with a move over this window (the collector pages' change sorts; not an API parameter). */
  moved?: "7d" | "30d";
  /** The index's moves on every row with the index (the collector pages; not an API parameter). */
  changes?: boolean;
};

export function cardView(input: { select?: string; include?: string; lang?: Lang }, account?: Account): CardView {
  return {
    include: withImpliedIndex(parseInclude(input.include, CARD_INCLUDES)),
    select: parseSelect(input.select, CARD_FIELDS),
    lang: input.lang,
    account,
  };
}

/** What the answer leaves out: field groups, and the kinds of price rows the plan did not see. */
export function withheldFor(view: CardView, full: { pricesHeld?: string[] }): string[] {
  return [...withheldGroups(view), ...(full.pricesHeld ?? [])];
}

/** What the answer's includes need beyond the card rows: images, and prices for the caller's plan. */
export async function withIncludes(view: CardView, rows: CardDbRow[]): Promise<CardView & { notes?: string[]; pricesHeld?: string[] }> {
  let out: CardView & { notes?: string[]; pricesHeld?: string[] } = view;
  if (view.include.has("images")) {
    const images = new Map<string, CardImageRow[]>();
    for (const img of await selectCardImages(rows.map((r) => r.id))) {
      const list = images.get(img.owner_id);
      if (list) list.push(img);
      else images.set(img.owner_id, [img]);
    }
    out = { ...out, images };
  }
  const withPrices = view.include.has("prices");
  if (needsPlanPrices(view.include, view.account)) {
    const { prices, notes, withheld } = await pricesOf("card", rows.map((r) => ({ id: r.id, region: r.s_print_region })), view.account);
    out = withPrices ? { ...out, prices, notes, pricesHeld: withheld } : { ...out, prices };
  }
  return out;
}

async function page(spec: SortSpec, input: CardListInput, link: Link, filters: SQL[], account?: Account) {
  const view: CardView = { ...cardView(input, account), changes: input.changes };
  const ast = parseCardQuery(input.q);
  const where = compileCardWhere(ast, { broad: await broadPatterns(namePatterns(ast)), trialIndex: withholdsRows(account) });
  if (input.region) filters.push(sql`c.print_region = ${input.region}`);
  if (input.priced) filters.push(sql`c.index_eur is not null`);
  if (input.moved) filters.push(input.moved === "7d" ? sql`c.change_7d_pct is not null` : sql`c.change_30d_pct is not null`);
  const all = sql.join([where, ...filters], sql` and `);
  const { rows, meta, links } = await keysetPage({
    spec: cardSortFor(spec, account, input.lang), input, link, included: view.include,
    fetch: (order, after, limit) => selectCardPage(all, order, after, limit, { filtered: !!input.q || !!input.region || !!input.priced || !!input.moved }),
  });
  const full = await withIncludes(view, rows);
  const withheld = withheldFor(view, full);
  if (withheld.length) meta.withheld = withheld;
  if (full.notes?.length) meta.plan_notes = full.notes;
  return { ast, rows, body: { data: rows.map((r) => presentCard(r, full)), meta, links } };
}

/** GET /v1/cards */
export async function listCards(input: CardListInput, link: Link, account?: Account) {
  const { rows, body } = await page(CARD_SORT, input, link, [], account);
  return { body, cardIds: rows.map((r) => r.id) };
}

/** GET /v1/sets/{code}/cards: 404 for an unknown set, never an empty page. */
export async function listSetCards(code: string, input: CardListInput, link: Link, account?: Account) {
  const set = await findSet(code);
  if (!set) throw new ApiError("SET_NOT_FOUND", `No set with code, slug or alternate id '${code}'.`, { code });
  // The cursor is bound to this set's list: another set's would skip its first rows unseen.
  const { ast, rows, body } = await page({ ...SET_CARD_SORT, resource: `${SET_CARD_SORT.resource}:${set.id}` }, input, link, [sql`c.set_id = ${set.id}`], account);
  const hint = !rows.length && !input.cursor ? dexHint(ast, set) : null;
  if (hint) body.meta.hint = { ...hint, href: link({ q: hint.q, cursor: undefined }) };
  return { body, cardIds: rows.map((r) => r.id) };
}

/** Japanese cards before mid-2001 print no collector number, only the National Pokédex number. */
const VINTAGE_JP_BEFORE = "2001-07-01";

function dexHint(ast: Node | null, set: { print_region: string | null; release_date: string | null }) {
  if (set.print_region !== "JP" || !set.release_date || set.release_date >= VINTAGE_JP_BEFORE) return null;
  const n = numberTerms(ast).map((v) => /^0*(\d+)/.exec(v)?.[1]).find(Boolean);
  if (!n) return null;
  return {
    code: "TRY_POKEDEX_NUMBER",
    message: "Vintage Japanese cards print no collector number. Try the National Pokédex number instead.",
    q: `national_pokedex_numbers:${n}`,
  };
}
