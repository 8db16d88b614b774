import { z } from "zod";
import { operatorOf } from "@/lib/api/auth";
import { CACHE } from "@/lib/api/cache-control";
import { defineRoute, mount } from "@/lib/api/route";
import { adminSetCredits } from "@/lib/accounts/admin";
import { AccountParams, CreditsBody } from "@/lib/accounts/schemas";
import { COSTS } from "@/lib/meter/costs";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = mount({
  POST: defineRoute({
    method: "POST",
    path: "/admin/accounts/{account_id}/credits",
    operationId: "adminSetCredits",
    summary: "Set the period's spent credits",
    description: "Operators only (Authorization: Bearer ADMIN_TOKEN; 404 when ADMIN_TOKEN is unset). Written to the audit log with who, what and when; X-Operator names the person.",
    tags: ["Operators"],
    auth: "admin",
    params: AccountParams,
    body: CreditsBody,
    response: z.object({ data: z.record(z.string(), z.unknown()) }),
    errors: ["ACCOUNT_NOT_FOUND", "INVALID_PARAMETER", "METER_UNAVAILABLE"],
    cost: COSTS.account,
    cacheControl: CACHE.none,
    etag: false,
    handler: ({ req, params, body }) => adminSetCredits(operatorOf(req), params.account_id, body),
  }),
});
