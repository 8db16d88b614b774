import { z } from "zod";
import { accountOf } from "@/lib/api/auth";
import { CACHE } from "@/lib/api/cache-control";
import { ApiError } from "@/lib/api/errors";
import { defineRoute, mount } from "@/lib/api/route";
import { rotateKey } from "@/lib/accounts/keys";
import { keyJson } from "@/lib/accounts/present";
import { KeyParams, NewKeyObject } from "@/lib/accounts/schemas";
import { COSTS } from "@/lib/meter/costs";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = mount({
  POST: defineRoute({
    method: "POST",
    path: "/keys/{id}/rotate",
    operationId: "rotateKey",
    summary: "Rotate a key",
    description: "A new secret under a new id and the same name; the old secret stops working at once. The new key keeps a future `expires_at`; an expired key rotated is renewed without one (set one on a new key with POST /v1/keys).",
    tags: ["Keys"],
    auth: "key",
    params: KeyParams,
    response: z.object({ data: NewKeyObject.extend({ replaces: z.string() }) }),
    errors: ["KEY_NOT_FOUND"],
    cost: COSTS.account,
    cacheControl: CACHE.none,
    etag: false,
    handler: async ({ principal, params }) => {
      const key = await rotateKey(accountOf(principal).id, params.id);
      if (!key) throw new ApiError("KEY_NOT_FOUND", `No live key '${params.id}' on this account.`, { id: params.id });
      return { body: { data: { ...keyJson(key), replaces: params.id } } };
    },
  }),
});
