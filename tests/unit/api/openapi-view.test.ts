import { describe, expect, it } from "vitest";
import { escapeHtml, html } from "@/app/docs/html";
import {
  curlExample, dedupeShapes, exampleValue, factsOf, inlineMarkdown, referenceView, schemaView, typeLabel, unwrapNullable, type Json,
} from "@/app/docs/openapi-view";
import { reference } from "@/app/docs/render";
import { routeSpecs } from "@/app/api/v1/routes";
import { ERRORS } from "@/lib/api/errors";
import { buildOpenApi } from "@/lib/api/openapi";

// The reference page's view of an OpenAPI document (app/docs/openapi-view.ts): schemas as field
// tables, operations grouped with the operators' last, curl lines; then the real document.

const text = (parts: { text: string }[]) => parts.map((p) => p.text).join("");
const rowsOf = (schema: Json) => schemaView(schema).rows.map((r) => ({ depth: r.depth, name: r.name, type: text(r.type), required: r.required, nullable: r.nullable }));

describe("unwrapNullable", () => {
  it("takes null out of anyOf/oneOf, type arrays, nullable and enums", () => {
    expect(unwrapNullable({ anyOf: [{ type: "string" }, { type: "null" }], description: "d" })).toEqual({ schema: { type: "string", description: "d" }, nullable: true });
    expect(unwrapNullable({ oneOf: [{ type: "null" }, { $ref: "#/components/schemas/Card" }] })).toEqual({ schema: { $ref: "#/components/schemas/Card" }, nullable: true });
    expect(unwrapNullable({ type: ["integer", "null"] })).toEqual({ schema: { type: "integer" }, nullable: true });
    expect(unwrapNullable({ type: "string", nullable: true }).nullable).toBe(true);
    expect(unwrapNullable({ type: "string", enum: ["a", null] })).toEqual({ schema: { type: "string", enum: ["a"] }, nullable: true });
    expect(unwrapNullable({ type: "string" })).toEqual({ schema: { type: "string" }, nullable: false });
  });

  it("keeps a union of several non-null members, minus null", () => {
    const { schema, nullable } = unwrapNullable({ anyOf: [{ type: "string" }, { type: "integer" }, { type: "null" }] });
    expect(nullable).toBe(true);
    expect(schema.anyOf).toEqual([{ type: "string" }, { type: "integer" }]);
  });
});

describe("typeLabel", () => {
  it("names plain types, formats, arrays, maps, refs and unions", () => {
    expect(typeLabel({ type: "string", format: "date" })).toEqual([{ text: "string (date)" }]);
    expect(typeLabel({ type: "string", contentEncoding: "binary" })).toEqual([{ text: "binary" }]);
    expect(typeLabel({ type: "array", items: { $ref: "#/components/schemas/Card" } })).toEqual([{ text: "array of " }, { text: "Card", ref: "Card" }]);
    expect(text(typeLabel({ type: "array", items: { type: "array", items: { type: "integer" } } }))).toBe("array of array of integer");
    expect(text(typeLabel({ type: "object", additionalProperties: { type: "number" } }))).toBe("map of number");
    expect(text(typeLabel({ anyOf: [{ type: "string" }, { type: "integer" }] }))).toBe("string or integer");
    expect(text(typeLabel({ oneOf: [{ type: "object", properties: { a: { type: "string" } } }, { type: "object", properties: { b: { type: "string" } } }] }))).toBe("one of");
    expect(text(typeLabel({ const: 3 }))).toBe("integer");
    expect(text(typeLabel({ enum: ["A", "B"] }))).toBe("string");
    expect(text(typeLabel({}))).toBe("any");
  });
});

describe("factsOf", () => {
  it("states defaults, ranges, lengths, items, short patterns and examples", () => {
    expect(factsOf({ type: "integer", default: 50, minimum: 1, maximum: 250 })).toEqual(["default 50", "1 to 250"]);
    expect(factsOf({ type: "integer", minimum: 0 })).toEqual(["at least 0"]);
    expect(factsOf({ type: "string", minLength: 1, maxLength: 100 })).toEqual(["1 to 100 characters"]);
    expect(factsOf({ type: "string", maxLength: 200, example: "id" })).toEqual(["at most 200 characters", "example id"]);
    expect(factsOf({ type: "array", items: {}, maxItems: 50 })).toEqual(["at most 50 items"]);
    expect(factsOf({ type: "string", pattern: "^[a-z]+$" })).toEqual(["pattern ^[a-z]+$"]);
    expect(factsOf({ type: "string", const: "x" })).toEqual(["always x"]);
  });

  it("leaves out the calendar regex of dates (the format says it)", () => {
    expect(factsOf({ type: "string", format: "date-time", pattern: "^(?:".padEnd(200, "x") })).toEqual([]);
  });
});

