import { z } from "zod";
import { defineRoute, mount } from "@/lib/api/route";
import { MeasureResponse } from "@/lib/centering/schemas";
import { measure } from "@/lib/centering/service";
import { COSTS } from "@/lib/meter/costs";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = mount({
  POST: defineRoute({
    method: "POST",
    path: "/centering/measure",
    operationId: "measureCentering",
    summary: "Measure a card's centering from a scan or photo",
    description: "A flat scan or a photo of one face in (multipart/form-data, field `image`); a photo in perspective is squared up first. Out: left/right and top/bottom ratios with their uncertainty, the outer edges and frame lines as editable coordinates (in the squared-up raster when `geometry.rectified` is set), the limiting axis, and each house's ceiling. Two measurements run at once per deployment and two wait; beyond that 503 PROVIDER_UNAVAILABLE with Retry-After: 2, refunded.",
    tags: ["Centering"],
    auth: "key",
    query: z.strictObject({}),
    upload: { maxBytes: 10_000_000 },
    response: MeasureResponse,
    errors: ["INVALID_PARAMETER", "INVALID_IMAGE", "PAYLOAD_TOO_LARGE", "PLAN_REQUIRED", "PROVIDER_UNAVAILABLE"],
    cost: COSTS.centeringMeasure,
    etag: false,
    handler: async ({ upload }) => measure(upload!),
  }),
});
