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
    description: "Catalogue counts, the freshness of each ingest job and the upstream contract. When contract_ok is false the catalogue keeps serving its last good state and error says which upstream broke. Jobs running in this instance (on the embedded default's first start, the demo prices) are listed in jobs with the share done; an ingest job among them has state running.",
    tags: ["Reference"],
    auth: "none",
    response: z.object({
      status: z.enum(["ok", "degraded"]),
      catalog: z.object({ sets: z.number().int(), cards: z.number().int(), sealed: z.number().int(), artists: z.number().int() }),
      sources: z.array(z.object({
        source: z.enum(["refresh-catalog", "refresh-index", "refresh-prices"]),
        last_success_at: z.string().nullable(),
        age_hours: z.number().nullable(),
        state: z.enum(["fresh", "stale", "never_run", "running"]).meta({ description: "running: the job runs in this instance now (see jobs)." }),
      })),
      upstream: z.object({ contract_ok: z.boolean(), error: z.string().nullable() }),
      jobs: z.array(z.object({
        job: z.string().meta({ description: "The job: demo-prices (the first start's demo market), refresh-prices, refresh-index, vision-index." }),
        state: z.literal("running"),
        phase: z.string().nullable().meta({ description: "What it does now, e.g. refresh-index." }),
        share_done: z.number().min(0).max(1).meta({ description: "Share of the job done, 0 to 1." }),
        started_at: z.string(),
      })).meta({ description: "Jobs running in this instance now, oldest first; empty when none." }),
      version: z.string(),
    }),
    errors: ["INVALID_PARAMETER"],
    cost: COSTS.status,
    cacheControl: CACHE.status,
    etag: true,
    handler: () => getStatus(),
  }),
});
