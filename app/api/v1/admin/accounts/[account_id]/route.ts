import { z } from "zod";
import { CACHE } from "@/lib/api/cache-control";
import { defineRoute, mount } from "@/lib/api/route";
import { adminGetAccount } from "@/lib/accounts/admin";
import { AccountParams } from "@/lib/accounts/schemas";
import { COSTS } from "@/lib/meter/costs";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = mount({
  GET: defineRoute({
    method: "GET",
    path: "/admin/accounts/{account_id}",
    operationId: "adminGetAccount",
    summary: "An account as operators see it",
    description: "Operators only (Authorization: Bearer ADMIN_TOKEN; 404 when ADMIN_TOKEN is unset): the account, its quota as the meter has it, and its keys (prefixes only).",
    tags: ["Operators"],
    auth: "admin",
    params: AccountParams,
    response: z.object({ data: z.record(z.string(), z.unknown()) }),
    errors: ["ACCOUNT_NOT_FOUND"],
    cost: COSTS.account,
    cacheControl: CACHE.none,
    etag: false,
    handler: ({ params }) => adminGetAccount(params.account_id),
  }),
});
