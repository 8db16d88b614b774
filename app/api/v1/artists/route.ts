import { z } from "zod";
import { CACHE } from "@/lib/api/cache-control";
import { cursorParam, limitParam, orderByAlias, orderByParam } from "@/lib/api/params";
import { defineRoute, mount } from "@/lib/api/route";
import { listOf } from "@/lib/api/schemas";
import { ARTIST_SORT, listArtists } from "@/lib/catalog/lists";
import { ArtistObject } from "@/lib/catalog/schemas";
import { catalogCache } from "@/lib/catalog/version";
import { COSTS } from "@/lib/meter/costs";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = mount({
  GET: defineRoute({
    method: "GET",
    path: "/artists",
    operationId: "listArtists",
    summary: "List artists",
    description: "card_count is maintained by the importer. total_count is exact.",
    tags: ["Artists"],
    auth: "key",
    query: z.strictObject({
      q: z.string().max(200).optional().meta({ description: "Accent-insensitive substring of the name." }),
      orderBy: orderByParam(Object.keys(ARTIST_SORT.keys), "-card_count"),
      order_by: orderByAlias,
      limit: limitParam(),
      cursor: cursorParam,
    }),
    response: listOf(ArtistObject, { totalCount: true }),
    errors: ["INVALID_PARAMETER", "INVALID_CURSOR", "LIMIT_EXCEEDED"],
    cost: COSTS.artistsList,
    cacheControl: CACHE.catalog,
    etag: true,
    cache: catalogCache,
    handler: ({ query, link }) => listArtists(query, link),
  }),
});
