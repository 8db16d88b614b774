import { CACHE } from "@/lib/api/cache-control";
import { defineRoute, mount } from "@/lib/api/route";
import { EmailBody, IdempotencyHeaders, SignupResponse } from "@/lib/accounts/schemas";
import { scriptSignup } from "@/lib/accounts/signup";
import { COSTS } from "@/lib/meter/costs";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = mount({
  POST: defineRoute({
    method: "POST",
    path: "/accounts/free",
    operationId: "createFreeAccount",
    summary: "Create a free trial key (for scripts)",
    description: "An email address in, a working trial key out, no card. Send a fresh random Idempotency-Key (16 characters or more) per signup. For 24 hours the same key and body get the same answer again (the 201, or the 409 ACCOUNT_EXISTS), and the key with another body 409 IDEMPOTENCY_CONFLICT; a request refused for its input (400) or its pace (429) does not use up the key. The key has 50 credits until the address is confirmed through the link we mail, then the full trial: 800 credits over 30 days. The account has no password: set one through the recovery page to use the dashboard.",
    tags: ["Accounts"],
    auth: "none",
    headers: IdempotencyHeaders,
    body: EmailBody,
    response: SignupResponse,
    successStatus: 201,
    errors: ["INVALID_PARAMETER", "IDEMPOTENCY_CONFLICT", "ACCOUNT_EXISTS", "RATE_LIMITED"],
    cost: COSTS.accountsFree,
    cacheControl: CACHE.none,
    etag: false,
    handler: async ({ req, body }) => {
      const r = await scriptSignup(req, req.headers.get("idempotency-key")!, body);
      const headers: Record<string, string> = r.replayed ? { "idempotent-replayed": "true" } : {};
      return { status: r.status, body: r.body, headers };
    },
  }),
});
