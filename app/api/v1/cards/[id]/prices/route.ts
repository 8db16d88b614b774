import { accountOf } from "@/lib/api/auth";
import { CACHE } from "@/lib/api/cache-control";
import { defineRoute, mount } from "@/lib/api/route";
import { CardIdParams } from "@/lib/catalog/schemas";
import { COSTS } from "@/lib/meter/costs";
import { CardPricesResponse, PricesQuery } from "@/lib/prices/schemas";
import { getCardPrices } from "@/lib/prices/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = mount({
  GET: defineRoute({
    method: "GET",
    path: "/cards/{id}/prices",
    operationId: "getCardPrices",
    summary: "Current prices of a card",
    description: "One row per source, variant, locale, printing and grade. Trial keys see English, ungraded rows; paid plans everything. `index` is computed before the filters. A third-party figure is served once it is older than its source's delay.",
    tags: ["Prices"],
    auth: "key",
    params: CardIdParams,
    query: PricesQuery,
    response: CardPricesResponse,
    errors: ["CARD_NOT_FOUND", "INVALID_PARAMETER"],
    cost: COSTS.cardPrices,
    cacheControl: CACHE.privatePrices,
    etag: true,
    handler: ({ params, query, principal }) => getCardPrices(params.id, query, accountOf(principal)),
  }),
});
