import { z } from "zod";
import { CACHE } from "@/lib/api/cache-control";
import { defineRoute, mount } from "@/lib/api/route";
import { getReference, REFERENCE } from "@/lib/catalog/reference";
import { COSTS } from "@/lib/meter/costs";

const vocab = Object.fromEntries(Object.keys(REFERENCE).map((k) => [k, z.array(z.string())]));

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = mount({
  GET: defineRoute({
    method: "GET",
    path: "/reference",
    operationId: "getReference",
    summary: "Reference vocabularies",
    description: "The values the schema accepts. Fetch once at start, not per render.",
    tags: ["Reference"],
    auth: "none",
    response: z.object({ data: z.object(vocab) }),
    errors: ["INVALID_PARAMETER"],
    cost: COSTS.reference,
    cacheControl: CACHE.daily,
    etag: true,
    handler: async () => getReference(),
  }),
});
