import { accountOf } from "@/lib/api/auth";
import { CACHE } from "@/lib/api/cache-control";
import { defineRoute, mount } from "@/lib/api/route";
import { listOf } from "@/lib/api/schemas";
import { listCards } from "@/lib/catalog/cards/list";
import { CardListQuery, CardObject } from "@/lib/catalog/schemas";
import { catalogCache } from "@/lib/catalog/version";
import { COSTS } from "@/lib/meter/costs";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = mount({
  GET: defineRoute({
    method: "GET",
    path: "/cards",
    operationId: "listCards",
    summary: "Search cards",
    description: "Cards matching q, in a total order, paged by cursor. total_count is absent on card lists.",
    tags: ["Cards"],
    auth: "key",
    query: CardListQuery,
    response: listOf(CardObject, { totalCount: false, withheld: true }),
    errors: ["INVALID_PARAMETER", "INVALID_QUERY", "INVALID_CURSOR", "LIMIT_EXCEEDED", "INVALID_SELECT_FIELD", "INVALID_INCLUDE", "CARD_ALLOWANCE_EXCEEDED"],
    cost: COSTS.cardsList,
    cacheControl: CACHE.catalog,
    etag: true,
    cache: catalogCache,
    handler: ({ query, link, principal }) => listCards(query, link, accountOf(principal)),
  }),
});
