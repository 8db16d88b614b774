import { z } from "zod";
import { CACHE } from "@/lib/api/cache-control";
import { cursorParam, langParam, limitParam, orderByAlias, orderByParam } from "@/lib/api/params";
import { defineRoute, mount } from "@/lib/api/route";
import { listOf } from "@/lib/api/schemas";
import { regionParam, SetObject } from "@/lib/catalog/schemas";
import { listSets, SET_SORT_KEYS } from "@/lib/catalog/sets";
import { catalogCache } from "@/lib/catalog/version";
import { COSTS } from "@/lib/meter/costs";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = mount({
  GET: defineRoute({
    method: "GET",
    path: "/sets",
    operationId: "listSets",
    summary: "List sets",
    tags: ["Sets"],
    auth: "key",
    query: z.strictObject({
      q: z.string().max(200).optional().meta({ description: "Words of the set's name in any language, accent-insensitive; each word matches the start of a word." }),
      series: z.string().max(200).optional().meta({ description: "Series slug or name." }),
      region: regionParam,
      orderBy: orderByParam(SET_SORT_KEYS, "-release_date"),
      order_by: orderByAlias,
      limit: limitParam(),
      cursor: cursorParam,
      lang: langParam,
    }),
    response: listOf(SetObject, { totalCount: true }),
    errors: ["INVALID_PARAMETER", "INVALID_CURSOR", "LIMIT_EXCEEDED"],
    cost: COSTS.setsList,
    cacheControl: CACHE.catalog,
    etag: true,
    cache: catalogCache,
    handler: ({ query, link }) => listSets(query, link),
  }),
});
