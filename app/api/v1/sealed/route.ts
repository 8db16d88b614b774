import { accountOf } from "@/lib/api/auth";
import { z } from "zod";
import { CACHE } from "@/lib/api/cache-control";
import { cursorParam, includeParam, langParam, limitParam, orderByAlias, orderByParam } from "@/lib/api/params";
import { defineRoute, mount } from "@/lib/api/route";
import { listOf } from "@/lib/api/schemas";
import { listSealed, PRODUCT_TYPES, SEALED_INCLUDES, SEALED_SORT } from "@/lib/catalog/lists";
import { SealedObject } from "@/lib/catalog/schemas";
import { catalogCache } from "@/lib/catalog/version";
import { COSTS } from "@/lib/meter/costs";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = mount({
  GET: defineRoute({
    method: "GET",
    path: "/sealed",
    operationId: "listSealed",
    summary: "List sealed products",
    tags: ["Sealed"],
    auth: "key",
    query: z.strictObject({
      q: z.string().max(200).optional().meta({ description: "Words of the product name; each matches the start of a word." }),
      set: z.string().max(200).optional().meta({ description: "Set code, slug or alternate id." }),
      product_type: z.enum(PRODUCT_TYPES).optional().meta({ description: "Only products of this type." }),
      include: includeParam(SEALED_INCLUDES),
      orderBy: orderByParam(Object.keys(SEALED_SORT.keys), "-release_date"),
      order_by: orderByAlias,
      limit: limitParam(),
      cursor: cursorParam,
      lang: langParam,
    }),
    response: listOf(SealedObject, { totalCount: false, withheld: true }),
    errors: ["INVALID_PARAMETER", "INVALID_CURSOR", "LIMIT_EXCEEDED", "INVALID_INCLUDE", "SET_NOT_FOUND"],
    cost: COSTS.sealedList,
    cacheControl: CACHE.catalog,
    etag: true,
    cache: catalogCache,
    handler: ({ query, link, principal }) => listSealed(query, link, accountOf(principal)),
  }),
});
