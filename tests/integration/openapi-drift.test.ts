import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { routeSpecs } from "@/app/api/v1/routes";
import { call } from "../helpers/api";
import { makeAccount, type TestAccount } from "../helpers/accounts";
import Stripe from "stripe";
import { sessionIdOf, useFakeStripe } from "../helpers/billing";
import { cardPhoto, cardScan, centeringPhoto, imageForm, noCardPhoto } from "../helpers/images";

// The OpenAPI document is generated from each route's response schema. Real answers are
// validated against those same schemas here, so the document cannot silently drift from them.

type Sample = { url: string; method?: string; body?: unknown; headers?: Record<string, string>; admin?: boolean; key?: "own"; form?: () => Promise<FormData> };

let account: TestAccount;
const ADMIN = `admin-${randomUUID()}`;
const billing = useFakeStripe();
/** A Stripe event of a kind the app does not handle, signed: the webhook acknowledges it. */
const unhandledEvent = { id: `evt_drift_${randomUUID()}`, object: "event", type: "customer.created", data: { object: { id: "cus_drift", object: "customer" } } };

const SAMPLES = (): Record<string, Sample[]> => ({
  "GET /cards": [{ url: "/v1/cards?limit=30" }, { url: "/v1/cards?limit=30&include=set,artist,translations,images,index" }, { url: "/v1/cards?q=set.region:JP&limit=20&lang=ja" }],
  "GET /cards/{id}": [{ url: "/v1/cards/base1-4" }, { url: "/v1/cards/base1-4?include=set,artist,translations,images,index" }, { url: "/v1/cards/base1-4?select=indexEur" }],
  "GET /cards/batch": [{ url: "/v1/cards/batch?ids=base1-4,sv3pt5-06,nope&include=artist" }],
  "GET /sets": [{ url: "/v1/sets?limit=60" }, { url: "/v1/sets?region=JP&limit=20" }],
  "GET /sets/{code}": [{ url: "/v1/sets/MEW" }, { url: "/v1/sets/tcgdex-asia-SV2a?lang=en" }],
  "GET /sets/{code}/cards": [{ url: "/v1/sets/base1/cards?limit=102" }, { url: "/v1/sets/tcgdex-asia-PMCG1/cards?q=number:150" }],
  "GET /series": [{ url: "/v1/series" }],
  "GET /artists": [{ url: "/v1/artists?limit=100" }],
  "GET /artists/{slug}": [{ url: "/v1/artists/ken-sugimori" }],
  "GET /sealed": [{ url: "/v1/sealed?limit=100" }, { url: "/v1/sealed?include=index&limit=20" }],
  "GET /sealed/{id}": [{ url: "/v1/sealed/SV9-623628" }, { url: "/v1/sealed/journey-together-journey-together-enhanced-booster-box-623628?include=index" }],
  "GET /reference": [{ url: "/v1/reference" }],
  "GET /status": [{ url: "/v1/status" }],
  "GET /health": [{ url: "/v1/health" }],
  "GET /openapi.json": [{ url: "/v1/openapi.json" }],
  "POST /accounts/free": [{ url: "/v1/accounts/free", method: "POST", body: { email: `drift-${randomUUID()}@example.com` }, headers: { "idempotency-key": randomUUID() } }],
  "POST /accounts/register": [{ url: "/v1/accounts/register", method: "POST", body: { email: `drift-${randomUUID()}@example.com`, password: "correct horse battery" } }],
  "POST /accounts/confirm": [], // needs a mailed token: tests/integration/accounts.test.ts
  "POST /accounts/confirmation": [{ url: "/v1/accounts/confirmation", method: "POST", key: "own" }],
  "GET /me": [{ url: "/v1/me", key: "own" }],
  "GET /me/usage": [{ url: "/v1/me/usage?days=7", key: "own" }, { url: "/v1/me/usage?range=24h&group_by=route", key: "own" }],
  "GET /me/requests": [{ url: "/v1/me/requests?limit=5", key: "own" }, { url: "/v1/me/requests?status=4xx", key: "own" }],
  "GET /prices/sources": [{ url: "/v1/prices/sources" }],
  "GET /prices/current": [{ url: "/v1/prices/current?ids=base1-2,base1-3,nope" }],
  "GET /cards/{id}/prices": [{ url: "/v1/cards/base1-2/prices" }, { url: "/v1/cards/base1-3/prices?source=EBAY" }],
  "GET /cards/{id}/prices/history": [{ url: "/v1/cards/base1-2/prices/history?window=1y&interval=month" }],
  "GET /cards/{id}/prices/stats": [{ url: "/v1/cards/base1-2/prices/stats?window=90d" }],
  "GET /sealed/{id}/prices": [{ url: "/v1/sealed/SV9-623628/prices" }],
  "GET /bulk": [{ url: "/v1/bulk" }],
  // A gzip file, not JSON: tests/integration/bulk.test.ts reads it back line by line.
  "GET /bulk/{type}": [],
  "GET /changes": [{ url: "/v1/changes?limit=3" }, { url: "/v1/changes?kind=PRICE&limit=2" }],
  "GET /prices/movers": [{ url: "/v1/prices/movers?window=30d&limit=3" }, { url: "/v1/prices/movers?product=sealed&min_eur=0" }],
  "POST /centering/grade": [
    { url: "/v1/centering/grade", method: "POST", body: { front: { left_right: "53.5/46.5", top_bottom: 51 }, back: { left_right: 70, top_bottom: "60/40" } } },
    { url: "/v1/centering/grade", method: "POST", body: { front: { left_right: 97, top_bottom: 50 } } },
  ],
  "GET /centering/standards": [{ url: "/v1/centering/standards" }],
  "POST /centering/measure": [
    { url: "/v1/centering/measure", method: "POST", form: async () => imageForm(await cardScan({ left_right: 58, top_bottom: 47 })) },
    { url: "/v1/centering/measure", method: "POST", form: async () => imageForm(await centeringPhoto()) },
  ],
  "POST /vision/identify": [
    { url: "/v1/vision/identify?top_k=3&include=prices,images", method: "POST", form: async () => imageForm(await cardPhoto()) },
    { url: "/v1/vision/identify", method: "POST", form: async () => imageForm(await noCardPhoto()) },
  ],
  "POST /centering/confirm": [
    { url: "/v1/centering/confirm", method: "POST", body: { front: { outer: { left: 60, right: 690, top: 55, bottom: 935 }, inner: { left: 100, right: 655, top: 88, bottom: 900 } } } },
  ],
  "GET /keys": [{ url: "/v1/keys", key: "own" }],
  "GET /billing": [{ url: "/v1/billing", key: "own" }, { url: "/v1/billing" }],
  // The roomy key's account has no subscription; `account` subscribes in beforeAll.
  "POST /billing/checkout": [{ url: "/v1/billing/checkout", method: "POST", body: { plan: "developer", interval: "year" } }],
  "POST /billing/webhook": [{
    url: "/v1/billing/webhook", method: "POST", body: unhandledEvent,
    headers: { "stripe-signature": Stripe.webhooks.generateTestHeaderString({ payload: JSON.stringify(unhandledEvent), secret: billing.secret }) },
  }],
  "GET /billing/invoices": [{ url: "/v1/billing/invoices", key: "own" }],
  "POST /billing/portal": [{ url: "/v1/billing/portal", method: "POST", key: "own" }],
  "POST /billing/subscription": [{ url: "/v1/billing/subscription", method: "POST", body: { plan: "growth", interval: "month" }, key: "own" }],
  "POST /billing/cancel": [{ url: "/v1/billing/cancel", method: "POST", body: { cancel_at_period_end: true }, key: "own" }],
  "POST /keys": [{ url: "/v1/keys", method: "POST", body: { name: "drift" }, key: "own" }],
  "DELETE /keys/{id}": [], // needs a key id of the account: tests/integration/keys.test.ts
  "POST /keys/{id}/rotate": [],
  "GET /admin/accounts/{account_id}": [{ url: `/v1/admin/accounts/${account.id}`, admin: true }],
  "POST /admin/accounts/{account_id}/confirm-email": [{ url: `/v1/admin/accounts/${account.id}/confirm-email`, method: "POST", admin: true }],
  "POST /admin/accounts/{account_id}/plan": [{ url: `/v1/admin/accounts/${account.id}/plan`, method: "POST", body: { plan: "growth" }, admin: true }],
  "POST /admin/accounts/{account_id}/trial": [{ url: `/v1/admin/accounts/${account.id}/trial`, method: "POST", body: { expires_at: "2030-01-01T00:00:00Z" }, admin: true }],
  "POST /admin/accounts/{account_id}/credits": [{ url: `/v1/admin/accounts/${account.id}/credits`, method: "POST", body: { used: 3 }, admin: true }],
  "POST /admin/accounts/{account_id}/flags": [{ url: `/v1/admin/accounts/${account.id}/flags`, method: "POST", body: { legacy_paging: false }, admin: true }],
  "GET /admin/accounts/{account_id}/audit": [{ url: `/v1/admin/accounts/${account.id}/audit`, admin: true }],
});

