import { z } from "zod";
import { accountOf } from "@/lib/api/auth";
import { CACHE } from "@/lib/api/cache-control";
import { defineRoute, mount } from "@/lib/api/route";
import { resendConfirmation } from "@/lib/accounts/signup";
import { COSTS } from "@/lib/meter/costs";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = mount({
  POST: defineRoute({
    method: "POST",
    path: "/accounts/confirmation",
    operationId: "resendConfirmation",
    summary: "Send the confirmation link again",
    description: "Mails a new confirmation link to the account's address, unless it is confirmed already. At most a few an hour per address and per account (RATE_LIMITED with Retry-After beyond).",
    tags: ["Accounts"],
    auth: "key",
    response: z.object({ data: z.object({ sent: z.boolean() }) }),
    successStatus: 202,
    errors: ["RATE_LIMITED"],
    cost: COSTS.account,
    cacheControl: CACHE.none,
    etag: false,
    handler: async ({ principal }) => ({ status: 202, body: { data: await resendConfirmation(accountOf(principal).id) } }),
  }),
});
