import { z } from "zod";
import { defineRoute, mount } from "@/lib/api/route";
import { ConfirmBody, ConfirmResponse } from "@/lib/centering/schemas";
import { confirm } from "@/lib/centering/service";
import { COSTS } from "@/lib/meter/costs";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = mount({
  POST: defineRoute({
    method: "POST",
    path: "/centering/confirm",
    operationId: "confirmCentering",
    summary: "Grade ceilings from person-reviewed lines",
    description: "The outer edges and frame lines of the front (and optionally the back) as a person placed them, in pixels; out: the ratios they make and each house's ceiling.",
    tags: ["Centering"],
    auth: "key",
    query: z.strictObject({}),
    body: ConfirmBody,
    response: ConfirmResponse,
    errors: ["INVALID_PARAMETER", "PLAN_REQUIRED"],
    cost: COSTS.centeringConfirm,
    etag: false,
    handler: async ({ body }) => confirm(body),
  }),
});
