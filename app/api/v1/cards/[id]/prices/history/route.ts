import { z } from "zod";
import { accountOf } from "@/lib/api/auth";
import { CACHE } from "@/lib/api/cache-control";
import { defineRoute, mount } from "@/lib/api/route";
import { CardIdParams } from "@/lib/catalog/schemas";
import { COSTS } from "@/lib/meter/costs";
import { HistoryResponse, intervalParam, sourceParam, variantParam, windowParam } from "@/lib/prices/schemas";
import { getHistory } from "@/lib/prices/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = mount({
  GET: defineRoute({
    method: "GET",
    path: "/cards/{id}/prices/history",
    operationId: "getCardPriceHistory",
    summary: "Price history of a card",
    description: "One point per day, week or month, per source and variant (and locale, printing and grade), over the window. Daily points carry the latest known value; week and month points are means with low and high.",
    tags: ["Prices"],
    auth: "key",
    params: CardIdParams,
    query: z.strictObject({ window: windowParam, interval: intervalParam, source: sourceParam, variant: variantParam }),
    response: HistoryResponse,
    errors: ["CARD_NOT_FOUND", "INVALID_PARAMETER"],
    cost: COSTS.priceHistory,
    cacheControl: CACHE.privatePrices,
    etag: true,
    handler: ({ params, query, principal }) => getHistory(params.id, query, accountOf(principal)),
  }),
});
