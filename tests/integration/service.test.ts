import { describe, expect, it } from "vitest";
import { getJson } from "../helpers/api";
import { query } from "../helpers/db";

// GET /v1/reference, /v1/status, /v1/health and /v1/openapi.json

describe("GET /v1/reference", () => {
  it("answers exactly the vocabularies of SPEC.md and CONTRACT.md", async () => {
    const { res, body } = await getJson("/v1/reference");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, max-age=86400");
    expect(body).toEqual({
      data: {
        locales: ["en", "ja", "zh", "fr", "de", "es", "it", "pt", "ko"],
        currencies: ["EUR", "USD", "GBP", "JPY"],
        print_regions: ["WEST", "JP", "CN", "KR"],
        conditions: ["MINT", "NEAR_MINT", "EXCELLENT", "GOOD", "LIGHT_PLAYED", "PLAYED", "POOR"],
        printings: ["NORMAL", "HOLOFOIL", "REVERSE_HOLO", "FIRST_EDITION", "FIRST_EDITION_HOLOFOIL"],
        grading_companies: ["PSA", "BGS", "CGC", "SGC", "TAG", "ACE"],
        price_variants: ["LOW", "MARKET", "TREND", "AVG_1D", "AVG_7D", "AVG_30D", "MEDIAN_GRADED", "INDEX"],
        price_bases: ["SOLD", "ASKING", "GUIDE", "DERIVED"],
        change_kinds: ["CARD", "SET", "SEALED", "PRICE", "IMAGE"],
        image_faces: ["FRONT", "BACK", "ART", "LOGO", "SYMBOL"],
        image_sizes: ["SMALL", "NORMAL", "LARGE"],
      },
    });
  });

  it("every print region of the vocabulary is accepted as a filter", async () => {
    const { body } = await getJson("/v1/reference");
    for (const r of body.data.print_regions) {
      expect((await getJson(`/v1/sets?region=${r}&limit=1`)).res.status, r).toBe(200);
      expect((await getJson(`/v1/cards?region=${r}&limit=1&select=name`)).res.status, r).toBe(200);
      expect((await getJson(`/v1/cards?q=set.region:${r}&limit=1&select=name`)).res.status, r).toBe(200);
    }
  });
});

describe("GET /v1/status", () => {
  it("reports counts, the ingest jobs, the upstream contract and the version", async () => {
    const { res, body } = await getJson("/v1/status");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, max-age=60");
    const [counts] = await query<Record<string, number>>(`select
      (select count(*)::int from sets where deleted_at is null) as sets,
      (select count(*)::int from cards where deleted_at is null) as cards,
      (select count(*)::int from sealed_products where deleted_at is null) as sealed,
      (select count(*)::int from artists where deleted_at is null) as artists`);
    expect(body.status).toBe("ok");
    expect(body.catalog).toEqual(counts);
    expect(body.sources.map((s: any) => s.source)).toEqual(["refresh-catalog", "refresh-index", "refresh-prices"]);
    const catalog = body.sources[0];
    // The run imported the catalogue in its global setup: the job has succeeded and is fresh.
    expect(catalog.state).toBe("fresh");
    expect(catalog.last_success_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/);
    expect(typeof catalog.age_hours).toBe("number");
    expect(catalog.age_hours).toBeGreaterThanOrEqual(0);
    for (const s of body.sources) expect(Object.keys(s).sort()).toEqual(["age_hours", "last_success_at", "source", "state"]);
    expect(body.upstream).toEqual({ contract_ok: true, error: null });
    expect(typeof body.version).toBe("string");
    expect(body.version.length).toBeGreaterThan(0);
  });

  it("the catalogue counts agree with the lists", async () => {
    const { body } = await getJson("/v1/status");
    expect((await getJson("/v1/sets?limit=1")).body.meta.total_count).toBe(body.catalog.sets);
    expect((await getJson("/v1/artists?limit=1")).body.meta.total_count).toBe(body.catalog.artists);
  });
});

describe("GET /v1/health", () => {
  it("answers exactly {status: 'ok', db: true}", async () => {
    const { res, body } = await getJson("/v1/health");
    expect(res.status).toBe(200);
    expect(body).toStrictEqual({ status: "ok", db: true });
    expect(res.headers.get("x-request-id")).toBeTruthy();
  });

  it("ignores query parameters a probe may append", async () => {
    const { res, body } = await getJson("/v1/health?probe=lb&ts=1");
    expect(res.status).toBe(200);
    expect(body).toStrictEqual({ status: "ok", db: true });
  });
});

describe("GET /v1/openapi.json", () => {
  const ROUTES = [
    "/v1/cards", "/v1/cards/{id}", "/v1/cards/batch", "/v1/sets", "/v1/sets/{code}", "/v1/sets/{code}/cards",
    "/v1/series", "/v1/artists", "/v1/artists/{slug}", "/v1/sealed", "/v1/sealed/{id}", "/v1/reference",
    "/v1/status", "/v1/health", "/v1/openapi.json",
  ];

  it("is OpenAPI 3.1 with every route of the catalogue", async () => {
    const { res, body } = await getJson("/v1/openapi.json");
    expect(res.status).toBe(200);
    expect(body.openapi).toMatch(/^3\.1\.\d+$/);
    expect(body.info.version).toBe((await getJson("/v1/status")).body.version);
    for (const p of ROUTES) expect(body.paths, p).toHaveProperty([p, "get"]);
  });

  it("every operation states its credit cost, error responses and parameters", async () => {
    const { body } = await getJson("/v1/openapi.json");
    for (const [path, ops] of Object.entries<Record<string, any>>(body.paths)) {
      for (const [method, op] of Object.entries<any>(ops)) {
        const where = `${method.toUpperCase()} ${path}`;
        expect(op["x-credit-cost"], where).toBeDefined();
        expect(String(op["x-credit-cost"]).length, where).toBeGreaterThan(0);
        expect(op.operationId, where).toBeTruthy();
        expect(Object.keys(op.responses).some((c) => /^2\d\d$/.test(c)), `${where} documents its success`).toBe(true);
        // Path parameters are declared for every {name} in the path.
        for (const name of [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1])) {
          expect(op.parameters.some((p: any) => p.in === "path" && p.name === name && p.required), `${where} {${name}}`).toBe(true);
        }
      }
    }
    // Catalogue lists document the paging parameters.
    for (const p of ["/v1/cards", "/v1/sets", "/v1/sets/{code}/cards", "/v1/series", "/v1/artists", "/v1/sealed"]) {
      const names = body.paths[p].get.parameters.map((x: any) => x.name);
      expect(names, p).toEqual(expect.arrayContaining(["limit", "cursor", "orderBy", "order_by"]));
    }
    // Error responses point at the shared envelope.
    const err = body.paths["/v1/cards/{id}"].get.responses["404"];
    expect(JSON.stringify(err)).toContain("CARD_NOT_FOUND");
    expect(body.components.schemas.Error).toBeDefined();
  });
});
