import { z } from "zod";
import { CACHE } from "@/lib/api/cache-control";
import { publicOrigin } from "@/lib/api/pipeline";
import { defineRoute, mount } from "@/lib/api/route";
import { listBulk } from "@/lib/bulk/service";
import { COSTS } from "@/lib/meter/costs";

const BulkFile = z.object({
  type: z.enum(["cards", "sets", "sealed", "index", "prices"]), name: z.string(), description: z.string(),
  content_type: z.literal("application/gzip"), format: z.literal("ndjson"),
  size: z.number().int().meta({ description: "Bytes of the gzip file." }), sha256: z.string().meta({ description: "Of the gzip file as downloaded." }),
  rows: z.number().int(), updated_at: z.string(), paid_only: z.boolean(),
  download_url: z.string().meta({ description: "GET it with your key; the answer streams the file." }),
});

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = mount({
  GET: defineRoute({
    method: "GET",
    path: "/bulk",
    operationId: "listBulkFiles",
    summary: "Daily bulk files",
    description: "The current gzip NDJSON files of cards, sets, sealed products, the composite index and current prices, one row per line as the API answers it. Built daily by the build-bulk job.",
    tags: ["Bulk"],
    auth: "key",
    query: z.strictObject({}),
    response: z.object({ data: z.array(BulkFile), count: z.number().int() }),
    errors: ["INVALID_PARAMETER"],
    cost: COSTS.bulk,
    cacheControl: CACHE.privatePrices,
    etag: true,
    handler: async ({ req }) => listBulk(publicOrigin(req)),
  }),
});
