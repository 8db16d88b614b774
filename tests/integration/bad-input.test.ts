import { beforeAll, describe, expect, it } from "vitest";
import { buildBulk } from "@/lib/bulk/build";
import { progress } from "@/lib/jobs/progress";
import { call, getJson } from "../helpers/api";
import { query } from "../helpers/db";
import { expectEnvelope, expectError } from "../helpers/expect";

// The same bad inputs replayed on every GET route of the OpenAPI document. The routes come
// from /v1/openapi.json, so a route added later is covered without touching this file. Every
// answer must be the error envelope with X-Request-Id = error.request_id, and never a 500.

type Op = { path: string; url: string; params: Set<string>; required: Record<string, string>; keyed: boolean };

let ops: Op[] = [];

/** Real values for the path parameters and required query parameters, read from the data. */
async function realValues(): Promise<Record<string, Record<string, string>>> {
  const [sealed] = await query<{ slug: string }>("select slug from sealed_products where deleted_at is null order by slug limit 1");
  const [artist] = await query<{ slug: string }>("select slug from artists where deleted_at is null order by card_count desc, slug limit 1");
  return {
    "/v1/cards/{id}": { id: "base1-4" },
    "/v1/sets/{code}": { code: "sv3pt5" },
    "/v1/sets/{code}/cards": { code: "sv3pt5" },
    "/v1/artists/{slug}": { slug: artist!.slug },
    "/v1/sealed/{id}": { id: sealed!.slug },
    "/v1/cards/batch": { ids: "base1-4,sv3pt5-6" },
    "/v1/cards/{id}/prices": { id: "base1-4" },
    "/v1/cards/{id}/prices/history": { id: "base1-4" },
    "/v1/cards/{id}/prices/stats": { id: "base1-4" },
    "/v1/sealed/{id}/prices": { id: sealed!.slug },
    "/v1/prices/current": { ids: "base1-4,sv3pt5-6" },
    "/v1/bulk/{type}": { type: "sets" },
  };
}

beforeAll(async () => {
  // The bulk download route needs a file to exist.
  await buildBulk(progress("test", { quiet: true }), ["sets"]);
  const { body } = await getJson("/v1/openapi.json");
  const values = await realValues();
  for (const [path, methods] of Object.entries<Record<string, any>>(body.paths)) {
    const op = methods.get;
    // Operator routes do not exist without ADMIN_TOKEN (they answer 404 to everything).
    if (!op || op.security?.some((s: Record<string, unknown>) => "AdminToken" in s)) continue;
    const params = new Set<string>(op.parameters.filter((p: any) => p.in === "query").map((p: any) => p.name));
    let url = path;
    for (const p of op.parameters.filter((x: any) => x.in === "path")) {
      const v = values[path]?.[p.name];
      if (!v) throw new Error(`no real value for {${p.name}} of ${path}: add one to realValues()`);
      url = url.replace(`{${p.name}}`, encodeURIComponent(v));
    }
    const required: Record<string, string> = {};
    for (const p of op.parameters.filter((x: any) => x.in === "query" && x.required)) {
      const v = values[path]?.[p.name];
      if (!v) throw new Error(`no real value for required ${p.name} of ${path}: add one to realValues()`);
      required[p.name] = v;
    }
    ops.push({ path, url, params, required, keyed: !!op.security?.some((s: Record<string, unknown>) => "ApiKey" in s) });
  }
  ops = ops.sort((a, b) => a.path.localeCompare(b.path));
});

function withQuery(op: Op, extra: Record<string, string>): string {
  const qs = new URLSearchParams({ ...op.required, ...extra });
  const s = qs.toString();
  return s ? `${op.url}?${s}` : op.url;
}

