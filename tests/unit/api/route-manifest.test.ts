import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROUTE_MODULES, routeSpecs } from "@/app/api/v1/routes";

// The OpenAPI document lists the routes of app/api/v1/routes.ts. Every route.ts under
// app/api/v1 (but the catch-all) must be in it, or a route would go undocumented.
function routeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name.startsWith("[[") ? [] : routeFiles(p);
    return e.name === "route.ts" ? [p] : [];
  });
}

describe("route manifest", () => {
  it("lists every mounted route file", () => {
    const files = routeFiles(path.resolve("app/api/v1"));
    expect(ROUTE_MODULES).toHaveLength(files.length);
    // Each file's spec path matches its folder: /cards/{id} lives in cards/[id]/route.ts.
    const fromFiles = files
      .map((f) => `/${path.relative(path.resolve("app/api/v1"), path.dirname(f)).replace(/\[(\w+)\]/g, "{$1}")}`)
      .sort();
    const fromSpecs = [...new Set(routeSpecs().map((s) => s.path))].sort();
    expect(fromSpecs).toEqual(fromFiles);
  });

  it("gives every operation a unique id, a summary, tags and a cost", () => {
    const specs = routeSpecs();
    expect(new Set(specs.map((s) => s.operationId)).size).toBe(specs.length);
    for (const s of specs) {
      expect(s.summary, s.operationId).toBeTruthy();
      expect(s.tags.length, s.operationId).toBeGreaterThan(0);
      expect(s.cost.text, s.operationId).toBeTruthy();
    }
  });
});
