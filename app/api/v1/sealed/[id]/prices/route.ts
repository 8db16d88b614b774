import { accountOf } from "@/lib/api/auth";
import { CACHE } from "@/lib/api/cache-control";
import { defineRoute, mount } from "@/lib/api/route";
import { COSTS } from "@/lib/meter/costs";
import { PricesQuery, SealedPricesResponse } from "@/lib/prices/schemas";
import { getSealedPrices } from "@/lib/prices/service";
import { SealedIdParams } from "@/lib/catalog/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = mount({
  GET: defineRoute({
    method: "GET",
    path: "/sealed/{id}/prices",
    operationId: "getSealedPrices",
    summary: "Current prices of a sealed product",
    description: "The same rules as the card prices route.",
    tags: ["Prices"],
    auth: "key",
    params: SealedIdParams,
    query: PricesQuery,
    response: SealedPricesResponse,
    errors: ["SEALED_NOT_FOUND", "INVALID_PARAMETER"],
    cost: COSTS.sealedPrices,
    cacheControl: CACHE.privatePrices,
    etag: true,
    handler: ({ params, query, principal }) => getSealedPrices(params.id, query, accountOf(principal)),
  }),
});
