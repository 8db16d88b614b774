import { accountOf } from "@/lib/api/auth";
import { defineRoute, mount } from "@/lib/api/route";
import { COSTS } from "@/lib/meter/costs";
import { IdentifyQuery, IdentifyResponse } from "@/lib/vision/schemas";
import { identify } from "@/lib/vision/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = mount({
  POST: defineRoute({
    method: "POST",
    path: "/vision/identify",
    operationId: "identifyCard",
    summary: "Identify a card from a photo",
    description: "A photo of one card (multipart/form-data, field `image`: JPEG, PNG or WebP, EXIF orientation honoured) in; out: the nearest catalogue cards, ranked, each with a distance, or `no_match` when none is credible. The candidates count toward the distinct-card allowance. Trial: 5 calls after email confirmation; Growth and above within credits.",
    tags: ["Vision"],
    auth: "key",
    query: IdentifyQuery,
    upload: { maxBytes: 10_000_000 },
    response: IdentifyResponse,
    errors: ["INVALID_PARAMETER", "INVALID_INCLUDE", "INVALID_IMAGE", "PAYLOAD_TOO_LARGE", "PLAN_REQUIRED", "CARD_ALLOWANCE_EXCEEDED", "PROVIDER_UNAVAILABLE"],
    cost: COSTS.identify,
    etag: false,
    handler: async ({ upload, query, principal }) => identify(upload!, query, accountOf(principal)),
  }),
});
