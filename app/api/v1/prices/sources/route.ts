import { z } from "zod";
import { CACHE } from "@/lib/api/cache-control";
import { defineRoute, mount } from "@/lib/api/route";
import { COSTS } from "@/lib/meter/costs";
import { SourcesResponse } from "@/lib/prices/schemas";
import { listSources } from "@/lib/prices/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = mount({
  GET: defineRoute({
    method: "GET",
    path: "/prices/sources",
    operationId: "listPriceSources",
    summary: "The price sources",
    description: "Seven entries ordered by source: five third-party sources delayed 24 h, community reports and the service's own composite index.",
    tags: ["Prices"],
    auth: "none",
    query: z.strictObject({}),
    response: SourcesResponse,
    errors: ["INVALID_PARAMETER"],
    cost: COSTS.pricesSources,
    cacheControl: CACHE.daily,
    etag: true,
    handler: async () => listSources(),
  }),
});
