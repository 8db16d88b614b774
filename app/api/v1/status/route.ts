import { z } from "zod";
import { CACHE } from "@/lib/api/cache-control";
import { defineRoute, mount } from "@/lib/api/route";
import { getStatus } from "@/lib/catalog/status";
import { COSTS } from "@/lib/meter/costs";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = mount({
  GET: defineRoute({
    method: "GET",
    path: "/status",
    operationId: "getStatus",
    summary: "Service status",
    description: "Catalogue counts, the freshness of each ingest job and the upstream contract. When contract_ok is false the catalogue keeps serving its last good state and error says which upstream broke.",
    tags: ["Reference"],
    auth: "none",
    response: z.object({
      status: z.enum(["ok", "degraded"]),
      catalog: z.object({ sets: z.number().int(), cards: z.number().int(), sealed: z.number().int(), artists: z.number().int() }),
      sources: z.array(z.object({
        source: z.enum(["refresh-catalog", "refresh-index", "refresh-prices"]),
        last_success_at: z.string().nullable(),
        age_hours: z.number().nullable(),
        state: z.enum(["fresh", "stale", "never_run"]),
      })),
      upstream: z.object({ contract_ok: z.boolean(), error: z.string().nullable() }),
      version: z.string(),
    }),
    errors: ["INVALID_PARAMETER"],
    cost: COSTS.status,
    cacheControl: CACHE.status,
    etag: true,
    handler: () => getStatus(),
  }),
});
