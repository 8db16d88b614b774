import { z } from "zod";
import { CACHE } from "@/lib/api/cache-control";
import { cursorParam, limitParam } from "@/lib/api/params";
import { defineRoute, mount } from "@/lib/api/route";
import { listOf } from "@/lib/api/schemas";
import { adminAudit } from "@/lib/accounts/admin";
import { AccountParams } from "@/lib/accounts/schemas";
import { COSTS } from "@/lib/meter/costs";

const AuditEntry = z.object({
  id: z.number().int(),
  at: z.string().meta({ description: "When (RFC 3339)." }),
  actor: z.string().meta({ description: "Who: the operator token's fingerprint (`admin-token:<12 hex>`)." }),
  action: z.string().meta({ description: "What: confirm_email, set_plan, set_trial_expiry, set_credits_used, set_flags." }),
  details: z.record(z.string(), z.unknown()).nullable().meta({ description: "The change (from, to, …) and the X-Operator note, if one was sent." }),
  ip: z.string().nullable(),
});

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = mount({
  GET: defineRoute({
    method: "GET",
    path: "/admin/accounts/{account_id}/audit",
    operationId: "adminAccountAudit",
    summary: "An account's audit log",
    description: "Operators only (Authorization: Bearer ADMIN_TOKEN; 404 when ADMIN_TOKEN is unset): every operator action on the account, newest first: who, what and when. Cursor-paged like every list: `limit` 1 to 250, default 50.",
    tags: ["Operators"],
    auth: "admin",
    params: AccountParams,
    query: z.strictObject({ limit: limitParam(), cursor: cursorParam }),
    response: listOf(AuditEntry, { totalCount: false }),
    errors: ["ACCOUNT_NOT_FOUND", "INVALID_PARAMETER", "INVALID_CURSOR", "LIMIT_EXCEEDED"],
    cost: COSTS.account,
    cacheControl: CACHE.none,
    etag: false,
    handler: ({ params, query, link }) => adminAudit(params.account_id, query, link),
  }),
});
