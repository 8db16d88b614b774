import { z } from "zod";
import { CACHE } from "@/lib/api/cache-control";
import { cursorParam, decimal, instant, limitParam } from "@/lib/api/params";
import { defineRoute, mount } from "@/lib/api/route";
import { listOf } from "@/lib/api/schemas";
import { REFERENCE } from "@/lib/catalog/reference";
import { listChanges } from "@/lib/changes/feed";
import { COSTS } from "@/lib/meter/costs";

const KINDS = REFERENCE.change_kinds;

const kindParam = z.string().max(200).optional()
  .transform((v, ctx) => {
    if (v === undefined) return undefined;
    const kinds = v.split(",").map((k) => k.trim().toUpperCase()).filter(Boolean);
    const bad = kinds.find((k) => !(KINDS as readonly string[]).includes(k));
    if (bad) {
      ctx.addIssue({ code: "custom", message: `kind must be one of ${KINDS.join(", ")} (comma-separated); got '${bad}'.`, params: { code: "INVALID_PARAMETER", details: { parameter: "kind", valid_values: KINDS } } });
      return z.NEVER;
    }
    return kinds;
  })
  .meta({ description: `Comma-separated change kinds: ${KINDS.join(", ")}.` });

const ChangeObject = z.object({
  seq: z.number().int().meta({ description: "Strictly increasing; the feed's only order." }),
  kind: z.enum(KINDS),
  id: z.string().meta({ description: "The card id, set id, sealed slug or image owner the change is about." }),
  product: z.enum(["card", "sealed"]).optional().meta({ description: "PRICE changes: which kind of product id is." }),
  op: z.enum(["created", "updated", "deleted"]),
  fields: z.array(z.string()),
  at: z.string(),
});

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = mount({
  GET: defineRoute({
    method: "GET",
    path: "/changes",
    operationId: "listChanges",
    summary: "The change feed",
    description: "Append-only catalogue and price mutations in sequence order. A mirror stores meta.next_after and asks again with after=<it>; links.next pages through a backlog. Rows are committed in sequence order, so paging while new rows arrive never skips or repeats one. An unchanged page revalidates with If-None-Match to a free 304.",
    tags: ["Changes"],
    auth: "key",
    query: z.strictObject({
      kind: kindParam,
      after: decimal(z.coerce.number().int().min(0).max(2_147_483_647).optional()).meta({ description: "Only changes with a greater seq." }),
      since: instant().optional().meta({ description: "Only changes at or after this time (RFC 3339)." }),
      limit: limitParam(),
      cursor: cursorParam,
    }),
    response: listOf(ChangeObject, { totalCount: false, extraMeta: {
      next_after: z.number().int().meta({ description: "Where to resume (after=<it>): this page's last seq; after a page that matched nothing, the feed's end when it was read." }),
      last_seq: z.number().int().meta({ description: "The feed's newest seq." }),
    } }),
    errors: ["INVALID_PARAMETER", "INVALID_CURSOR", "LIMIT_EXCEEDED"],
    cost: COSTS.changes,
    cacheControl: CACHE.feed,
    etag: true,
    handler: ({ query, link }) => listChanges(query, link),
  }),
});
