import { z } from "zod";
import { CACHE } from "@/lib/api/cache-control";
import { cursorParam, langParam, limitParam, orderByAlias, orderByParam } from "@/lib/api/params";
import { defineRoute, mount } from "@/lib/api/route";
import { listOf } from "@/lib/api/schemas";
import { listSeries, SERIES_SORT } from "@/lib/catalog/lists";
import { SeriesObject } from "@/lib/catalog/schemas";
import { catalogCache } from "@/lib/catalog/version";
import { COSTS } from "@/lib/meter/costs";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = mount({
  GET: defineRoute({
    method: "GET",
    path: "/series",
    operationId: "listSeries",
    summary: "List series",
    description: "Slug is always the final tiebreaker. With lang, orderBy=name sorts by the name shown in that language, and the set list's series filter accepts that name too.",
    tags: ["Sets"],
    auth: "key",
    query: z.strictObject({
      orderBy: orderByParam(Object.keys(SERIES_SORT.keys), "-set_count"),
      order_by: orderByAlias,
      limit: limitParam(),
      cursor: cursorParam,
      lang: langParam,
    }),
    response: listOf(SeriesObject, { totalCount: true }),
    errors: ["INVALID_PARAMETER", "INVALID_CURSOR", "LIMIT_EXCEEDED"],
    cost: COSTS.seriesList,
    cacheControl: CACHE.daily,
    etag: true,
    cache: catalogCache,
    handler: ({ query, link }) => listSeries(query, link),
  }),
});