/** Bad inputs, each for the routes that take the parameter concerned. */
type Case = {
  name: string; applies: (op: Op) => boolean; query: Record<string, string>; raw?: string;
  status: number; code: string; check?: (d: any) => void;
};
const has = (p: string) => (op: Op) => op.params.has(p);
/** Routes whose q is the card search language (the card lists; the other lists' q is plain text). */
const cardQuery = (op: Op) => op.params.has("q") && op.params.has("select");
const CASES: Case[] = [
  // The liveness probe is the one route that ignores what is appended to it.
  { name: "unknown parameter", applies: (op) => op.path !== "/v1/health", query: { zz_unknown: "1" }, status: 400, code: "INVALID_PARAMETER",
    check: (d) => expect(d.parameter).toBe("zz_unknown") },
  { name: "page", applies: has("cursor"), query: { page: "2" }, status: 400, code: "INVALID_PARAMETER", check: (d) => expect(d.did_you_mean).toBe("cursor") },
  { name: "offset", applies: has("cursor"), query: { offset: "10" }, status: 400, code: "INVALID_PARAMETER", check: (d) => expect(d.did_you_mean).toBe("cursor") },
  { name: "limit=0", applies: has("limit"), query: { limit: "0" }, status: 400, code: "INVALID_PARAMETER" },
  { name: "limit=abc", applies: has("limit"), query: { limit: "abc" }, status: 400, code: "INVALID_PARAMETER" },
  { name: "limit=1.5", applies: has("limit"), query: { limit: "1.5" }, status: 400, code: "INVALID_PARAMETER" },
  { name: "limit=1e2", applies: has("limit"), query: { limit: "1e2" }, status: 400, code: "INVALID_PARAMETER" },
  { name: "limit=0x10", applies: has("limit"), query: { limit: "0x10" }, status: 400, code: "INVALID_PARAMETER" },
  { name: "limit=251", applies: has("limit"), query: { limit: "251" }, status: 400, code: "LIMIT_EXCEEDED",
    check: (d) => expect(d).toMatchObject({ max: 250, requested: 251 }) },
  // Past 2^53 zod's safe-integer bound fails first: details.max is still the route's own.
  { name: "limit=1e17 written out", applies: has("limit"), query: { limit: "99999999999999999" }, status: 400, code: "LIMIT_EXCEEDED",
    check: (d) => expect(d.max).toBe(250) },
  { name: "repeated limit", applies: has("limit"), query: {}, raw: "limit=1&limit=2", status: 400, code: "INVALID_PARAMETER" },
  { name: "garbage cursor", applies: has("cursor"), query: { cursor: "not-a-cursor" }, status: 400, code: "INVALID_CURSOR" },
  { name: "unknown orderBy key", applies: has("orderBy"), query: { orderBy: "zz_key" }, status: 400, code: "INVALID_PARAMETER",
    check: (d) => expect(Array.isArray(d.valid_fields)).toBe(true) },
  { name: "unknown order_by key", applies: has("order_by"), query: { order_by: "-zz_key" }, status: 400, code: "INVALID_PARAMETER" },
  { name: "five orderBy keys", applies: has("orderBy"), query: { orderBy: "a,b,c,d,e" }, status: 400, code: "INVALID_PARAMETER" },
  { name: "lang=xx", applies: has("lang"), query: { lang: "xx" }, status: 400, code: "INVALID_PARAMETER" },
  { name: "include=legalities", applies: has("include"), query: { include: "legalities" }, status: 400, code: "INVALID_INCLUDE" },
  { name: "unknown select", applies: has("select"), query: { select: "zz_field" }, status: 400, code: "INVALID_SELECT_FIELD",
    check: (d) => expect(Array.isArray(d.valid_fields)).toBe(true) },
  { name: "unknown region", applies: has("region"), query: { region: "MARS" }, status: 400, code: "INVALID_PARAMETER" },
  { name: "q that does not parse", applies: cardQuery, query: { q: "name:(" }, status: 400, code: "INVALID_QUERY",
    check: (d) => expect(typeof d.position).toBe("number") },
  { name: "q naming an unknown field", applies: cardQuery, query: { q: "zz:1" }, status: 400, code: "INVALID_QUERY" },
  { name: "q too long", applies: cardQuery, query: { q: "a".repeat(1001) }, status: 400, code: "INVALID_QUERY",
    check: (d) => expect(typeof d.position).toBe("number") },
  // A plain-text q (artists, sets, sealed) neither parses nor names fields: too long, it is a
  // parameter out of bounds (SPEC.md lists no INVALID_QUERY on GET /v1/artists).
  { name: "plain-text q too long", applies: (op) => op.params.has("q") && !cardQuery(op), query: { q: "a".repeat(201) }, status: 400, code: "INVALID_PARAMETER",
    check: (d) => expect(d).toMatchObject({ parameter: "q", max_length: 200 }) },
  // An unknown region or language inside q is the same mistake as region=MARS or lang=xx.
  { name: "q with an unknown region", applies: cardQuery, query: { q: "set.region:XX" }, status: 400, code: "INVALID_PARAMETER",
    check: (d) => expect(d).toMatchObject({ parameter: "q", field: "set.region", valid_values: ["WEST", "JP", "CN", "KR"], position: 0 }) },
  { name: "q with an unknown language", applies: cardQuery, query: { q: "lang:xx" }, status: 400, code: "INVALID_PARAMETER",
    check: (d) => expect(d).toMatchObject({ parameter: "q", field: "languages", value: "xx" }) },
  // Instants PostgreSQL cannot hold (year 0, past 9999 in UTC, offsets past ±14:00) answered 500.
  ...["0000-01-01T00:00:00Z", "2026-01-01T00:00:00+18:00", "9999-12-31T23:00:00-01:00"].flatMap((v) => (["since", "from", "to"] as const).map((p) => (
    { name: `${p}=${v}`, applies: has(p), query: { [p]: v }, status: 400, code: "INVALID_PARAMETER" as const, check: (d: Record<string, unknown>) => expect(d.parameter).toBe(p) }))),
  { name: "malformed UTF-8 escape in q", applies: has("q"), query: {}, raw: "q=%E0%A4%A", status: 400, code: "INVALID_PARAMETER",
    check: (d) => expect(d.parameter).toBe("q") },
  { name: "NUL in the cursor", applies: has("cursor"), query: { cursor: "\u0000" }, status: 400, code: "INVALID_CURSOR" },
];