beforeAll(async () => {
  process.env.ADMIN_TOKEN = ADMIN;
  account = await makeAccount();
  const checkout = await call("POST", "/v1/billing/checkout", {
    headers: { "x-api-key": account.key, "content-type": "application/json" }, body: JSON.stringify({ plan: "developer", interval: "month" }),
  });
  billing.fake.completeCheckout(sessionIdOf((await checkout.json()).data.url));
  await billing.fake.deliverAll();
});
afterAll(() => {
  delete process.env.ADMIN_TOKEN;
});

describe("answers match the schemas the OpenAPI document is generated from", () => {
  const specs = routeSpecs();

  it("has samples for every route", () => {
    expect(specs.map((s) => `${s.method} ${s.path}`).sort()).toEqual(Object.keys(SAMPLES()).sort());
  });

  for (const spec of specs) {
    it(`${spec.method} ${spec.path}`, async () => {
      for (const s of SAMPLES()[`${spec.method} ${spec.path}`] ?? []) {
        const headers: Record<string, string> = { ...s.headers };
        if (s.body !== undefined) headers["content-type"] = "application/json";
        if (s.admin) headers.authorization = `Bearer ${ADMIN}`;
        if (s.key === "own") headers["x-api-key"] = account.key;
        const body0 = s.form ? await s.form() : s.body === undefined ? undefined : JSON.stringify(s.body);
        const res = await call(s.method ?? "GET", s.url, { headers, body: body0, anonymous: s.admin });
        const body = await res.json();
        expect(res.status, `${s.url}: ${JSON.stringify(body).slice(0, 300)}`).toBe(spec.successStatus ?? 200);
        const parsed = spec.response.safeParse(body);
        expect(parsed.success, `${s.url}: ${parsed.error?.issues.slice(0, 3).map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`).toBe(true);
      }
    });
  }
});
