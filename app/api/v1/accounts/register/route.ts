import { CACHE } from "@/lib/api/cache-control";
import { publicOrigin } from "@/lib/api/pipeline";
import { defineRoute, mount } from "@/lib/api/route";
import { limitIp } from "@/lib/accounts/abuse";
import { RegisterBody, SignupResponse } from "@/lib/accounts/schemas";
import { registerPerson } from "@/lib/accounts/signup";
import { COSTS } from "@/lib/meter/costs";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = mount({
  POST: defineRoute({
    method: "POST",
    path: "/accounts/register",
    operationId: "registerAccount",
    summary: "Register for the dashboard (for persons)",
    description: "Email and password. Sign-in opens once the address is confirmed through the link we mail. Also answers a first API key, shown once.",
    tags: ["Accounts"],
    auth: "none",
    body: RegisterBody,
    response: SignupResponse,
    successStatus: 201,
    errors: ["INVALID_PARAMETER", "ACCOUNT_EXISTS", "RATE_LIMITED"],
    cost: COSTS.accountsFree,
    cacheControl: CACHE.none,
    etag: false,
    handler: async ({ req, body }) => {
      const ip = await limitIp(req, "register");
      if (!ip.ok) throw ip.error;
      return { status: 201, body: { data: await registerPerson(body, publicOrigin(req)) } };
    },
  }),
});
