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
    description: "The token of the confirmation link (the page /confirm-email does the same). Single use; expires after 48 hours. An account registered with a dashboard password gets its sign-in turned on only with that password in the body: whoever registered an address may not be its owner.",
    tags: ["Accounts"],
    auth: "none",
    body: ConfirmBody,
    response: z.object({ data: z.object({ account_id: z.string(), email: z.string(), email_confirmed: z.literal(true) }) }),
    errors: ["INVALID_PARAMETER"],
    cost: COSTS.accountsFree,
    cacheControl: CACHE.none,
    etag: false,
    handler: async ({ body }) => {
      const r = await confirmEmail(body.token, { password: body.password });
      if (!r.ok) {
        if (r.reason === "wrong_password") throw new ApiError("INVALID_PARAMETER", "That is not the password this account was registered with. The link is still unused.", { parameter: "password", reason: r.reason });
        const why = { invalid: "The confirmation token is not valid.", expired: "The confirmation link has expired; ask for a new one.", used: "The confirmation link was already used." }[r.reason];
        throw new ApiError("INVALID_PARAMETER", why, { parameter: "token", reason: r.reason });
      }
      return { body: { data: { account_id: r.account.id, email: r.account.email, email_confirmed: true as const } } };
    },
  }),
});
