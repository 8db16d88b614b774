import { z } from "zod";
import { operatorOf } from "@/lib/api/auth";
import { CACHE } from "@/lib/api/cache-control";
import { defineRoute, mount } from "@/lib/api/route";
import { adminSetPlan } from "@/lib/accounts/admin";
import { AccountParams, PlanBody } from "@/lib/accounts/schemas";
import { COSTS } from "@/lib/meter/costs";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = mount({
  POST: defineRoute({
    method: "POST",
    path: "/admin/accounts/{account_id}/plan",
    operationId: "adminSetPlan",
    summary: "Set a manual plan: a new period starts now, except that the plan already held moves only its current period's end",
    description: "Operators only (Authorization: Bearer ADMIN_TOKEN; 404 when ADMIN_TOKEN is unset). Written to the audit log with who, what and when; X-Operator names the person.",
    tags: ["Operators"],
    auth: "admin",
    params: AccountParams,
    body: PlanBody,
    response: z.object({ data: z.record(z.string(), z.unknown()) }),
    errors: ["ACCOUNT_NOT_FOUND", "INVALID_PARAMETER"],
    cost: COSTS.account,
    cacheControl: CACHE.none,
    etag: false,
    handler: ({ req, params, body }) => adminSetPlan(operatorOf(req), params.account_id, body),
  }),
});