async function replay(url: string, status: number, code: string) {
  const res = await call("GET", url);
  const text = await res.text();
  expect(res.status, `${url} never 500`).toBeLessThan(500);
  const body = JSON.parse(text);
  expect({ url, status: res.status, code: body.error?.code }).toEqual({ url, status, code });
  return expectEnvelope(res, body);
}

describe("bad input on every GET route of the OpenAPI document", () => {
  it("covers the catalogue routes", () => {
    const paths = ops.map((o) => o.path);
    for (const p of ["/v1/cards", "/v1/cards/{id}", "/v1/cards/batch", "/v1/sets", "/v1/sets/{code}", "/v1/sets/{code}/cards",
      "/v1/series", "/v1/artists", "/v1/artists/{slug}", "/v1/sealed", "/v1/sealed/{id}", "/v1/reference", "/v1/status",
      "/v1/health", "/v1/openapi.json"]) {
      expect(paths).toContain(p);
    }
  });

  it("the filled-in routes answer 200 as they are", async () => {
    for (const op of ops) {
      const res = await call("GET", withQuery(op, {}));
      await res.arrayBuffer();
      expect(res.status, op.url).toBe(200);
      expect(res.headers.get("x-request-id"), op.url).toBeTruthy();
    }
  });

  for (const c of CASES) {
    it(c.name, async () => {
      const targets = ops.filter(c.applies);
      expect(targets.length, `${c.name} applies to some route`).toBeGreaterThan(0);
      for (const op of targets) {
        const base = withQuery(op, c.query);
        const url = c.raw ? `${base}${base.includes("?") ? "&" : "?"}${c.raw}` : base;
        const error = await replay(url, c.status, c.code);
        if (c.check) c.check(error.details ?? {});
      }
    });
  }

  it("without a key, a keyed route is 401 MISSING_API_KEY whatever else is wrong: the caller is checked first", async () => {
    const keyed = ops.filter((o) => o.keyed);
    expect(keyed.map((o) => o.path)).toEqual(expect.arrayContaining(["/v1/cards/batch", "/v1/prices/current", "/v1/cards"]));
    for (const o of keyed) {
      // Required parameters left out, an unknown one and a bad limit added.
      for (const url of [o.url, `${o.url}?limit=abc&zz=1`]) {
        const res = await call("GET", url, { anonymous: true });
        const body = await res.json();
        expect({ url, status: res.status, code: body.error?.code }).toEqual({ url, status: 401, code: "MISSING_API_KEY" });
      }
    }
    const long = await call("GET", `/v1/cards/${"x".repeat(300)}`, { anonymous: true });
    expect(long.status).toBe(401);
  });

  it("page and offset are refused on every list route with did_you_mean cursor", async () => {
    const lists = ops.filter((o) => o.params.has("cursor")).map((o) => o.path);
    expect(lists).toEqual(expect.arrayContaining(["/v1/cards", "/v1/sets", "/v1/sets/{code}/cards", "/v1/series", "/v1/artists", "/v1/sealed"]));
    // Lists without pages (an account's keys) say the same of page and offset.
    for (const p of ["page", "offset"]) {
      const { error } = await expectError(`/v1/keys?${p}=2`, 400, "INVALID_PARAMETER");
      expect(error.details).toEqual({ parameter: p, did_you_mean: "cursor" });
    }
  });

  it("unknown path parameters give the route's 404 in the envelope", async () => {
    const notFound: Record<string, [string, string]> = {
      "/v1/cards/{id}": ["/v1/cards/zz-404", "CARD_NOT_FOUND"],
      "/v1/sets/{code}": ["/v1/sets/zz-404", "SET_NOT_FOUND"],
      "/v1/sets/{code}/cards": ["/v1/sets/zz-404/cards", "SET_NOT_FOUND"],
      "/v1/artists/{slug}": ["/v1/artists/zz-404", "ARTIST_NOT_FOUND"],
      "/v1/sealed/{id}": ["/v1/sealed/zz-404", "SEALED_NOT_FOUND"],
      "/v1/cards/{id}/prices": ["/v1/cards/zz-404/prices", "CARD_NOT_FOUND"],
      "/v1/cards/{id}/prices/history": ["/v1/cards/zz-404/prices/history", "CARD_NOT_FOUND"],
      "/v1/cards/{id}/prices/stats": ["/v1/cards/zz-404/prices/stats", "CARD_NOT_FOUND"],
      "/v1/sealed/{id}/prices": ["/v1/sealed/zz-404/prices", "SEALED_NOT_FOUND"],
      "/v1/bulk/{type}": ["/v1/bulk/zz-404", "NOT_FOUND"],
    };
    for (const op of ops.filter((o) => o.path.includes("{"))) {
      const [url, code] = notFound[op.path] ?? [];
      expect(url, `a 404 case for ${op.path}`).toBeDefined();
      await replay(url!, 404, code!);
    }
  });
});

