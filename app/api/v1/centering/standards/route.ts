import { z } from "zod";
import { CACHE } from "@/lib/api/cache-control";
import { defineRoute, mount } from "@/lib/api/route";
import { StandardsResponse } from "@/lib/centering/schemas";
import { listStandards } from "@/lib/centering/service";
import { COSTS } from "@/lib/meter/costs";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = mount({
  GET: defineRoute({
    method: "GET",
    path: "/centering/standards",
    operationId: "listCenteringStandards",
    summary: "Centering thresholds of the four grading houses",
    description: "Per house and grade the largest front and back ratio allowed, whether the figure is the house's own (official) or our reading of copies (interpreted), and the source URLs.",
    tags: ["Centering"],
    auth: "key",
    query: z.strictObject({}),
    response: StandardsResponse,
    errors: ["INVALID_PARAMETER", "PLAN_REQUIRED"],
    cost: COSTS.centeringStandards,
    cacheControl: CACHE.daily,
    etag: true,
    handler: async () => listStandards(),
  }),
});
