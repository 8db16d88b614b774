import { z } from "zod";
import { CACHE } from "@/lib/api/cache-control";
import { buildOpenApi } from "@/lib/api/openapi";
import { defineRoute, mount } from "@/lib/api/route";
import { env } from "@/lib/env";
import { COSTS } from "@/lib/meter/costs";

let document: Record<string, unknown> | undefined;

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = mount({
  GET: defineRoute({
    method: "GET",
    path: "/openapi.json",
    operationId: "getOpenApi",
    summary: "This document",
    description: "OpenAPI 3.1 description of every /v1 route: parameters, bodies, responses, error codes and credit cost.",
    tags: ["Reference"],
    auth: "none",
    response: z.record(z.string(), z.unknown()),
    errors: [],
    cost: COSTS.openapi,
    cacheControl: CACHE.status,
    etag: true,
    handler: async () => {
      // Imported lazily: the manifest imports this module too.
      const { routeSpecs } = await import("../routes");
      document ??= buildOpenApi(routeSpecs(), { version: env().APP_VERSION });
      return { body: document };
    },
  }),
});
