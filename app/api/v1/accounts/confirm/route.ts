import { z } from "zod";
import { CACHE } from "@/lib/api/cache-control";
import { ApiError } from "@/lib/api/errors";
import { defineRoute, mount } from "@/lib/api/route";
import { confirmEmail } from "@/lib/accounts/confirm";
import { ConfirmBody } from "@/lib/accounts/schemas";
import { COSTS } from "@/lib/meter/costs";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = mount({
  POST: defineRoute({
    method: "POST",
    path: "/accounts/confirm",
    operationId: "confirmEmail",
    summary: "Confirm an email address",
    description: "The token of the confirmation link (the page /confirm-email does the same). Single use; expires after 48 hours.",
    tags: ["Accounts"],
    auth: "none",
    body: ConfirmBody,
    response: z.object({ data: z.object({ account_id: z.string(), email: z.string(), email_confirmed: z.literal(true) }) }),
    errors: ["INVALID_PARAMETER"],
    cost: COSTS.accountsFree,
    cacheControl: CACHE.none,
    etag: false,
    handler: async ({ body }) => {
      const r = await confirmEmail(body.token);
      if (!r.ok) {
        const why = { invalid: "The confirmation token is not valid.", expired: "The confirmation link has expired; ask for a new one.", used: "The confirmation link was already used." }[r.reason];
        throw new ApiError("INVALID_PARAMETER", why, { parameter: "token", reason: r.reason });
      }
      return { body: { data: { account_id: r.account.id, email: r.account.email, email_confirmed: true as const } } };
    },
  }),
});
