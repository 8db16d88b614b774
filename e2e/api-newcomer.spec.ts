import { randomUUID } from "node:crypto";
import { expect, test, type APIRequestContext } from "@playwright/test";

// The API as a newcomer meets it: first without a key (the public routes and the error
// envelope), then with the trial key a script gets from POST /v1/accounts/free.

// One key per worker: signups are limited per address (10 an hour), and re-runs share a server.
let key: Promise<string> | undefined;

function trialKey(request: APIRequestContext): Promise<string> {
  return (key ??= (async () => {
    const res = await request.post("/v1/accounts/free", {
      headers: { "Idempotency-Key": randomUUID() },
      data: { email: `e2e-newcomer-${Date.now()}-${randomUUID().slice(0, 8)}@example.com` },
    });
    expect(res.status()).toBe(201);
    return (await res.json()).data.api_key as string;
  })());
}

test("GET /v1/health answers a bare liveness object", async ({ request }) => {
  const res = await request.get("/v1/health");
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toContain("application/json");
  expect(await res.json()).toEqual({ status: "ok", db: true });
});

test("GET /v1/openapi.json is an OpenAPI 3.1 document of the /v1 routes", async ({ request }) => {
  const res = await request.get("/v1/openapi.json");
  expect(res.status()).toBe(200);
  const doc = await res.json();
  expect(doc.openapi).toMatch(/^3\.1\./);
  expect(doc.info?.title).toEqual(expect.any(String));
  expect(Object.keys(doc.paths)).toContain("/v1/cards");
  expect(doc.paths["/v1/cards"].get.operationId).toBe("listCards");
});

test("every answer carries X-Request-Id, pages and images too", async ({ request }) => {
  for (const path of ["/", "/cards/base1-4", "/no-such-page", "/images/cards/base1-4/front-small.webp"]) {
    const res = await request.get(path, { maxRedirects: 0 });
    expect(res.headers()["x-request-id"], path).toMatch(/^req_/);
  }
});

test("pages refuse a method they do not answer with 405 in the envelope (Next answered TRACE with a 500)", async ({ request }) => {
  for (const path of ["/", "/docs"]) {
    const res = await request.fetch(path, { method: "PROPFIND", maxRedirects: 0 });
    expect(res.status(), path).toBe(405);
    expect((await res.json()).error.code, path).toBe("METHOD_NOT_ALLOWED");
  }
});

test("an unknown path answers the error envelope with 404 NOT_FOUND", async ({ request }) => {
  const res = await request.get("/v1/nope");
  expect(res.status()).toBe(404);
  expect(res.headers()["x-request-id"]).toBeTruthy();
  const body = await res.json();
  expect(body.error.code).toBe("NOT_FOUND");
  expect(body.error.message).toEqual(expect.any(String));
  expect(body.error.request_id).toEqual(expect.any(String));
});

test("a catalogue route without a key answers 401 MISSING_API_KEY", async ({ request }) => {
  const res = await request.get("/v1/sets/base1");
  expect(res.status()).toBe(401);
  expect((await res.json()).error.code).toBe("MISSING_API_KEY");
});

test("a path with broken percent-encoding is a 400 in the envelope, not Next's plain 500", async ({ request }) => {
  const res = await request.get("/v1/cards/%E0%A4%A");
  expect(res.status()).toBe(400);
  const body = await res.json();
  expect(body.error).toMatchObject({ code: "INVALID_PARAMETER", request_id: res.headers()["x-request-id"] });
  // A well-formed escape still reaches its route: Unown "?" of Unseen Forces.
  const key = await trialKey(request);
  const ok = await request.get("/v1/cards/ex10-%3F?select=name", { headers: { "X-Api-Key": key } });
  expect(ok.status()).toBe(200);
  expect(await ok.json()).toEqual({ data: { id: "ex10-?", name: "Unown" } });
});

test("the API is at /v1 only: the route modules' own folder, /api/v1, is not a second API", async ({ request }) => {
  for (const path of ["/api/v1/cards/base1-4", "/api/v1/reference", "/api/v1"]) {
    const res = await request.get(path);
    expect(res.status(), path).toBe(404);
    expect((await res.json()).error.code, path).toBe("NOT_FOUND");
  }
});

test("the API answers at /v1 with ETags and 304s", async ({ request }) => {
  const headers = { "X-Api-Key": await trialKey(request) };
  const first = await request.get("/v1/sets/base1?lang=fr", { headers });
  expect(first.status()).toBe(200);
  const etag = first.headers()["etag"];
  expect(etag).toMatch(/^"[^"]+"$/);
  const again = await request.get("/v1/sets/base1?lang=fr", { headers: { ...headers, "If-None-Match": etag! } });
  expect(again.status()).toBe(304);
  expect(await again.text()).toBe("");
});