describe("paths and methods outside the routes", () => {
  it("an unknown path is 404 NOT_FOUND", async () => {
    for (const path of ["/v1/nope", "/v1/cards/base1-4/extra", "/v1/sets/sv3pt5/cards/extra", "/v1/"]) {
      await expectError(path, 404, "NOT_FOUND");
    }
    await expectError("/v1/nope", 404, "NOT_FOUND", "POST");
    // Whatever the method: a HEAD or a preflight of a path that does not exist claims no GET.
    for (const method of ["HEAD", "OPTIONS", "FOO"]) {
      const res = await call(method, "/v1/nope/deeper");
      expect(res.status, method).toBe(404);
      expect(res.headers.get("allow"), method).toBeNull();
      expect(res.headers.get("x-request-id"), method).toBeTruthy();
    }
  });

  it("a method no route export serves (a made-up one; TRACE over a socket in server-security) is 405 with the path's Allow", async () => {
    for (const method of ["FOO", "PROPFIND"]) {
      const res = await call(method, "/v1/cards");
      expect(res.status, method).toBe(405);
      expect(res.headers.get("allow"), method).toBe("GET, HEAD, OPTIONS");
    }
  });

  it("a wrong method is 405 METHOD_NOT_ALLOWED with an Allow header, on every route", async () => {
    const allowed = (res: Response) => (res.headers.get("allow") ?? "").split(",").map((m) => m.trim()).filter(Boolean);
    const { res } = await expectError("/v1/cards", 405, "METHOD_NOT_ALLOWED", "POST");
    expect(allowed(res)).toContain("GET");
    expect(allowed(res)).not.toContain("POST");
    const { body: doc } = await getJson("/v1/openapi.json");
    for (const op of ops) {
      const served = Object.keys(doc.paths[op.path]).map((m) => m.toUpperCase());
      for (const method of ["POST", "PUT", "PATCH", "DELETE"].filter((m) => !served.includes(m))) {
        const r = await expectError(op.url, 405, "METHOD_NOT_ALLOWED", method);
        expect(allowed(r.res), `${method} ${op.url}`).toContain("GET");
        expect(allowed(r.res), `${method} ${op.url}`).not.toContain(method);
        // The body names the same methods as the header.
        expect(r.error.details?.allow, `${method} ${op.url}`).toEqual(allowed(r.res));
      }
    }
  });

  it("a route without GET allows no HEAD either, and says so", async () => {
    const allowed = (res: Response) => (res.headers.get("allow") ?? "").split(",").map((m) => m.trim()).filter(Boolean);
    const { res } = await expectError("/v1/accounts/free", 405, "METHOD_NOT_ALLOWED", "GET");
    expect(allowed(res)).toEqual(["POST", "OPTIONS"]);
    expect((await call("HEAD", "/v1/accounts/free")).status).toBe(405);
    expect(allowed(await call("OPTIONS", "/v1/accounts/free"))).toEqual(["POST", "OPTIONS"]);
    expect(allowed(await call("OPTIONS", "/v1/cards"))).toEqual(["GET", "HEAD", "OPTIONS"]);
  });

  it("every answer carries X-Request-Id, a fresh one per request", async () => {
    const a = await call("GET", "/v1/cards/base1-4");
    const b = await call("GET", "/v1/cards/base1-4");
    expect(a.headers.get("x-request-id")).toBeTruthy();
    expect(a.headers.get("x-request-id")).not.toBe(b.headers.get("x-request-id"));
  });
});
