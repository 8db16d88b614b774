import { z } from "zod";
import { accountOf } from "@/lib/api/auth";
import { CACHE } from "@/lib/api/cache-control";
import { defineRoute, mount } from "@/lib/api/route";
import { addKey, keyPage, MAX_KEYS } from "@/lib/accounts/keys";
import { cursorParam, limitParam } from "@/lib/api/params";
import { KeyBody, KeyObject, NewKeyObject } from "@/lib/accounts/schemas";
import { COSTS } from "@/lib/meter/costs";
import { keyJson } from "@/lib/accounts/present";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = mount({
  GET: defineRoute({
    method: "GET",
    path: "/keys",
    operationId: "listKeys",
    summary: "The account's live keys",
    description: `Secrets are never shown again; a key is known by its prefix. Rate and credits are per account, never per key. Oldest first, cursor-paged like every list; an account holds at most ${MAX_KEYS} live keys, so the default page holds them all.`,
    tags: ["Keys"],
    auth: "key",
    query: z.strictObject({ limit: limitParam(), cursor: cursorParam }),
    response: z.object({
      data: z.array(KeyObject),
      meta: z.object({ limit: z.number().int(), count: z.number().int(), has_more: z.boolean() }),
      links: z.object({ next: z.string().optional() }),
    }),
    errors: ["INVALID_PARAMETER", "INVALID_CURSOR", "LIMIT_EXCEEDED"],
    cost: COSTS.account,
    cacheControl: CACHE.none,
    etag: false,
    handler: async ({ principal, query, link }) => {
      const { rows, meta, links } = await keyPage(accountOf(principal).id, query, link);
      return { body: { data: rows.map(keyJson), meta, links } };
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
