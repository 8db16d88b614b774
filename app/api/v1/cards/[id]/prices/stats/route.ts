import { z } from "zod";
import { accountOf } from "@/lib/api/auth";
import { CACHE } from "@/lib/api/cache-control";
import { defineRoute, mount } from "@/lib/api/route";
import { CardIdParams } from "@/lib/catalog/schemas";
import { COSTS } from "@/lib/meter/costs";
import { StatsResponse, windowParam } from "@/lib/prices/schemas";
import { getStats } from "@/lib/prices/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = mount({
  GET: defineRoute({
    method: "GET",
    path: "/cards/{id}/prices/stats",
    operationId: "getCardPriceStats",
    summary: "Price stats of a card",
    description: "Low, high, median, first, last and percentage change of the composite index (EUR) over the window. On the trial, the index of the rows it is shown (English, ungraded), as its prices route computes it: none for a card priced only in other languages.",
    tags: ["Prices"],
    auth: "key",
    params: CardIdParams,
    query: z.strictObject({ window: windowParam }),
    response: StatsResponse,
    errors: ["CARD_NOT_FOUND", "INVALID_PARAMETER"],
    cost: COSTS.priceStats,
    cacheControl: CACHE.privatePrices,
    etag: true,
    handler: ({ params, query, principal }) => getStats(params.id, query, accountOf(principal)),
  }),
});
