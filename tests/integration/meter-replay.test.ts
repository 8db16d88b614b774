import { beforeAll, describe, expect, it } from "vitest";
import { createKey } from "@/lib/accounts/keys";
import { buildBulk } from "@/lib/bulk/build";
import { cardScan, imageForm } from "../helpers/images";
import { progress } from "@/lib/jobs/progress";
import { call, getJson } from "../helpers/api";
import { makeAccount, type TestAccount } from "../helpers/accounts";
import { useFakeStripe } from "../helpers/billing";
import {
  as, DAY_MS, expectNoMeterHeaders, expectPaidMeterHeaders, expectRefusal, expectTrialExpiryHeader, expectTrialMeterHeaders,
  int, isoDaysFromNow, parse, setCreditsUsed, setPlan, setTrialExpiry, SPEC_FIGURES, unknownKey, useAdminToken, type Answer,
} from "../helpers/meter";

// The shared replay of issue 3: every keyed route of the OpenAPI document, under no key, an
// unknown key, the Bearer alias, an expired trial, a spent quota (trial and paid) and a burst.
// Routes that cost credits and the zero-cost routes of SPEC.md Authentication 7 differ where
// SPEC.md says they do: expiry and spent credits refuse the first and never the second.

useAdminToken();

/** minPlan: the route's minimum plan (x-min-plan) where the trial cannot call it at all (x-trial none). */
type Op = { method: string; template: string; requiredQuery: string[]; hasBody: boolean; zeroCost: boolean; minPlan?: string; example?: unknown; upload?: boolean };

/** SPEC.md Authentication 7 (and CONTRACT.md §4): GET /v1/me, /v1/me/usage (and the request log beside it), the key routes, billing checkout; the resend of the confirmation mail and the other billing routes are 0 credits too. */
const ZERO_COST = /^\/v1\/(me|me\/usage|me\/requests|keys|keys\/\{id\}|keys\/\{id\}\/rotate|billing|billing\/(checkout|invoices|portal|subscription|cancel)|accounts\/confirmation)$/;
/** Routes acting on a subscription: an account without one is answered 404 SUBSCRIPTION_NOT_FOUND, past every gate, at no cost. */
const NEEDS_SUBSCRIPTION = /^\/v1\/billing\/(subscription|cancel)$/;

// The billing routes call Stripe: the local fake stands in for it.
useFakeStripe();

const doc = await (await call("GET", "/v1/openapi.json", { anonymous: true })).json();
const operatorRoutes: string[] = [];
const OPS: Op[] = [];
for (const [template, methods] of Object.entries<Record<string, any>>(doc.paths)) {
  for (const [method, op] of Object.entries<any>(methods)) {
    const security: Record<string, unknown>[] = op.security ?? [];
    if (security.some((s) => "AdminToken" in s)) operatorRoutes.push(`${method} ${template}`);
    if (!security.some((s) => "ApiKey" in s)) continue;
    OPS.push({
      method: method.toUpperCase(), template,
      requiredQuery: (op.parameters ?? []).filter((p: any) => p.in === "query" && p.required).map((p: any) => p.name),
      hasBody: !!op.requestBody, zeroCost: ZERO_COST.test(template), minPlan: op["x-trial"] === "none" ? op["x-min-plan"] : undefined,
      // A body the route accepts: the example its document gives, else an empty object.
      example: op.requestBody?.content?.["application/json"]?.schema?.example,
      // A photo route: a scanned card face as multipart/form-data.
      upload: !!op.requestBody?.content?.["multipart/form-data"],
    });
  }
}

// Real values for path parameters, from the imported catalogue.
const sample = { card: "", card2: "", set: "", artist: "", sealed: "" };

async function concrete(op: Op, account: TestAccount): Promise<string> {
  let path = op.template;
  for (const m of op.template.matchAll(/\/(\w+)\/\{(\w+)\}/g)) {
    const [, collection, name] = m as unknown as [string, string, string];
    let value: string;
    switch (collection) {
      case "cards": value = sample.card; break;
      case "sets": value = sample.set; break;
      case "artists": value = sample.artist; break;
      case "sealed": value = sample.sealed; break;
      case "bulk": value = "sets"; break;
      // A key of the account's own, other than the one calling: rotating or deleting it leaves the caller working.
      case "keys": value = (await createKey(account.id, "replay")).id; break;
      default: throw new Error(`no real value for {${name}} of ${op.template}: teach the replay this route`);
    }
    path = path.replace(`{${name}}`, encodeURIComponent(value));
  }
  const query = op.requiredQuery.map((name) => {
    if (name === "ids") return `ids=${sample.card},${sample.card2}`;
    throw new Error(`no value for required query parameter '${name}' of ${op.template}`);
  });
  return query.length ? `${path}?${query.join("&")}` : path;
}

