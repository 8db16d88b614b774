import { z } from "zod";
import { CACHE } from "@/lib/api/cache-control";
import { decimal, limitParam } from "@/lib/api/params";
import { defineRoute, mount } from "@/lib/api/route";
import { regionParam } from "@/lib/catalog/schemas";
import { catalogCache } from "@/lib/catalog/version";
import { COSTS } from "@/lib/meter/costs";
import { listMovers } from "@/lib/prices/movers";
import { moveWindowParam } from "@/lib/prices/schemas";

const Mover = z.object({
  id: z.string(), name: z.string(), number: z.string().nullable(), rarity: z.string().nullable(),
  set: z.object({ id: z.string(), name: z.string().nullable() }).nullable(), print_region: z.string().nullable(),
  from: z.object({ date: z.iso.date(), eur: z.number() }), to: z.object({ date: z.iso.date(), eur: z.number() }),
  change_eur: z.number(), change_pct: z.number(),
  provenance: z.string().meta({ description: "Printable label of the index the figures come from; it says '(demo data)' when the demo generator made them." }),
});

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = mount({
  GET: defineRoute({
    method: "GET",
    path: "/prices/movers",
    operationId: "listPriceMovers",
    summary: "Biggest risers and fallers",
    description: "The cards (or sealed products) whose composite index rose and fell most over the window, from the last point on or before the window's first day to the newest. Products below min_eur now, or below half of it at the start, are left out so that noise on cheap cards does not dominate.",
    tags: ["Prices"],
    auth: "key",
    query: z.strictObject({
      window: moveWindowParam,
      product: z.enum(["card", "sealed"]).default("card").meta({ description: "Rank cards or sealed products." }),
      limit: limitParam(20).meta({ description: "Entries per direction, 1 to 250 (as every limit). Above 250: 400 LIMIT_EXCEEDED." }),
      min_eur: decimal(z.coerce.number().min(0).max(1_000_000).default(1)).meta({ description: "Price floor in EUR (default 1)." }),
      region: regionParam,
      set: z.string().min(1).max(200).optional().meta({ description: "Only this set (code, slug or alternate id)." }),
    }),
    response: z.object({
      data: z.object({ rose: z.array(Mover), fell: z.array(Mover) }),
      meta: z.object({ window: z.string(), product: z.string(), min_eur: z.number(), currency: z.literal("EUR"), source: z.literal("INDEX") }),
    }),
    errors: ["INVALID_PARAMETER", "SET_NOT_FOUND", "PLAN_REQUIRED"],
    cost: COSTS.movers,
    cacheControl: CACHE.privatePrices,
    etag: true,
    cache: catalogCache,
    handler: ({ query }) => listMovers(query),
  }),
});
