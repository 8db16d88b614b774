import { describe, expect, it } from "vitest";
import { routeSpecs } from "@/app/api/v1/routes";
import { buildOpenApi } from "@/lib/api/openapi";

// CONTRACT.md §9: the document lists each route's error codes. Those the pipeline answers on
// its own (the meter's refusals, a body over its limit, the card allowance) are the route's too.

type Op = { responses: Record<string, { headers?: { "X-Error-Code"?: { schema: { enum: string[] } } } }> };
const doc = buildOpenApi(routeSpecs(), { version: "test" }) as { paths: Record<string, Record<string, Op>> };
const codesOf = (method: string, path: string) =>
  Object.values(doc.paths[path]![method.toLowerCase()]!.responses).flatMap((r) => r.headers?.["X-Error-Code"]?.schema.enum ?? []);

describe("error codes in the OpenAPI document", () => {
  it("every keyed route lists the meter's refusals; those of credits only where a call can cost any", () => {
    for (const spec of routeSpecs().filter((s) => s.auth === "key")) {
      const codes = codesOf(spec.method, `/v1${spec.path}`);
      const where = `${spec.method} ${spec.path}`;
      expect(codes, where).toEqual(expect.arrayContaining(["MISSING_API_KEY", "INVALID_API_KEY", "RATE_LIMITED", "CONCURRENCY_LIMIT", "METER_UNAVAILABLE"]));
      const credit = ["QUOTA_EXCEEDED", "PLAN_REQUIRED", "TRIAL_EXPIRED"];
      if (spec.cost.alwaysFree) for (const c of credit) expect(spec.errors.includes(c as never) || !codes.includes(c), `${where} ${c}`).toBe(true);
      else expect(codes, where).toEqual(expect.arrayContaining(credit));
    }
    expect(codesOf("GET", "/v1/me")).not.toContain("QUOTA_EXCEEDED");
  });

  it("a parameter with a code of its own brings it: limit LIMIT_EXCEEDED; a card query's q INVALID_QUERY, a plain-text q none", () => {
    expect(codesOf("GET", "/v1/prices/movers")).toContain("LIMIT_EXCEEDED");
    for (const path of ["/v1/cards", "/v1/sets/{code}/cards"]) expect(codesOf("GET", path), path).toContain("INVALID_QUERY");
    for (const path of ["/v1/sets", "/v1/artists", "/v1/sealed"]) expect(codesOf("GET", path), path).not.toContain("INVALID_QUERY");
  });

  it("every route lists PAYLOAD_TOO_LARGE: a GET's body is not read, but one declared past the limit is refused", () => {
    for (const spec of routeSpecs()) expect(codesOf(spec.method, `/v1${spec.path}`), `${spec.method} ${spec.path}`).toContain("PAYLOAD_TOO_LARGE");
  });

  it("public routes say X-Trial-Expires-At, which they send to a trial key passed to them", () => {
    const reference = doc.paths["/v1/reference"]!.get! as unknown as { responses: Record<string, { headers: Record<string, unknown> }> };
    for (const status of ["200", "304", "400"]) expect(Object.keys(reference.responses[status]!.headers), status).toContain("X-Trial-Expires-At");
  });

  it("the card routes, which count distinct cards (SPEC.md Limits), list CARD_ALLOWANCE_EXCEEDED; the price routes do not", () => {
    for (const path of ["/v1/cards", "/v1/cards/{id}", "/v1/cards/batch", "/v1/sets/{code}/cards", "/v1/vision/identify"]) {
      const method = path.includes("identify") ? "POST" : "GET";
      expect(codesOf(method, path), path).toContain("CARD_ALLOWANCE_EXCEEDED");
    }
    for (const path of ["/v1/cards/{id}/prices", "/v1/prices/current", "/v1/cards/{id}/prices/history"]) expect(codesOf("GET", path), path).not.toContain("CARD_ALLOWANCE_EXCEEDED");
  });
});
