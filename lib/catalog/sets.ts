import { sql } from "drizzle-orm";
import { ApiError } from "@/lib/api/errors";
import { keysetPage, type Link } from "@/lib/api/list";
import { col, type SortSpec } from "@/lib/api/paging";
import type { Lang } from "@/lib/api/params";
import { presentSet } from "./present";
import { countSets, selectSetByIdentifier, selectSetPage, setWhere } from "./queries/sets";

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
  const where = setWhere({ q: input.q, series: input.series, region: input.region });
  const { rows, meta, links } = await keysetPage({
    spec: SET_SORT, input, link,
    fetch: (order, after, limit) => selectSetPage(where, order, after, limit),
    count: () => countSets(where),
  });
  return { body: { data: rows.map((r) => presentSet(r, input.lang)), meta, links } };
}

/** GET /v1/sets/{code} */
export async function getSet(code: string, input: { lang?: Lang }) {
  const set = await findSet(code);
  if (!set) throw new ApiError("SET_NOT_FOUND", `No set with code, slug or alternate id '${code}'.`, { code });
  return { body: { data: presentSet(set, input.lang) } };
}
