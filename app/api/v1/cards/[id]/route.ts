import { accountOf } from "@/lib/api/auth";
import { CACHE } from "@/lib/api/cache-control";
import { defineRoute, mount } from "@/lib/api/route";
import { z } from "zod";
import { getCard } from "@/lib/catalog/cards/get";
import { CardGetQuery, CardIdParams, CardObject } from "@/lib/catalog/schemas";
import { catalogCache } from "@/lib/catalog/version";
import { COSTS } from "@/lib/meter/costs";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = mount({
  GET: defineRoute({
    method: "GET",
    path: "/cards/{id}",
    operationId: "getCard",
    summary: "One card",
    description: "By primary id (`<set_slug>-<number>`) or alternate id (`<alt_set_code>-<number>`), case-insensitive.",
    tags: ["Cards"],
    auth: "key",
    params: CardIdParams,
    query: CardGetQuery,
    response: z.object({
      data: CardObject,
      meta: z.object({ withheld: z.array(z.string()) }).optional()
        .meta({ description: "Present when the answer held back groups that select named (index without include=index)." }),
    }),
    errors: ["CARD_NOT_FOUND", "INVALID_PARAMETER", "INVALID_SELECT_FIELD", "INVALID_INCLUDE", "CARD_ALLOWANCE_EXCEEDED"],
    cost: COSTS.cardGet,
    cacheControl: CACHE.catalog,
    etag: true,
    cache: catalogCache,
    handler: ({ params, query, principal }) => getCard(params.id, query, accountOf(principal)),
  }),
});
