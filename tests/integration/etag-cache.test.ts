import { beforeAll, describe, expect, it } from "vitest";
import { get, getJson } from "../helpers/api";
import { query } from "../helpers/db";

// ETag and Cache-Control. Every catalogue 200 carries a strong ETag; sending it back gives a
// 304 without a body; another query gives another ETag. Cache-Control is exactly SPEC.md's
// where SPEC.md names it, and what the OpenAPI document declares everywhere.

const SPEC_CACHE: Record<string, string> = {
  "/v1/series": "public, max-age=86400",
  "/v1/reference": "public, max-age=86400",
  "/v1/status": "public, max-age=60",
  "/v1/sets/sv3pt5/cards": "public, max-age=60, s-maxage=300, stale-while-revalidate=600",
  "/v1/artists": "public, max-age=60, s-maxage=300, stale-while-revalidate=600",
};

let sealedSlugs: string[] = [];
let documented: Record<string, string | undefined> = {};

beforeAll(async () => {
  sealedSlugs = (await query<{ slug: string }>("select slug from sealed_products where deleted_at is null order by slug limit 2")).map((r) => r.slug);
  const { body } = await getJson("/v1/openapi.json");
  for (const [path, ops] of Object.entries<any>(body.paths)) {
    documented[path] = ops.get?.responses?.["200"]?.headers?.["Cache-Control"]?.schema?.const;
  }
});

/** Catalogue answers, each with a variant that must give another body and so another ETag. */
const CATALOGUE: { route: string; url: string; other: () => string }[] = [
  { route: "/v1/cards", url: "/v1/cards?limit=2", other: () => "/v1/cards?limit=3" },
  { route: "/v1/cards/{id}", url: "/v1/cards/base1-4", other: () => "/v1/cards/base1-2" },
  { route: "/v1/cards/batch", url: "/v1/cards/batch?ids=base1-4", other: () => "/v1/cards/batch?ids=base1-4,base1-2" },
  { route: "/v1/sets", url: "/v1/sets?limit=2", other: () => "/v1/sets?limit=2&orderBy=name" },
  { route: "/v1/sets/{code}", url: "/v1/sets/sv3pt5", other: () => "/v1/sets/base1" },
  { route: "/v1/sets/{code}/cards", url: "/v1/sets/sv3pt5/cards?limit=2", other: () => "/v1/sets/sv3pt5/cards?limit=2&lang=fr" },
  { route: "/v1/series", url: "/v1/series", other: () => "/v1/series?orderBy=name" },
  { route: "/v1/artists", url: "/v1/artists", other: () => "/v1/artists?q=ken" },
  { route: "/v1/artists/{slug}", url: "/v1/artists/mekayu", other: () => "/v1/artists/ken-sugimori" },
  { route: "/v1/sealed", url: "/v1/sealed?limit=2", other: () => "/v1/sealed?limit=3" },
  { route: "/v1/sealed/{id}", url: "", other: () => `/v1/sealed/${sealedSlugs[1]}` },
  { route: "/v1/reference", url: "/v1/reference", other: () => "" },
  { route: "/v1/status", url: "/v1/status", other: () => "" },
  { route: "/v1/openapi.json", url: "/v1/openapi.json", other: () => "" },
];
const urlOf = (c: (typeof CATALOGUE)[number]) => c.url || `/v1/sealed/${sealedSlugs[0]}`;

describe("ETag", () => {
  it.each(CATALOGUE.map((c) => [c.route, c] as const))("%s: strong ETag, 304 on If-None-Match, another ETag for another query", async (_route, c) => {
    const url = urlOf(c);
    // /v1/status reports ages that tick every 36 seconds, and other test files run the price
    // jobs meanwhile: when the status moves between the two requests, it is asked again.
    for (let attempt = 0; ; attempt++) {
      const first = await get(url);
      expect(first.status, url).toBe(200);
      const etag = first.headers.get("etag");
      expect(etag, url).toMatch(/^"[^"]+"$/);
      expect(etag!.startsWith("W/")).toBe(false);

      const again = await get(url, { "If-None-Match": etag! });
      if (again.status === 200 && c.route === "/v1/status" && attempt < 10) {
        await new Promise((r) => setTimeout(r, 200));
        continue;
      }
      expect(again.status, url).toBe(304);
      expect(await again.text()).toBe("");
      expect(again.headers.get("etag")).toBe(etag);
      expect(again.headers.get("x-request-id")).toBeTruthy();
      expect(again.headers.get("x-credits-cost")).toBe("0");
      expect(again.headers.get("cache-control")).toBe(first.headers.get("cache-control"));

      // An ETag that does not match answers in full.
      const stale = await get(url, { "If-None-Match": '"not-this-one"' });
      expect(stale.status).toBe(200);
      expect((await stale.text()).length).toBeGreaterThan(0);

      const other = c.other();
      if (other) {
        const o = await get(other);
        expect(o.status, other).toBe(200);
        expect(o.headers.get("etag"), other).toMatch(/^"[^"]+"$/);
        expect(o.headers.get("etag"), `${other} vs ${url}`).not.toBe(etag);
        // And the first ETag does not validate the other answer.
        expect((await get(other, { "If-None-Match": etag! })).status).toBe(200);
      }
      break;
    }
  });

  it("the same answer gives the same ETag", async () => {
    const a = await get("/v1/sets/sv3pt5/cards?limit=5&select=name");
    const b = await get("/v1/sets/sv3pt5/cards?limit=5&select=name");
    expect(a.headers.get("etag")).toBe(b.headers.get("etag"));
  });

  it("errors carry no ETag and are never 304", async () => {
    const res = await get("/v1/cards/zz-404");
    expect(res.status).toBe(404);
    expect(res.headers.get("etag")).toBeNull();
    const again = await get("/v1/cards/zz-404", { "If-None-Match": "*" });
    expect(again.status).toBe(404);
  });
});

describe("Cache-Control", () => {
  it.each(Object.entries(SPEC_CACHE))("%s is exactly SPEC.md's", async (url, value) => {
    const res = await get(url);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe(value);
  });

  it("every catalogue route sends the Cache-Control its OpenAPI operation declares", async () => {
    for (const c of CATALOGUE) {
      const res = await get(urlOf(c));
      expect(documented[c.route], c.route).toBeDefined();
      expect(res.headers.get("cache-control"), c.route).toBe(documented[c.route]);
    }
  });
});
