import { sql } from "drizzle-orm";
import { ApiError } from "@/lib/api/errors";
import { keysetPage, type Link } from "@/lib/api/list";
import { col, type SortSpec } from "@/lib/api/paging";
import type { Lang } from "@/lib/api/params";
import { presentSet } from "./present";
import { wordKey } from "@/lib/util/text";
import { byCatalogVersion } from "./memo";
import { identifierKey } from "./queries/identifiers";
import { countSets, selectSeriesNames, selectSetByIdentifier, selectSetPage, setWhere } from "./queries/sets";

export const SET_SORT: SortSpec = {
  resource: "sets",
  tiebreaker: "code",
  default: "-release_date",
  keys: {
    code: { columns: [col(sql`s.id`, "text", false)] },
    name: { columns: [col(sql`s.name`, "text", false)] },
    release_date: { columns: [col(sql`s.release_date`, "date")] },
    printed_total: { columns: [col(sql`s.printed_total`, "int")] },
    total: { columns: [col(sql`s.total`, "int")] },
    card_count: { columns: [col(sql`s.card_count`, "int", false)] },
    series: { columns: [col(sql`s.series_id`, "text", false)] },
  },
};
export const SET_SORT_KEYS = Object.keys(SET_SORT.keys);

export async function findSet(code: string) {
  return selectSetByIdentifier(code);
}

export type SetListInput = {
  q?: string; series?: string; region?: string; orderBy?: string; order_by?: string; limit: number; cursor?: string; lang?: Lang;
};

/** GET /v1/sets */
export async function listSets(input: SetListInput, link: Link) {
  const seriesIds = input.series ? await seriesNamed(input.series) : undefined;
  const where = setWhere({ q: input.q, seriesIds, region: input.region });
  const { rows, meta, links } = await keysetPage({
    spec: SET_SORT, input, link,
    fetch: (order, after, limit) => selectSetPage(where, order, after, limit),
    count: () => countSets(where),
  });
  return { body: { data: rows.map((r) => presentSet(r, input.lang)), meta, links } };
}

/**
 * The series a `series` filter names: by slug, else by name in any of its languages, as
 * GET /v1/series shows it with or without `lang` (SPEC.md: the filter accepts the series' name).
 * A slug names one series; a name counts only when no series has that slug ('xy' is the slug of
 * XY and the name of the Asian XY series).
 */
export async function seriesNamed(text: string): Promise<string[]> {
  const all = await byCatalogVersion("series-names", selectSeriesNames);
  const slug = identifierKey(text);
  const bySlug = all.filter((s) => s.id.toLowerCase() === slug);
  if (bySlug.length) return bySlug.map((s) => s.id);
  const key = wordKey(text);
  if (!key) return [];
  return all.filter((s) => wordKey(s.name) === key || Object.values(s.names ?? {}).some((n) => wordKey(n) === key)).map((s) => s.id);
}

/** GET /v1/sets/{code} */
export async function getSet(code: string, input: { lang?: Lang }) {
  const set = await findSet(code);
  if (!set) throw new ApiError("SET_NOT_FOUND", `No set with code, slug or alternate id '${code}'.`, { code });
  return { body: { data: presentSet(set, input.lang) } };
}
