import { z } from "zod";
import { accountOf } from "@/lib/api/auth";
import { defineRoute, mount } from "@/lib/api/route";
import { downloadBulk } from "@/lib/bulk/service";
import { COSTS } from "@/lib/meter/costs";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = mount({
  GET: defineRoute({
    method: "GET",
    path: "/bulk/{type}",
    operationId: "downloadBulkFile",
    summary: "Download a bulk file",
    description: "Streams the gzip file (application/gzip) with its sha256 as a strong ETag. The prices and index files need a paid plan (paid_only in the list): their figures include the graded and non-English rows a trial does not see.",
    tags: ["Bulk"],
    auth: "key",
    params: z.object({ type: z.string().min(1).max(40).meta({ description: "cards, sets, sealed, index or prices." }) }),
    query: z.strictObject({}),
    response: z.string().meta({ description: "The gzip file." }),
    responseContentType: "application/gzip",
    errors: ["NOT_FOUND", "PLAN_REQUIRED"],
    cost: COSTS.bulkDownload,
    cacheControl: "private, max-age=3600",
    etag: true,
    handler: ({ params, principal }) => downloadBulk(params.type, accountOf(principal)),
  }),
});