async function send(op: Op, account: TestAccount, headers: Record<string, string>): Promise<Answer> {
  const path = await concrete(op, account);
  if (op.upload) return parse(await call(op.method, path, { headers, body: imageForm(scan) }));
  const h = { ...headers, ...(op.hasBody ? { "content-type": "application/json" } : {}) };
  return parse(await call(op.method, path, { headers: h, body: op.hasBody ? JSON.stringify(op.example ?? {}) : undefined }));
}
const withKey = (op: Op, a: TestAccount) => send(op, a, { "x-api-key": a.key });

function expectServed(a: Answer, op: Op): void {
  if (NEEDS_SUBSCRIPTION.test(op.template) && a.status === 404) {
    expect(a.body.error.code).toBe("SUBSCRIPTION_NOT_FOUND");
    expect(a.h("x-credits-cost")).toBe("0");
    return;
  }
  expect(a.status, JSON.stringify(a.body)).toBeGreaterThanOrEqual(200);
  expect(a.status).toBeLessThan(300);
  if (op.zeroCost) expect(a.h("x-credits-cost")).toBe("0");
  else expect(int(a, "x-credits-cost")).toBeGreaterThan(0);
}

// Accounts whose state the refusals must leave alone: shared by every route of a case.
let bystander: TestAccount;
let expired: TestAccount;
let spentTrial: TestAccount;
let spentPaidFuture: TestAccount;
let spentPaidPast: TestAccount;
const expiredAt = new Date(Date.now() - DAY_MS).toISOString();
const futureReset = isoDaysFromNow(3);
const pastReset = new Date(Date.now() - DAY_MS).toISOString();

let scan: Buffer;

beforeAll(async () => {
  scan = await cardScan();
  // A bulk file to download: the sets file.
  await buildBulk(progress("test", { quiet: true }), ["sets"]);
  const cards = (await getJson("/v1/cards?limit=2&select=name")).body.data;
  sample.card = cards[0].id;
  sample.card2 = cards[1].id;
  sample.set = (await getJson("/v1/sets?limit=1")).body.data[0].code;
  sample.artist = (await getJson("/v1/artists?limit=1")).body.data[0].slug;
  sample.sealed = (await getJson("/v1/sealed?limit=1")).body.data[0].id;

  [bystander, expired, spentTrial, spentPaidFuture, spentPaidPast] = await Promise.all([
    makeAccount({ confirmed: true }), makeAccount({ confirmed: true }), makeAccount({ confirmed: true }),
    makeAccount({ confirmed: true }), makeAccount({ confirmed: true }),
  ]);
  await setTrialExpiry(expired.id, expiredAt);
  await setCreditsUsed(spentTrial.id, SPEC_FIGURES.trial.credits);
  // Growth, so that the plan-gated routes (movers) reach the meter too.
  await setPlan(spentPaidFuture.id, "growth", futureReset);
  await setCreditsUsed(spentPaidFuture.id, SPEC_FIGURES.growth.credits);
  await setPlan(spentPaidPast.id, "growth", pastReset);
  await setCreditsUsed(spentPaidPast.id, SPEC_FIGURES.growth.credits);
});

it("replays every keyed route of the OpenAPI document and no operator route", () => {
  const names = OPS.map((o) => `${o.method} ${o.template}`);
  for (const r of ["GET /v1/cards", "GET /v1/cards/{id}", "GET /v1/cards/batch", "GET /v1/sets/{code}/cards", "GET /v1/me", "GET /v1/me/usage", "GET /v1/keys", "POST /v1/keys"]) {
    expect(names).toContain(r);
  }
  expect(operatorRoutes.length).toBeGreaterThan(0);
  for (const r of operatorRoutes) expect(names).not.toContain(r.toUpperCase());
  expect(OPS.every((o) => !o.template.startsWith("/v1/admin/"))).toBe(true);
  // Both kinds are replayed: credited routes and SPEC.md's zero-cost ones.
  expect(OPS.filter((o) => o.zeroCost).length).toBeGreaterThan(0);
  expect(OPS.filter((o) => !o.zeroCost).length).toBeGreaterThan(0);
});

