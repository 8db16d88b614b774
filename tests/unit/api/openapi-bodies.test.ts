import { describe, expect, it } from "vitest";
import { routeSpecs } from "@/app/api/v1/routes";
import { buildOpenApi } from "@/lib/api/openapi";
import { MAX_JSON_BODY } from "@/lib/api/body";

// CONTRACT.md §9: what the server takes is in the document, as a tool generating requests from
// it (or a reader) needs it: bodies, their limits, the headers that sign them.

type Json = Record<string, any>;
const doc = buildOpenApi(routeSpecs(), { version: "test" }) as Json;
const resolve = (s: Json): Json => (s.$ref ? doc.components.schemas[s.$ref.split("/").pop()] : s);

describe("bodies and limits in the OpenAPI document", () => {
  it("Stripe's webhook: its JSON body and the Stripe-Signature header it is checked against", () => {
    const op = doc.paths["/v1/billing/webhook"].post;
    expect(op.requestBody).toMatchObject({ required: true, content: { "application/json": { schema: { type: "object" } } } });
    expect(op.parameters).toContainEqual(expect.objectContaining({ name: "Stripe-Signature", in: "header", required: true }));
  });

  it("the JSON body limit is published, and OPTIONS is described", () => {
    expect(doc.info.description).toContain(`${MAX_JSON_BODY.toLocaleString("en")} bytes`);
    expect(doc.info.description).toMatch(/OPTIONS/);
  });

  it("price notes are listed on the lists that can carry prices only", () => {
    const meta = (path: string) => resolve(resolve(doc.paths[path].get.responses["200"].content["application/json"].schema).properties.meta).properties;
    for (const path of ["/v1/cards", "/v1/sets/{code}/cards", "/v1/sealed"]) expect(Object.keys(meta(path)), path).toEqual(expect.arrayContaining(["withheld", "plan_notes"]));
    for (const path of ["/v1/changes", "/v1/sets", "/v1/series", "/v1/artists"]) expect(Object.keys(meta(path)), path).not.toContain("plan_notes");
  });
});
