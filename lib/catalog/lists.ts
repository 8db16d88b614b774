import { sql } from "drizzle-orm";
import { ApiError } from "@/lib/api/errors";
import { keysetPage, type Link, type PageInput } from "@/lib/api/list";
import { col, type SortSpec } from "@/lib/api/paging";
import type { Lang } from "@/lib/api/params";
import { parseInclude } from "@/lib/api/select";
import { presentArtist, presentSealed, presentSeries, withImpliedIndex } from "./present";
import type { Account } from "@/lib/accounts/types";
import { needsPlanPrices, planIndexFields, pricesOf } from "@/lib/prices/embed";
import { withholdsRows } from "@/lib/prices/quotes";
import {
  artistWhere, countArtists, countSeries, sealedWhere, selectArtist, selectArtistPage, selectSealed, selectSealedPage,
  selectSeriesPage,
} from "./queries/lists";
import { sortByLocalName } from "./local-sort";
import { findSet } from "./sets";

// Series, artists and sealed products: the lists without a query language.

export const SERIES_SORT: SortSpec = {
  resource: "series", tiebreaker: "slug", default: "-set_count",
  keys: {
    set_count: { columns: [col(sql`r.set_count`, "int", false)] },
    name: { columns: [col(sql`r.name`, "text", false)] },
    slug: { columns: [col(sql`r.id`, "text", false)] },
  },
};

export async function listSeries(input: PageInput & { lang?: Lang }, link: Link) {
  const { rows, meta, links } = await keysetPage({
    spec: sortByLocalName(SERIES_SORT, input.lang, sql`r.names`, sql`r.name`), input, link, fetch: selectSeriesPage, count: countSeries,
  });
  return { body: { data: rows.map((r) => presentSeries(r, input.lang)), meta, links } };
}

export const ARTIST_SORT: SortSpec = {
  resource: "artists", tiebreaker: "slug", default: "-card_count",
  keys: {
    card_count: { columns: [col(sql`a.card_count`, "int", false)] },
    name: { columns: [col(sql`a.name`, "text", false)] },
    slug: { columns: [col(sql`a.slug`, "text", false)] },
  },
};

export async function listArtists(input: PageInput & { q?: string }, link: Link) {
  const where = artistWhere(input.q);
  const { rows, meta, links } = await keysetPage({
    spec: ARTIST_SORT, input, link,
    fetch: (order, after, limit) => selectArtistPage(where, order, after, limit),
    count: () => countArtists(where),
  });
  return { body: { data: rows.map(presentArtist), meta, links } };
}

export async function getArtist(slug: string) {
  const artist = await selectArtist(slug);
  if (!artist) throw new ApiError("ARTIST_NOT_FOUND", `No artist with slug '${slug}'.`, { slug });
  return { body: { data: presentArtist(artist) } };
}

export const SEALED_SORT: SortSpec = {
  resource: "sealed", tiebreaker: "slug", default: "-release_date",
  keys: {
    release_date: { columns: [col(sql`p.release_date`, "date")] },
    name: { columns: [col(sql`p.name`, "text", false)] },
    sku: { columns: [col(sql`p.sku`, "text", false)] },
    product_type: { columns: [col(sql`p.product_type`, "text", false)] },
    index_eur: { columns: [col(sql`p.index_eur`, "float")], requires: "index" },
    updated_at: { columns: [col(sql`p.updated_at`, "timestamp", false)] },
    slug: { columns: [col(sql`p.slug`, "text", false)] },
  },
};

/** The trial's sort: by the index of the rows it is shown (as cards/sort.ts cardSortFor). */
const SEALED_TRIAL_SORT: SortSpec = {
  ...SEALED_SORT, keys: { ...SEALED_SORT.keys, index_eur: { ...SEALED_SORT.keys.index_eur!, columns: [col(sql`p.trial_index_eur`, "float")] } },
};

export const SEALED_INCLUDES = ["index", "prices"] as const;
export const PRODUCT_TYPES = [
  "booster-box", "booster-pack", "elite-trainer-box", "bundle", "tin", "blister", "collection-box", "build-battle-box",
  "theme-deck", "battle-deck", "trainer-kit", "starter-set", "prerelease-kit", "case", "other",
] as const;

export type SealedListInput = PageInput & { q?: string; set?: string; product_type?: string; include?: string; lang?: Lang };

/** include=prices: the sealed prices route's rows for the caller's plan, per product. */
async function withSealedPrices(include: Set<string>, data: Record<string, unknown>[], account?: Account) {
  if (!needsPlanPrices(include, account)) return undefined;
  const found = await pricesOf("sealed", data.map((d) => ({ id: String(d.slug), region: null })), account);
  for (const d of data) {
    const p = found.prices.get(String(d.slug));
    if (include.has("prices")) d.prices = { index: p?.index ?? null, quotes: p?.quotes ?? [] };
    planIndexFields(d, account, p?.index);
  }
  return include.has("prices") ? found.notes : undefined;
}

export async function listSealed(input: SealedListInput, link: Link, account?: Account) {
  const include = withImpliedIndex(parseInclude(input.include, SEALED_INCLUDES));
  let setId: string | undefined;
  if (input.set) {
    const set = await findSet(input.set);
    if (!set) throw new ApiError("SET_NOT_FOUND", `No set with code, slug or alternate id '${input.set}'.`, { code: input.set });
    setId = set.id;
  }
  const where = sealedWhere({ q: input.q, setId, productType: input.product_type });
  const { rows, meta, links } = await keysetPage({
    spec: withholdsRows(account) ? SEALED_TRIAL_SORT : SEALED_SORT, input, link, included: new Set<string>(include),
    fetch: (order, after, limit) => selectSealedPage(where, order, after, limit),
  });
  const index = include.has("index");
  const data = rows.map((r) => presentSealed(r, { lang: input.lang, index }) as Record<string, unknown>);
  const notes = await withSealedPrices(include, data, account);
  if (notes?.length) meta.plan_notes = notes;
  return { body: { data, meta, links } };
}

export async function getSealed(id: string, input: { lang?: Lang; include?: string }, account?: Account) {
  const include = withImpliedIndex(parseInclude(input.include, SEALED_INCLUDES));
  const row = await selectSealed(id);
  if (!row) throw new ApiError("SEALED_NOT_FOUND", `No sealed product with sku or slug '${id}'.`, { id });
  const data = presentSealed(row, { lang: input.lang, index: include.has("index") }) as Record<string, unknown>;
  const notes = await withSealedPrices(include, [data], account);
  return { body: { data }, headers: notes?.length ? { "x-plan-withheld": notes.join(" ") } : undefined };
}