describe("schemaView", () => {
  it("flattens nested objects with their depth, required and nullable fields", () => {
    const schema = {
      type: "object",
      required: ["data"],
      properties: {
        data: {
          type: "object",
          required: ["id", "index"],
          properties: {
            id: { type: "string", description: "The id." },
            index: { anyOf: [{ type: "object", required: ["eur"], properties: { eur: { type: "number" } } }, { type: "null" }] },
          },
        },
        note: { type: "string" },
      },
    };
    expect(rowsOf(schema)).toEqual([
      { depth: 0, name: "data", type: "object", required: true, nullable: false },
      { depth: 1, name: "id", type: "string", required: true, nullable: false },
      { depth: 1, name: "index", type: "object", required: true, nullable: true },
      { depth: 2, name: "eur", type: "number", required: true, nullable: false },
      { depth: 0, name: "note", type: "string", required: false, nullable: false },
    ]);
    expect(schemaView(schema).rows[1]?.description).toBe("The id.");
    expect(schemaView(schema).rows[2]?.path).toBe("data.index");
  });

  it("opens arrays of objects and map values, and links refs without expanding them", () => {
    const schema = {
      type: "object",
      properties: {
        rows: { type: "array", items: { type: "object", properties: { a: { type: "integer" } } } },
        byCode: { type: "object", additionalProperties: { type: "object", properties: { n: { type: "integer" } } } },
        card: { $ref: "#/components/schemas/Card" },
      },
    };
    expect(rowsOf(schema).map((r) => `${r.depth}:${r.name}:${r.type}`)).toEqual([
      "0:rows:array of object", "1:a:integer", "0:byCode:map of object", "1:n:integer", "0:card:Card",
    ]);
    expect(schemaView(schema).rows[4]?.type).toEqual([{ text: "Card", ref: "Card" }]);
  });

  it("lists the variants of a union of objects, named by their constant property", () => {
    const schema = {
      type: "object",
      properties: {
        result: {
          oneOf: [
            { type: "object", properties: { kind: { const: "match" }, id: { type: "string" } } },
            { type: "object", properties: { kind: { const: "none" } } },
          ],
        },
      },
    };
    expect(rowsOf(schema).map((r) => `${r.depth}:${r.name}:${r.type}`)).toEqual([
      "0:result:one of", "1:kind = match:object", "2:kind:string", "2:id:string", "1:kind = none:object", "2:kind:string",
    ]);
  });

  it("gives enums of fields and of array items as allowed values", () => {
    const view = schemaView({ type: "object", properties: { a: { type: "string", enum: ["X", "Y"] }, b: { type: "array", items: { enum: ["P"] } } } });
    expect(view.rows.map((r) => r.enum)).toEqual([["X", "Y"], ["P"]]);
  });

  it("merges allOf members and stops at a self-reference", () => {
    const view = schemaView({ allOf: [{ type: "object", properties: { a: { type: "string" } }, required: ["a"] }, { properties: { b: { type: "integer" } } }] });
    expect(view.rows.map((r) => `${r.name}:${r.required}`)).toEqual(["a:true", "b:false"]);
    const loop: Json = { type: "object", properties: {} };
    (loop.properties as Json).self = loop;
    expect(schemaView(loop).rows.length).toBeLessThan(20);
  });
});

describe("dedupeShapes", () => {
  it("shows a long nested shape once and points later copies at it", () => {
    const inner = { type: "object", properties: { a: { type: "string" }, b: { type: "string" }, c: { type: "string" }, d: { type: "string" } } };
    const first = schemaView({ type: "object", properties: { quotes: { type: "array", items: inner } } });
    const second = schemaView({ type: "object", properties: { rows: { type: "array", items: inner }, short: { type: "object", properties: { x: { type: "string" } } } } });
    dedupeShapes([["one", "First", first], ["two", "Second", second]]);
    expect(first.rows).toHaveLength(5);
    expect(first.rows[0]?.anchor).toBe("one.quotes");
    expect(second.rows.map((r) => r.name)).toEqual(["rows", "short", "x"]);
    expect(second.rows[0]?.same).toEqual({ anchor: "one.quotes", label: "First: quotes" });
  });
});

describe("inlineMarkdown", () => {
  it("splits `code` and **strong** from text", () => {
    expect(inlineMarkdown("**Cost:** 1 per `limit` rows")).toEqual([
      { kind: "strong", text: "Cost:" }, { kind: "text", text: " 1 per " }, { kind: "code", text: "limit" }, { kind: "text", text: " rows" },
    ]);
  });
});

