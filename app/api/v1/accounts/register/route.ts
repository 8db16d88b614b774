import { CACHE } from "@/lib/api/cache-control";
import { defineRoute, mount } from "@/lib/api/route";
import { limitIp } from "@/lib/accounts/abuse";
import { RegisterBody, RegisterResponse } from "@/lib/accounts/schemas";
import { registerPerson } from "@/lib/accounts/signup";
import { COSTS } from "@/lib/meter/costs";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = mount({
  POST: defineRoute({
    method: "POST",
    path: "/accounts/register",
    operationId: "registerAccount",
    summary: "Register for the dashboard (for persons)",
    description: "Email and password. Sign-in opens once the address is confirmed through the link we mail; API keys are then made in the dashboard. The answer is the same whether or not the address already has an account (its owner gets a mail instead), so it tells nobody which addresses have accounts.",
    tags: ["Accounts"],
    auth: "none",
    body: RegisterBody,
    response: RegisterResponse,
    successStatus: 202,
    errors: ["INVALID_PARAMETER", "RATE_LIMITED"],
    cost: COSTS.accountsFree,
    cacheControl: CACHE.none,
    etag: false,
    handler: async ({ req, body }) => {
      const ip = await limitIp(req, "register");
      if (!ip.ok) throw ip.error;
      return { status: 202, body: { data: await registerPerson(body) } };
    },
  }),
});