describe.each(OPS)("$method $template", (op) => {
  it("without a key: 401 MISSING_API_KEY, refunded, before the meter", async () => {
    const noKey: Record<string, string>[] = [{}, { "x-api-key": "" }, { authorization: `Basic ${Buffer.from("a:b").toString("base64")}` }];
    for (const headers of noKey) {
      const path = await concrete(op, bystander);
      const a = await parse(await call(op.method, path, {
        anonymous: true, headers, body: op.upload ? imageForm(scan) : op.hasBody ? JSON.stringify(op.example ?? {}) : undefined,
      }));
      expectRefusal(a, 401, "MISSING_API_KEY");
      expectNoMeterHeaders(a);
      expect(a.h("x-trial-expires-at")).toBeNull();
    }
  });

  it("with an unknown key (header or bearer): 401 INVALID_API_KEY", async () => {
    const unknown: Record<string, string>[] = [{ "x-api-key": unknownKey() }, { authorization: `Bearer ${unknownKey()}` }];
    for (const headers of unknown) {
      const a = await send(op, bystander, headers);
      expectRefusal(a, 401, "INVALID_API_KEY");
      expectNoMeterHeaders(a);
    }
  });

  it("Authorization: Bearer <key> answers as X-Api-Key does, on the same account", async () => {
    // A plan-gated route is called with its minimum plan; every other with a trial key.
    const acct = op.minPlan ? await makeAccount({ plan: op.minPlan as "growth", confirmed: true }) : await makeAccount({ confirmed: true });
    const header = await withKey(op, acct);
    const sent = performance.now();
    const bearer = await send(op, acct, { authorization: `Bearer ${acct.key}` });
    const seconds = (performance.now() - sent) / 1000;
    for (const a of [header, bearer]) {
      expectServed(a, op);
      if (op.minPlan) expectPaidMeterHeaders(a, SPEC_FIGURES.growth);
      else expectTrialMeterHeaders(a);
    }
    expect(bearer.status).toBe(header.status);
    expect(bearer.h("x-credits-cost")).toBe(header.h("x-credits-cost"));
    // One account: the second call's balance is the first's minus its own charge.
    expect(int(bearer, "x-quota-remaining")).toBe(int(header, "x-quota-remaining") - int(bearer, "x-credits-cost"));
    // Growth refills 80 tokens a second: between two calls the bucket may be whole again.
    if (op.minPlan) expect(int(bearer, "ratelimit-remaining")).toBeLessThanOrEqual(int(header, "ratelimit-remaining"));
    // The trial refills 5 a second: a slow route (a photo searched) may get back what it took.
    else expect(int(bearer, "ratelimit-remaining")).toBeLessThanOrEqual(int(header, "ratelimit-remaining") - 1 + Math.ceil(seconds * SPEC_FIGURES.trial.rate));
    if (header.h("etag")) {
      // A live list (GET /v1/changes) may move between the two calls while other files write
      // prices: the bearer's answer is then the one the key gets next.
      const same = bearer.h("etag") === header.h("etag") ? header : await withKey(op, acct);
      expect(bearer.h("etag")).toBe(same.h("etag"));
      expect(bearer.body).toEqual(same.body);
    }
  });

  if (op.zeroCost) {
    it("expired trial: still answers (SPEC.md Authentication 7)", async () => {
      const a = await withKey(op, expired);
      expectServed(a, op);
      expectTrialMeterHeaders(a);
    });

    it("spent credits, trial or paid: still answers, at no cost", async () => {
      const trial = await withKey(op, spentTrial);
      expectServed(trial, op);
      expectTrialMeterHeaders(trial);
      expect(trial.h("x-quota-remaining")).toBe("0");
      for (const acct of [spentPaidFuture, spentPaidPast]) {
        const paid = await withKey(op, acct);
        expectServed(paid, op);
        expectPaidMeterHeaders(paid, SPEC_FIGURES.growth);
        expect(paid.h("x-quota-remaining")).toBe("0");
      }
    });
  } else {
    it("expired trial: 403 TRIAL_EXPIRED before any credit is reserved, no Retry-After, no quota or rate headers", async () => {
      const a = await withKey(op, expired);
      const d = expectRefusal(a, 403, "TRIAL_EXPIRED");
      expect(d.trial_expired_at).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(d.trial_expired_at).toBe(expiredAt.slice(0, 10));
      expect(d.trial_days).toBe(SPEC_FIGURES.trial.days);
      expect(d.plan).toBe("trial");
      expect(typeof d.next_step?.action).toBe("string");
      expectNoMeterHeaders(a);
      // Still a response on a trial key (SPEC.md Limits).
      expectTrialExpiryHeader(a);
    });

    if (op.minPlan) {
      it("a trial on a plan-gated route: 403 PLAN_REQUIRED, nothing reserved", async () => {
        const a = await withKey(op, spentTrial);
        const d = expectRefusal(a, 403, "PLAN_REQUIRED");
        expect(d.plan_required).toBe(op.minPlan);
        expect(a.h("x-credits-cost")).toBe("0");
        expect(typeof d.next_step?.action).toBe("string");
      });
    }

    it.skipIf(!!op.minPlan)("spent trial: 429 QUOTA_EXCEEDED, renews false, neither Retry-After nor RateLimit-Reset", async () => {
      const a = await withKey(op, spentTrial);
      const d = expectRefusal(a, 429, "QUOTA_EXCEEDED");
      expect(d.renews).toBe(false);
      expect(d).not.toHaveProperty("retry_after_s");
      expect(typeof d.next_step?.action).toBe("string");
      expect(a.h("retry-after")).toBeNull();
      expect(a.h("ratelimit-reset")).toBeNull();
      expectTrialMeterHeaders(a);
      expect(a.h("x-quota-remaining")).toBe("0");
    });

    it("spent paid plan with a future reset: renews true, resets_at, Retry-After = RateLimit-Reset = seconds to the reset", async () => {
      const before = Date.now();
      const a = await withKey(op, spentPaidFuture);
      const d = expectRefusal(a, 429, "QUOTA_EXCEEDED");
      expect(d.renews).toBe(true);
      expect(Date.parse(d.resets_at)).toBe(Date.parse(futureReset));
      expect(d).not.toHaveProperty("retry_after_s");
      const secs = (Date.parse(futureReset) - before) / 1000;
      expect(int(a, "retry-after")).toBeGreaterThanOrEqual(Math.floor(secs) - 5);
      expect(int(a, "retry-after")).toBeLessThanOrEqual(Math.ceil(secs));
      expect(a.h("ratelimit-reset")).toBe(a.h("retry-after"));
      expect(Date.parse(a.h("x-quota-reset")!)).toBe(Date.parse(futureReset));
      expectPaidMeterHeaders(a, SPEC_FIGURES.growth);
      expect(a.h("x-quota-remaining")).toBe("0");
    });

    it("spent paid plan with a past reset: renews true, Retry-After and RateLimit-Reset omitted", async () => {
      const a = await withKey(op, spentPaidPast);
      const d = expectRefusal(a, 429, "QUOTA_EXCEEDED");
      expect(d.renews).toBe(true);
      expect(a.h("retry-after")).toBeNull();
      expect(a.h("ratelimit-reset")).toBeNull();
      expectPaidMeterHeaders(a, SPEC_FIGURES.growth);
    });
  }

  // A trial never reaches a plan-gated route's meter (PLAN_REQUIRED above): no burst to replay there.
  it.skipIf(!!op.minPlan)("a burst on a trial: after the bucket's 10, 429 RATE_LIMITED with Retry-After, reserving no credits", async () => {
    const acct = await makeAccount({ confirmed: true });
    // Rate is per account: non-GET routes are reached after ten calls of another route.
    const burner: Op = op.method === "GET" ? op : { method: "GET", template: "/v1/me", requiredQuery: [], hasBody: false, zeroCost: true };
    if (op.method === "GET") await send(op, bystander, { "x-api-key": bystander.key }); // warm the route outside the burst
    const started = Date.now();
    let served = 0;
    let last: Answer | undefined;
    let refused: Answer | undefined;
    for (let i = 0; i < 30 && !refused; i++) {
      const a = await withKey(served < SPEC_FIGURES.trial.burst ? burner : op, acct);
      if (a.status === 429) refused = a;
      else {
        expectServed(a, burner);
        expectTrialMeterHeaders(a);
        served++;
        last = a;
      }
    }
    const elapsed = Date.now() - started;
    // Ten at once; more only for what the pace refilled during the burst itself (5 per second).
    expect(served).toBeGreaterThanOrEqual(SPEC_FIGURES.trial.burst);
    expect(served).toBeLessThanOrEqual(SPEC_FIGURES.trial.burst + Math.floor((elapsed * SPEC_FIGURES.trial.rate) / 1000));
    const d = expectRefusal(refused!, 429, "RATE_LIMITED");
    expect(int(refused!, "retry-after")).toBeGreaterThanOrEqual(1);
    expect(d).toBeTypeOf("object");
    expectTrialMeterHeaders(refused!);
    expect(refused!.h("ratelimit-remaining")).toBe("0");
    expect(refused!.h("x-quota-remaining")).toBe(last!.h("x-quota-remaining"));
  });
});

describe("the refusals left the accounts as they were", () => {
  it("no credit was reserved by TRIAL_EXPIRED or QUOTA_EXCEEDED", async () => {
    const used = async (a: TestAccount) => (await as(a.key, "GET", "/v1/me")).body.data.quota.credits_used;
    expect(await used(expired)).toBe(0);
    expect(await used(spentTrial)).toBe(SPEC_FIGURES.trial.credits);
    expect(await used(spentPaidFuture)).toBe(SPEC_FIGURES.growth.credits);
    expect(await used(spentPaidPast)).toBe(SPEC_FIGURES.growth.credits);
  });
});