describe("exampleValue and curlExample", () => {
  it("builds a body from examples, defaults, enums and types", () => {
    expect(exampleValue({
      type: "object", required: ["email", "plan", "n", "at"],
      properties: { email: { type: "string", format: "email" }, plan: { enum: ["trial", "growth"] }, n: { type: "integer", minimum: 3 }, at: { type: "string", format: "date-time" }, x: { type: "string" } },
    })).toEqual({ email: "you@example.com", plan: "trial", n: 3, at: "2027-01-01T00:00:00Z" });
  });

  it("writes the method, the key, required values, a JSON body and an upload", () => {
    const doc = { components: { securitySchemes: { ApiKey: { type: "apiKey", in: "header", name: "X-Api-Key" }, AdminToken: { type: "http", scheme: "bearer" } } } };
    expect(curlExample("get", "/v1/cards/{id}", {
      security: [{ ApiKey: [] }],
      parameters: [{ name: "id", in: "path", schema: { type: "string" } }, { name: "ids", in: "query", required: true, schema: { type: "string" } }, { name: "q", in: "query", schema: { type: "string", example: "name:char* x" } }],
    }, doc)).toBe(`curl -H "X-Api-Key: $KEY" "$BASE/v1/cards/<id>?ids=<ids>&q=name:char*%20x"`);
    expect(curlExample("post", "/v1/admin/x", {
      security: [{ AdminToken: [] }],
      requestBody: { content: { "application/json": { schema: { type: "object", required: ["note"], properties: { note: { type: "string", example: "it's" } } } } } },
    }, doc)).toBe(`curl -X POST -H "Authorization: Bearer $ADMIN_TOKEN" -H 'Content-Type: application/json' -d '{"note":"it'\\''s"}' "$BASE/v1/admin/x"`);
    expect(curlExample("post", "/v1/up", {
      security: [],
      requestBody: { content: { "multipart/form-data": { schema: { type: "object", properties: { image: { type: "string", contentMediaType: "image/jpeg" } } } } } },
    }, doc)).toBe(`curl -X POST -F image=@card.jpg "$BASE/v1/up"`);
  });
});

describe("the HTML template", () => {
  it("escapes what it interpolates, but not nested templates", () => {
    expect(escapeHtml(`<a href="x">&</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;");
    expect(html`<p title="${'"x"'}">${"<b>"}${html`<i>ok</i>`}${[1, null, false, undefined, 2]}</p>`.value).toBe(`<p title="&quot;x&quot;">&lt;b&gt;<i>ok</i>12</p>`);
  });
});

describe("the reference of the real document", () => {
  const document = buildOpenApi(routeSpecs(), { version: "test" });
  const meanings = Object.fromEntries(Object.entries(ERRORS).map(([code, [, meaning]]) => [code, meaning]));
  const view = referenceView(document, meanings);
  const operations = view.groups.flatMap((g) => g.operations);

  it("shows every operation of the document once", () => {
    const expected = Object.entries(document.paths as Record<string, Json>).flatMap(([path, item]) => Object.keys(item).map((m) => `${m} ${path}`));
    expect(operations.map((o) => `${o.method} ${o.path}`).sort()).toEqual(expected.sort());
    expect(new Set(operations.map((o) => o.id)).size).toBe(operations.length);
    expect(view.operationCount).toBe(expected.length);
  });

  it("puts the operators' routes last, and only there", () => {
    const last = view.groups[view.groups.length - 1]!;
    expect(last.operators).toBe(true);
    expect(last.operations.length).toBeGreaterThan(0);
    expect(last.operations.every((o) => o.path.startsWith("/v1/admin/"))).toBe(true);
    expect(view.groups.slice(0, -1).flatMap((g) => g.operations).some((o) => o.path.includes("/admin/"))).toBe(false);
  });

  it("states cost, plan and authentication, and each error code with its meaning from the error table", () => {
    const movers = operations.find((o) => o.id === "listPriceMovers")!;
    expect(movers.cost).toBe("3 credits");
    expect(movers.plan).toMatch(/^growth/);
    expect(movers.auth.map((a) => a.detail)).toEqual(["X-Api-Key header", "Authorization: Bearer"]);
    expect(movers.description.join(" ")).not.toMatch(/\*\*Cost:\*\*/);
    const card = operations.find((o) => o.id === "getCard")!;
    const notFound = card.responses.find((r) => r.status === "404")!;
    expect(notFound.codes).toEqual([{ code: "CARD_NOT_FOUND", meaning: ERRORS.CARD_NOT_FOUND[1] }]);
    expect(operations.find((o) => o.id === "getHealth")!.auth[0]?.label).toBe("None");
    for (const e of view.errors) expect(e.meaning, e.code).toBe(ERRORS[e.code as keyof typeof ERRORS][1]);
  });

  it("renders one section per operation with its operationId as the anchor", () => {
    const out = reference(view).value;
    for (const o of operations) expect(out).toContain(`<section class="op" id="${o.id}">`);
    expect(out.match(/<section class="op" id=/g)).toHaveLength(operations.length);
  });
});
