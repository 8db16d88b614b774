import { accountOf } from "@/lib/api/auth";
import { z } from "zod";
import { CACHE } from "@/lib/api/cache-control";
import { defineRoute, mount } from "@/lib/api/route";
import { getCardsBatch } from "@/lib/catalog/cards/get";
import { CardBatchQuery, CardObject } from "@/lib/catalog/schemas";
import { catalogCache } from "@/lib/catalog/version";
import { COSTS } from "@/lib/meter/costs";

const Alternative = z.object({ id: z.string(), name: z.string(), reason: z.string() });

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = mount({
  GET: defineRoute({
    method: "GET",
    path: "/cards/batch",
    operationId: "batchCards",
    summary: "Several cards by id",
    description: "Resolves up to 100 ids (primary or alternate) in the order given, each card once. Ids that resolve to nothing are listed in meta.missing with historical alternatives.",
    tags: ["Cards"],
    auth: "key",
    query: CardBatchQuery,
    response: z.object({
      data: z.array(CardObject),
      meta: z.object({
        requested: z.number().int(), count: z.number().int(),
        missing: z.array(z.object({ id: z.string(), alternatives: z.array(Alternative) })),
        withheld: z.array(z.string()).optional(),
        plan_notes: z.array(z.string()).optional().meta({ description: "With include=prices: what the plan withheld." }),
      }),
    }),
    errors: ["LIMIT_EXCEEDED", "INVALID_PARAMETER", "INVALID_SELECT_FIELD", "INVALID_INCLUDE", "CARD_ALLOWANCE_EXCEEDED"],
    cost: COSTS.cardsBatch,
    cacheControl: CACHE.catalog,
    etag: true,
    cache: catalogCache,
    handler: ({ query, principal }) => getCardsBatch(query, accountOf(principal)),
  }),
});
