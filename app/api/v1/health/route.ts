import { z } from "zod";
import { CACHE } from "@/lib/api/cache-control";
import { defineRoute, mount } from "@/lib/api/route";
import { getHealth } from "@/lib/catalog/status";
import { COSTS } from "@/lib/meter/costs";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = mount({
  GET: defineRoute({
    method: "GET",
    path: "/health",
    operationId: "getHealth",
    summary: "Liveness",
    description: "A bare liveness object and nothing else. Query parameters a load balancer appends are ignored. 503 SERVICE_UNAVAILABLE when the database does not answer.",
    tags: ["Reference"],
    auth: "none",
    anyQuery: true,
    response: z.object({ status: z.literal("ok"), db: z.literal(true) }),
    errors: ["SERVICE_UNAVAILABLE"],
    cost: COSTS.health,
    cacheControl: CACHE.none,
    etag: false,
    handler: () => getHealth(),
  }),
});
