import { z } from "zod";
import { accountOf } from "@/lib/api/auth";
import { CACHE } from "@/lib/api/cache-control";
import { defineRoute, mount } from "@/lib/api/route";
import { COSTS } from "@/lib/meter/costs";
import { CurrentPricesResponse } from "@/lib/prices/schemas";
import { getCurrentPrices } from "@/lib/prices/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = mount({
  GET: defineRoute({
    method: "GET",
    path: "/prices/current",
    operationId: "getCurrentPrices",
    summary: "Current prices of up to 50 cards",
    description: "Cards in the order asked; ids that resolve to nothing are listed in meta.missing (and still cost).",
    tags: ["Prices"],
    auth: "key",
    query: z.strictObject({ ids: z.string().min(1).max(5000).meta({ description: "Up to 50 card ids or alternate ids, comma-separated." }) }),
    response: CurrentPricesResponse,
    errors: ["INVALID_PARAMETER", "LIMIT_EXCEEDED"],
    cost: COSTS.pricesCurrent,
    cacheControl: CACHE.privatePrices,
    etag: true,
    handler: ({ query, principal }) => getCurrentPrices(query.ids, accountOf(principal)),
  }),
});
