import { accountOf } from "@/lib/api/auth";
import { z } from "zod";
import { CACHE } from "@/lib/api/cache-control";
import { defineRoute, mount } from "@/lib/api/route";
import { listOf } from "@/lib/api/schemas";
import { listSetCards } from "@/lib/catalog/cards/list";
import { CardObject, SetCardsQuery, SetCodeParams } from "@/lib/catalog/schemas";
import { catalogCache } from "@/lib/catalog/version";
import { COSTS } from "@/lib/meter/costs";

const Hint = z.object({ code: z.string(), message: z.string(), q: z.string(), href: z.string() });

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = mount({
  GET: defineRoute({
    method: "GET",
    path: "/sets/{code}/cards",
    operationId: "listSetCards",
    summary: "Cards of a set",
    description: "Sorted by number by default: the numeric part first, so 1S sits next to 1. `q=number:22` prefers an exact match and otherwise matches 022; `number:22/185` also requires a printed total of 185 where known. An empty lookup in a vintage Japanese set carries meta.hint TRY_POKEDEX_NUMBER.",
    tags: ["Sets", "Cards"],
    auth: "key",
    params: SetCodeParams,
    query: SetCardsQuery,
    response: listOf(CardObject, { totalCount: false, withheld: true, extraMeta: { hint: Hint.optional() } }),
    errors: ["SET_NOT_FOUND", "INVALID_PARAMETER", "INVALID_QUERY", "INVALID_CURSOR", "LIMIT_EXCEEDED", "INVALID_SELECT_FIELD", "INVALID_INCLUDE", "CARD_ALLOWANCE_EXCEEDED"],
    cost: COSTS.setCards,
    cacheControl: CACHE.catalog,
    etag: true,
    cache: catalogCache,
    handler: ({ params, query, link, principal }) => listSetCards(params.code, query, link, accountOf(principal)),
  }),
});
