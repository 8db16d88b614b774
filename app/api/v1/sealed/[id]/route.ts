import { accountOf } from "@/lib/api/auth";
import { z } from "zod";
import { CACHE } from "@/lib/api/cache-control";
import { includeParam, langParam } from "@/lib/api/params";
import { defineRoute, mount } from "@/lib/api/route";
import { dataOf } from "@/lib/api/schemas";
import { getSealed, SEALED_INCLUDES } from "@/lib/catalog/lists";
import { SealedIdParams, SealedObject } from "@/lib/catalog/schemas";
import { catalogCache } from "@/lib/catalog/version";
import { COSTS } from "@/lib/meter/costs";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = mount({
  GET: defineRoute({
    method: "GET",
    path: "/sealed/{id}",
    operationId: "getSealed",
    summary: "One sealed product",
    description: "By sku or slug.",
    tags: ["Sealed"],
    auth: "key",
    params: SealedIdParams,
    query: z.strictObject({ include: includeParam(SEALED_INCLUDES), lang: langParam }),
    response: dataOf(SealedObject),
    errors: ["SEALED_NOT_FOUND", "INVALID_PARAMETER", "INVALID_INCLUDE"],
    cost: COSTS.sealedGet,
    cacheControl: CACHE.catalog,
    etag: true,
    cache: catalogCache,
    handler: ({ params, query, principal }) => getSealed(params.id, query, accountOf(principal)),
  }),
});
