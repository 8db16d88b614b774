import { describe, expect, it } from "vitest";
import { routeSpecs } from "@/app/api/v1/routes";
import { buildOpenApi } from "@/lib/api/openapi";
import { curlExample } from "@/app/docs/openapi-view";
import { call } from "../helpers/api";

// The reference prints a curl line per operation; where every path parameter has an example,
// that line is meant to run as printed. Each such catalogue read answers 200 on the real catalogue.

type Op = { operationId: string; parameters?: { in: string; example?: unknown; schema?: { example?: unknown } }[] };
const doc = buildOpenApi(routeSpecs(), { version: "test" }) as { paths: Record<string, Record<string, Op>> };

describe("the reference's runnable curl lines", () => {
  const runnable = Object.entries(doc.paths).flatMap(([path, methods]) => {
    const op = methods.get;
    if (!op || !path.includes("{")) return [];
    const line = curlExample("get", path, op as never, doc as never);
    return /<\w+>/.test(line) ? [] : [{ id: op.operationId, url: /"\$BASE(\/v1[^"]*)"/.exec(line)![1]! }];
  });

  it("there are some: the card, set and artist lookups", () => {
    expect(runnable.map((r) => r.id)).toEqual(expect.arrayContaining(["getCard", "getSet", "listSetCards", "getArtist"]));
  });

  it("each answers 200", async () => {
    for (const r of runnable) expect((await call("GET", r.url)).status, `${r.id} ${r.url}`).toBe(200);
  });
});
