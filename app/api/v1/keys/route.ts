import { z } from "zod";
import { accountOf } from "@/lib/api/auth";
import { CACHE } from "@/lib/api/cache-control";
import { defineRoute, mount } from "@/lib/api/route";
import { addKey, listKeys, MAX_KEYS } from "@/lib/accounts/keys";
import { KeyBody, KeyObject, NewKeyObject } from "@/lib/accounts/schemas";
import { COSTS } from "@/lib/meter/costs";
import { keyJson } from "@/lib/accounts/present";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = mount({
  GET: defineRoute({
    method: "GET",
    path: "/keys",
    operationId: "listKeys",
    summary: "The account's live keys",
    description: `Secrets are never shown again; a key is known by its prefix. Rate and credits are per account, never per key. One page: an account holds at most ${MAX_KEYS} live keys, so the list carries the list envelope with has_more false and no links.next.`,
    tags: ["Keys"],
    auth: "key",
    response: z.object({
      data: z.array(KeyObject),
      meta: z.object({ limit: z.number().int().meta({ description: "The page size: the most live keys an account holds." }), count: z.number().int(), has_more: z.literal(false) }),
    }),
    errors: [],
    cost: COSTS.account,
    cacheControl: CACHE.none,
    etag: false,
    handler: async ({ principal }) => {
      const keys = (await listKeys(accountOf(principal).id)).map(keyJson);
      return { body: { data: keys, meta: { limit: MAX_KEYS, count: keys.length, has_more: false } } };
    },
  }),
  POST: defineRoute({
    method: "POST",
    path: "/keys",
    operationId: "createKey",
    summary: "Create a key",
    description: "The secret is in this answer only. An optional `expires_at` makes it stop working then.",
    tags: ["Keys"],
    auth: "key",
    body: KeyBody.optional(),
    response: z.object({ data: NewKeyObject }),
    successStatus: 201,
    errors: ["INVALID_PARAMETER", "TOO_MANY_KEYS"],
    cost: COSTS.account,
    cacheControl: CACHE.none,
    etag: false,
    handler: async ({ principal, body }) => ({
      status: 201, body: { data: keyJson(await addKey(accountOf(principal).id, body?.name ?? "key", body?.expires_at ?? null)) },
    }),
  }),
});
