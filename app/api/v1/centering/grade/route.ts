import { z } from "zod";
import { defineRoute, mount } from "@/lib/api/route";
import { GradeBody, GradeResponse } from "@/lib/centering/schemas";
import { gradeRatios } from "@/lib/centering/service";
import { COSTS } from "@/lib/meter/costs";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = mount({
  POST: defineRoute({
    method: "POST",
    path: "/centering/grade",
    operationId: "gradeCentering",
    summary: "Grade ceilings from known ratios",
    description: "Front (and optionally back) centering ratios in; for PSA, BGS, CGC and SGC the best grade centering allows, the front's and back's own bands, which face limits the grade and how many percentage points it is from the next band. Centering alone: corners, edges and surface can only lower a grade.",
    tags: ["Centering"],
    auth: "key",
    query: z.strictObject({}),
    body: GradeBody,
    response: GradeResponse,
    errors: ["INVALID_PARAMETER", "PLAN_REQUIRED"],
    cost: COSTS.centeringGrade,
    etag: false,
    handler: async ({ body }) => gradeRatios(body),
  }),
});
