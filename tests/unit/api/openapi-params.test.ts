import { describe, expect, it } from "vitest";
import { routeSpecs } from "@/app/api/v1/routes";
import { buildOpenApi } from "@/lib/api/openapi";
import { curlExample } from "@/app/docs/openapi-view";

// The reference (/docs) is read by people writing their first call: every parameter says what
// it takes, and the catalogue's own lookups show a curl line that runs as printed.

type Param = { name: string; in: string; description?: string; example?: unknown; schema?: { example?: unknown } };
type Op = { operationId: string; parameters?: Param[] };
const doc = buildOpenApi(routeSpecs(), { version: "test" }) as { paths: Record<string, Record<string, Op>> };
const ops = Object.entries(doc.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ path, method, op })));

describe("parameters in the OpenAPI document", () => {
  it("every parameter of every operation has a description", () => {
    const bare = ops.flatMap(({ path, method, op }) => (op.parameters ?? []).filter((p) => !p.description?.trim()).map((p) => `${method.toUpperCase()} ${path} ${p.in} ${p.name}`));
    expect(bare).toEqual([]);
  });

  it("the catalogue's lookups by id print a curl line without placeholders", () => {
    for (const id of ["getCard", "getSet", "listSetCards", "getArtist", "getCardPrices"]) {
      const found = ops.find((o) => o.op.operationId === id);
      expect(found, id).toBeDefined();
      expect(curlExample(found!.method, found!.path, found!.op as never, doc as never), id).not.toMatch(/<\w+>/);
    }
  });
});
