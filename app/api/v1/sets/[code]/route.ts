import { z } from "zod";
import { CACHE } from "@/lib/api/cache-control";
import { langParam } from "@/lib/api/params";
import { defineRoute, mount } from "@/lib/api/route";
import { dataOf } from "@/lib/api/schemas";
import { SetCodeParams, SetObject } from "@/lib/catalog/schemas";
import { getSet } from "@/lib/catalog/sets";
import { catalogCache } from "@/lib/catalog/version";
import { COSTS } from "@/lib/meter/costs";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = mount({
  GET: defineRoute({
    method: "GET",
    path: "/sets/{code}",
    operationId: "getSet",
    summary: "One set",
    description: "By code, slug, alternate id or printed code (MEW), case-insensitive.",
    tags: ["Sets"],
    auth: "key",
    params: SetCodeParams,
    query: z.strictObject({ lang: langParam }),
    response: dataOf(SetObject),
    errors: ["SET_NOT_FOUND", "INVALID_PARAMETER"],
    cost: COSTS.setGet,
    cacheControl: CACHE.catalog,
    etag: true,
    cache: catalogCache,
    handler: ({ params, query }) => getSet(params.code, query),
  }),
});
