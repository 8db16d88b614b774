import { z } from "zod";
import { accountOf } from "@/lib/api/auth";
import { CACHE } from "@/lib/api/cache-control";
import { ApiError } from "@/lib/api/errors";
import { defineRoute, mount } from "@/lib/api/route";
import { deleteKey } from "@/lib/accounts/keys";
import { KeyParams } from "@/lib/accounts/schemas";
import { COSTS } from "@/lib/meter/costs";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = mount({
  DELETE: defineRoute({
    method: "DELETE",
    path: "/keys/{id}",
    operationId: "deleteKey",
    summary: "Delete a key",
    description: "The key stops working at once. Deleting the key of this very request is allowed: it is the last answer it gets.",
    tags: ["Keys"],
    auth: "key",
    params: KeyParams,
    response: z.object({ data: z.object({ id: z.string(), deleted: z.literal(true) }) }),
    errors: ["KEY_NOT_FOUND"],
    cost: COSTS.account,
    cacheControl: CACHE.none,
    etag: false,
    handler: async ({ principal, params }) => {
      if (!(await deleteKey(accountOf(principal).id, params.id))) {
        throw new ApiError("KEY_NOT_FOUND", `No live key '${params.id}' on this account.`, { id: params.id });
      }
      return { body: { data: { id: params.id, deleted: true as const } } };
    },
  }),
});
