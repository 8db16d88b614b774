import { createHash, randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { call } from "../helpers/api";
import { CLIENT_IP_HEADER } from "@/lib/api/client-ip";
import { makeAccount } from "../helpers/accounts";
import { query, queryOne } from "../helpers/db";
import { expectEnvelope } from "../helpers/expect";
import {
  as, DAY_MS, expectRefusal, int, isoDaysFromNow, operator, paced, parse, secondsToMidnightUtc, setCreditsUsed,
  setPlan, setTrialExpiry, SPEC_FIGURES, useAdminToken, type Answer,
} from "../helpers/meter";

// Script signup (CONTRACT.md §2), the trial's states (SPEC.md States and transitions), the
// daily cap, and the operator routes with their audit log (CONTRACT.md §6).

const ADMIN_TOKEN = useAdminToken();
afterEach(() => {
  process.env.ADMIN_TOKEN = ADMIN_TOKEN;
});

// Signup is limited per address (10 an hour): every call here comes from an address of its own.
let ipSeq = 0;
const freshIp = () => `10.77.${(++ipSeq >> 8) & 255}.${ipSeq & 255}`;
const newEmail = () => `script-${randomUUID()}@example.com`;

async function signup(body: unknown, opts: { idempotencyKey?: string | null; ip?: string } = {}): Promise<Answer> {
  const headers: Record<string, string> = { "content-type": "application/json", [CLIENT_IP_HEADER]: opts.ip ?? freshIp() };
  if (opts.idempotencyKey !== null) headers["idempotency-key"] = opts.idempotencyKey ?? randomUUID();
  return parse(await call("POST", "/v1/accounts/free", { anonymous: true, headers, body: JSON.stringify(body) }));
}

/** The token of the newest confirmation mail in the outbox for that address. */
async function confirmationToken(email: string): Promise<string> {
  const row = await queryOne<{ text_body: string }>(
    "select text_body from email_outbox where lower(to_address) = lower($1) and kind = 'confirm_email' order by id desc limit 1", [email]);
  const m = /[?&]token=([A-Za-z0-9_-]+)/.exec(row.text_body);
  if (!m) throw new Error(`no token in the confirmation mail: ${row.text_body}`);
  return m[1]!;
}

const confirm = async (token: string) =>
  parse(await call("POST", "/v1/accounts/confirm", { anonymous: true, headers: { "content-type": "application/json" }, body: JSON.stringify({ token }) }));

describe("POST /v1/accounts/free", () => {
  it("needs no key, but an Idempotency-Key: without one, 400 INVALID_PARAMETER", async () => {
    const a = await signup({ email: newEmail() }, { idempotencyKey: null });
    expect(a.status).toBe(400);
    expect(expectEnvelope(a.res, a.body).code).toBe("INVALID_PARAMETER");
  });

  it.each(["not-an-address", "two@@example.com", "", "a@b", "x@bad-.example", "x@-bad.example"])("a malformed address (%j) is 400 INVALID_PARAMETER", async (email) => {
    const a = await signup({ email });
    expect(a.status).toBe(400);
    expect(expectEnvelope(a.res, a.body).code).toBe("INVALID_PARAMETER");
  });

  it("201 with CONTRACT.md §2's shape; the key works at once", async () => {
    const email = newEmail();
    const before = Date.now();
    const a = await signup({ email });
    expect(a.status).toBe(201);
    expect(Object.keys(a.body)).toEqual(["data"]);
    const d = a.body.data;
    expect(Object.keys(d).sort()).toEqual(["account_id", "api_key", "email_confirmed", "next_step", "plan", "trial_expires_at"]);
    expect(d).toMatchObject({ plan: "trial", email_confirmed: false });
    expect(typeof d.account_id).toBe("string");
    expect(typeof d.api_key).toBe("string");
    expect(d.next_step.action).toBe("confirm_email");
    expect(typeof d.next_step.message).toBe("string");
    // 30 days from signup (SPEC.md Limits).
    const expires = Date.parse(d.trial_expires_at);
    expect(expires).toBeGreaterThanOrEqual(before + SPEC_FIGURES.trial.days * DAY_MS - 1000);
    expect(expires).toBeLessThanOrEqual(Date.now() + SPEC_FIGURES.trial.days * DAY_MS + 1000);

    const me = await as(d.api_key, "GET", "/v1/me");
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({ account_id: d.account_id, email, email_confirmed: false, plan: "trial" });
    const cards = await as(d.api_key, "GET", "/v1/sets?limit=1");
    expect(cards.status).toBe(200);
    expect(cards.h("x-trial-expires-at")).toBe(d.trial_expires_at);
  });

  it("every response on a trial key carries X-Trial-Expires-At: refusals before the key is read, public routes, 404 and 405 too", async () => {
    const trial = await makeAccount();
    const growth = await makeAccount({ plan: "growth", confirmed: true });
    const expires = (await as(trial.key, "GET", "/v1/me")).body.data.quota.trial_expires_at;
    expect(typeof expires).toBe("string");
    const calls: [string, string, number][] = [
      ["GET", "/v1/sets?limit=abc", 400], ["GET", "/v1/cards?bogus=1", 400], ["GET", "/v1/cards/base1-4/prices?source=nope", 400],
      ["GET", "/v1/reference", 200], ["GET", "/v1/status", 200], ["GET", "/v1/prices/sources", 200],
      ["GET", "/v1/no-such-route", 404], ["DELETE", "/v1/sets", 405], ["GET", "/v1/cards/no-such-card", 404],
    ];
    for (const [method, path, status] of calls) {
      const a = await as(trial.key, method, path);
      expect(a.status, path).toBe(status);
      expect(a.h("x-trial-expires-at"), path).toBe(expires);
      const paid = await as(growth.key, method, path);
      expect(paid.status, path).toBe(status);
      expect(paid.h("x-trial-expires-at"), path).toBeNull();
    }
    // A key that matches nothing is refused before the query is read, with no trial's header.
    const unknown = await as("pk_live_not_a_key_at_all_000000", "GET", "/v1/sets?limit=abc");
    expect(unknown.status).toBe(401);
    expect(expectEnvelope(unknown.res, unknown.body).code).toBe("INVALID_API_KEY");
    expect(unknown.h("x-trial-expires-at")).toBeNull();
  });

  it("the same Idempotency-Key and body replay the identical answer: same key, same account", async () => {
    const key = randomUUID();
    const body = { email: newEmail() };
    const first = await signup(body, { idempotencyKey: key });
    const again = await signup(body, { idempotencyKey: key });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    // Identical to the letter, the fields' order included.
    expect(JSON.stringify(again.body)).toBe(JSON.stringify(first.body));
    expect(await query("select id from accounts where lower(email) = lower($1)", [body.email])).toHaveLength(1);
    expect((await as(again.body.data.api_key, "GET", "/v1/me")).body.data.account_id).toBe(first.body.data.account_id);
  });

  it("the same Idempotency-Key and body sent at once: each gets the identical answer, one account (not 409 while the first is at work)", async () => {
    const key = randomUUID();
    const body = { email: newEmail() };
    const answers = await Promise.all([1, 2, 3].map(() => signup(body, { idempotencyKey: key })));
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201]);
    for (const a of answers.slice(1)) expect(JSON.stringify(a.body)).toBe(JSON.stringify(answers[0]!.body));
    expect(await query("select id from accounts where lower(email) = lower($1)", [body.email])).toHaveLength(1);
  });

  it("the same Idempotency-Key with another body is 409 IDEMPOTENCY_CONFLICT, and creates nothing", async () => {
    const key = randomUUID();
    const first = await signup({ email: newEmail() }, { idempotencyKey: key });
    expect(first.status).toBe(201);
    const other = newEmail();
    const a = await signup({ email: other }, { idempotencyKey: key });
    expect(a.status).toBe(409);
    expect(expectEnvelope(a.res, a.body).code).toBe("IDEMPOTENCY_CONFLICT");
    expect(await query("select id from accounts where lower(email) = lower($1)", [other])).toHaveLength(0);
  });

  it.each(["first-try", "x".repeat(15)])("an Idempotency-Key shorter than 16 characters (%j) is 400 INVALID_PARAMETER", async (key) => {
    const a = await signup({ email: newEmail() }, { idempotencyKey: key });
    expect(a.status).toBe(400);
    expect(expectEnvelope(a.res, a.body)).toMatchObject({ code: "INVALID_PARAMETER", details: { header: "idempotency-key" } });
  });

  it("the stored answer never holds the API key in plain text; the replay still returns it", async () => {
    const key = randomUUID();
    const body = { email: newEmail() };
    const first = await signup(body, { idempotencyKey: key });
    expect(first.status).toBe(201);
    const secret = first.body.data.api_key as string;
    const [row] = await query<{ response: unknown; secret_enc: string }>("select response, secret_enc from idempotency_keys where key = $1", [key]);
    expect(JSON.stringify(row)).not.toContain(secret);
    expect(JSON.stringify(row)).not.toContain(secret.slice(9, 25));
    expect(row!.secret_enc).toMatch(/^v1\./);
    expect((await signup(body, { idempotencyKey: key })).body.data.api_key).toBe(secret);
    // A sealed secret that was altered is refused, not decrypted into garbage.
    // The tag's first character: every one of its bits is data (a base64 string's last character
    // may carry only padding bits, which decoders ignore, so altering it proves nothing).
    await query(
      `update idempotency_keys set secret_enc = 'v1.' || split_part(secret_enc, '.', 2) || '.'
         || (case when left(split_part(secret_enc, '.', 3), 1) = 'A' then 'B' else 'A' end)
         || substr(split_part(secret_enc, '.', 3), 2) || '.' || split_part(secret_enc, '.', 4)
       where key = $1`,
      [key],
    );
    const tampered = await signup(body, { idempotencyKey: key });
    expect(tampered.status).toBe(409);
    expect(JSON.stringify(tampered.body)).not.toContain("ppk_live_");
  });

  it("records past their 24 hours are purged, not only when their own key comes back", async () => {
    const old = randomUUID();
    expect((await signup({ email: newEmail() }, { idempotencyKey: old })).status).toBe(201);
    await query("update idempotency_keys set expires_at = now() - interval '1 second' where key = $1", [old]);
    expect((await signup({ email: newEmail() })).status).toBe(201);
    expect(await query("select 1 from idempotency_keys where key = $1", [old])).toHaveLength(0);
  });

  it("an Idempotency-Key is forgotten after its 24 hours: the same key may then sign up another address", async () => {
    const key = randomUUID();
    expect((await signup({ email: newEmail() }, { idempotencyKey: key })).status).toBe(201);
    await query("update idempotency_keys set expires_at = now() - interval '1 second' where key = $1", [key]);
    expect((await signup({ email: newEmail() }, { idempotencyKey: key })).status).toBe(201);
  });

  it("an address that has an account: 409 ACCOUNT_EXISTS, whatever its case, and never that account's key", async () => {
    const email = newEmail();
    const first = await signup({ email });
    expect(first.status).toBe(201);
    for (const again of [email, email.toUpperCase()]) {
      const a = await signup({ email: again });
      expect(a.status).toBe(409);
      expect(expectEnvelope(a.res, a.body).code).toBe("ACCOUNT_EXISTS");
      const text = JSON.stringify(a.body);
      expect(text).not.toContain(first.body.data.api_key);
      expect(text).not.toMatch(/ppk_live_/);
      expect(text).not.toContain(first.body.data.account_id);
    }
  });
  it("an Idempotency-Key whose first request met an existing address keeps that answer: replayed for the same body, IDEMPOTENCY_CONFLICT for another", async () => {
    const email = newEmail();
    expect((await signup({ email })).status).toBe(201);
    const key = randomUUID();
    const first = await signup({ email }, { idempotencyKey: key });
    expect(expectEnvelope(first.res, first.body).code).toBe("ACCOUNT_EXISTS");
    // Another body under the key: before, only a 201 was kept, and this made a second account.
    const other = newEmail();
    const conflict = await signup({ email: other }, { idempotencyKey: key });
    expect(conflict.status).toBe(409);
    expect(expectEnvelope(conflict.res, conflict.body).code).toBe("IDEMPOTENCY_CONFLICT");
    expect(await query("select 1 from accounts where lower(email) = lower($1)", [other])).toHaveLength(0);
    const again = await signup({ email }, { idempotencyKey: key });
    const e = expectEnvelope(again.res, again.body);
    expect([again.status, e.code, e.message, e.details]).toEqual([409, "ACCOUNT_EXISTS", first.body.error.message, first.body.error.details]);
  });
});

describe("the unconfirmed trial and its confirmation", () => {
  it("has 50 credits; spending them is 429 QUOTA_EXCEEDED, renews false, next step: confirm the email", async () => {
    const s = await signup({ email: newEmail() });
    const key = s.body.data.api_key;
    const limit = SPEC_FIGURES.trial.unconfirmedCredits;
    // 40 + 5 + 5 (SPEC.md cost rules: include=prices is 4 per 25 rows; a list of 250 is 5).
    const spend = ["/v1/cards?limit=250&include=prices", "/v1/cards?limit=250", "/v1/cards?limit=250"];
    let remaining = limit;
    for (const path of spend) {
      const a = await as(key, "GET", path);
      expect(a.status).toBe(200);
      expect(a.h("x-quota-limit")).toBe(String(limit));
      remaining -= int(a, "x-credits-cost");
      expect(int(a, "x-quota-remaining")).toBe(remaining);
    }
    expect(remaining).toBe(0);
    const a = await as(key, "GET", "/v1/sets");
    const d = expectRefusal(a, 429, "QUOTA_EXCEEDED");
    expect(d.renews).toBe(false);
    expect(d.next_step.action).toBe("confirm_email");
    expect(d).not.toHaveProperty("retry_after_s");
    expect(a.h("retry-after")).toBeNull();
    expect(a.h("ratelimit-reset")).toBeNull();
    expect(a.h("x-quota-remaining")).toBe("0");
  });

  it("the token of the outbox mail confirms: the full 800, with the credits already spent counted", async () => {
    const email = newEmail();
    const s = await signup({ email });
    const key = s.body.data.api_key;
    const spent = await as(key, "GET", "/v1/cards?limit=250&include=prices");
    const cost = int(spent, "x-credits-cost");

    const c = await confirm(await confirmationToken(email));
    expect(c.status).toBe(200);
    expect(c.body.data).toEqual({ account_id: s.body.data.account_id, email, email_confirmed: true });

    const after = await as(key, "GET", "/v1/sets");
    expect(after.status).toBe(200);
    expect(after.h("x-quota-limit")).toBe(String(SPEC_FIGURES.trial.credits));
    expect(int(after, "x-quota-remaining")).toBe(SPEC_FIGURES.trial.credits - cost - int(after, "x-credits-cost"));
    const me = (await as(key, "GET", "/v1/me")).body.data;
    expect(me.email_confirmed).toBe(true);
    expect(me.quota.credits_limit).toBe(SPEC_FIGURES.trial.credits);
    expect(me.quota.credits_used).toBe(cost + int(after, "x-credits-cost"));
  });

  it("confirming lifts a spent 50: the next call is served", async () => {
    const email = newEmail();
    const s = await signup({ email });
    await setCreditsUsed(s.body.data.account_id, SPEC_FIGURES.trial.unconfirmedCredits);
    expectRefusal(await as(s.body.data.api_key, "GET", "/v1/sets"), 429, "QUOTA_EXCEEDED");
    expect((await confirm(await confirmationToken(email))).status).toBe(200);
    const a = await as(s.body.data.api_key, "GET", "/v1/sets");
    expect(a.status).toBe(200);
    expect(int(a, "x-quota-remaining")).toBe(SPEC_FIGURES.trial.credits - SPEC_FIGURES.trial.unconfirmedCredits - int(a, "x-credits-cost"));
  });

  it("a token works once", async () => {
    const email = newEmail();
    await signup({ email });
    const token = await confirmationToken(email);
    expect((await confirm(token)).status).toBe(200);
    const again = await confirm(token);
    expect(again.status).toBe(400);
    expect(expectEnvelope(again.res, again.body).code).toBe("INVALID_PARAMETER");
    expect(again.body.error.details.reason).toBe("used");
  });

  it("an expired token fails and leaves the address unconfirmed; an unknown token fails", async () => {
    const email = newEmail();
    const s = await signup({ email });
    const token = await confirmationToken(email);
    await query("update email_tokens set expires_at = now() - interval '1 second' where account_id = $1", [s.body.data.account_id]);
    const a = await confirm(token);
    expect(a.status).toBe(400);
    expect(expectEnvelope(a.res, a.body).code).toBe("INVALID_PARAMETER");
    expect(a.body.error.details.reason).toBe("expired");
    expect((await as(s.body.data.api_key, "GET", "/v1/me")).body.data.email_confirmed).toBe(false);

    const unknown = await confirm(`${token.slice(0, -4)}zzzz`);
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details.reason).toBe("invalid");
  });
});

describe("the confirmed trial's daily cap", () => {
  it("400 credits a day: then 429 QUOTA_EXCEEDED with retry_after_s to midnight UTC, Retry-After and RateLimit-Reset", async () => {
    const acct = await makeAccount({ confirmed: true });
    // Ten calls of 40 credits (a list of 250 with include=prices) fit the burst of 10 and spend the cap.
    const path = "/v1/cards?limit=250&include=prices";
    let spent = 0;
    while (spent < SPEC_FIGURES.trial.dailyCap) {
      const a = await paced(() => as(acct.key, "GET", path));
      expect(a.status, JSON.stringify(a.body)).toBe(200);
      spent += int(a, "x-credits-cost");
    }
    expect(spent).toBe(SPEC_FIGURES.trial.dailyCap);

    const now = Date.now();
    const a = await paced(() => as(acct.key, "GET", "/v1/sets"));
    const d = expectRefusal(a, 429, "QUOTA_EXCEEDED");
    const toMidnight = secondsToMidnightUtc(now);
    expect(d.retry_after_s).toBeGreaterThanOrEqual(toMidnight - 5);
    expect(d.retry_after_s).toBeLessThanOrEqual(toMidnight);
    expect(a.h("retry-after")).toBe(String(d.retry_after_s));
    expect(a.h("ratelimit-reset")).toBe(String(d.retry_after_s));
    // The trial's 800 are not spent: it is the day's cap that refuses.
    expect(int(a, "x-quota-remaining")).toBe(SPEC_FIGURES.trial.credits - SPEC_FIGURES.trial.dailyCap);

    const me = (await paced(() => as(acct.key, "GET", "/v1/me"))).body.data;
    expect(me.quota).toMatchObject({ daily_cap: SPEC_FIGURES.trial.dailyCap, daily_used: SPEC_FIGURES.trial.dailyCap });
    expect(me.quota.credits_remaining).toBe(SPEC_FIGURES.trial.credits - SPEC_FIGURES.trial.dailyCap);
  });
});

describe("operator routes", () => {
  it("a plan change: the paid plan, the trial's expiry cleared, no X-Trial-Expires-At, the key unchanged", async () => {
    const acct = await makeAccount({ confirmed: true });
    await setTrialExpiry(acct.id, new Date(Date.now() - 60_000).toISOString());
    expectRefusal(await as(acct.key, "GET", "/v1/sets"), 403, "TRIAL_EXPIRED");
    const keysBefore = await query<{ id: string; hash: string }>("select id, hash from api_keys where account_id = $1 and revoked_at is null", [acct.id]);

    const resetsAt = isoDaysFromNow(30);
    await setPlan(acct.id, "developer", resetsAt);
    const a = await as(acct.key, "GET", "/v1/sets");
    expect(a.status).toBe(200);
    expect(a.h("x-trial-expires-at")).toBeNull();
    expect(a.h("x-quota-limit")).toBe(String(SPEC_FIGURES.developer.credits));
    expect(Date.parse(a.h("x-quota-reset")!)).toBe(Date.parse(resetsAt));
    const me = (await as(acct.key, "GET", "/v1/me")).body.data;
    expect(me.plan).toBe("developer");
    expect(me.quota).not.toHaveProperty("trial_expires_at");
    expect(me.quota).not.toHaveProperty("trial_expired");
    const row = await queryOne<{ trial_expires_at: string | null; plan: string }>("select trial_expires_at, plan from accounts where id = $1", [acct.id]);
    expect(row).toEqual({ trial_expires_at: null, plan: "developer" });
    expect(await query("select id, hash from api_keys where account_id = $1 and revoked_at is null", [acct.id])).toEqual(keysBefore);
  });

  it("a paid plan set back to the trial: the trial ends 30 days after signup again, and says so", async () => {
    const acct = await makeAccount({ confirmed: true });
    const { created } = (await queryOne<{ created: string }>("select created_at::text as created from accounts where id = $1", [acct.id]))!;
    const ends = Date.parse(created) + 30 * 86_400_000;
    await setPlan(acct.id, "growth");
    expect((await as(acct.key, "GET", "/v1/sets")).h("x-trial-expires-at")).toBeNull();
    await setPlan(acct.id, "trial");
    const a = await as(acct.key, "GET", "/v1/sets");
    expect(a.status).toBe(200);
    expect(Date.parse(a.h("x-trial-expires-at")!)).toBe(ends);
    const me = (await as(acct.key, "GET", "/v1/me")).body.data;
    expect(me.plan).toBe("trial");
    expect(Date.parse(me.quota.trial_expires_at)).toBe(ends);
    expect(me.quota.trial_expired).toBe(false);
    // Signed up more than 30 days ago: back on the trial, it is over.
    const old = await makeAccount({ confirmed: true });
    await query("update accounts set created_at = now() - interval '40 days' where id = $1", [old.id]);
    await setPlan(old.id, "growth");
    await setPlan(old.id, "trial");
    expectRefusal(await as(old.key, "GET", "/v1/sets"), 403, "TRIAL_EXPIRED");
  });

  it("the plan already held again moves only the period's end: what it spent stays spent (CONTRACT.md §6)", async () => {
    const acct = await makeAccount({ confirmed: true });
    await setPlan(acct.id, "developer", isoDaysFromNow(20));
    await setCreditsUsed(acct.id, 1234);
    const later = isoDaysFromNow(25);
    await setPlan(acct.id, "developer", later);
    const a = await as(acct.key, "GET", "/v1/sets");
    expect(Date.parse(a.h("x-quota-reset")!)).toBe(Date.parse(later));
    expect((await as(acct.key, "GET", "/v1/me")).body.data.quota).toMatchObject({ credits_used: 1234 + 1 });
    // Moved into the past, the spent period stays spent, with no reset to wait for (SPEC.md QUOTA_EXCEEDED details 2).
    await setCreditsUsed(acct.id, SPEC_FIGURES.developer.credits);
    await setPlan(acct.id, "developer", new Date(Date.now() - 60_000).toISOString());
    const spent = await as(acct.key, "GET", "/v1/sets");
    expectRefusal(spent, 429, "QUOTA_EXCEEDED");
    expect(spent.h("retry-after")).toBeNull();
    // Another plan is another period, begun now.
    await setPlan(acct.id, "growth", later);
    expect((await as(acct.key, "GET", "/v1/me")).body.data.quota).toMatchObject({ credits_used: 0 });
  });

  it("a negotiated credits_limit belongs to its plan: another plan without one gets its own credits", async () => {
    const acct = await makeAccount({ confirmed: true });
    await operator("POST", `/${acct.id}/plan`, { plan: "enterprise", credits_limit: 7 });
    expect((await as(acct.key, "GET", "/v1/me")).body.data.quota.credits_limit).toBe(7);
    // The same plan again keeps it; a change of plan drops it.
    await setPlan(acct.id, "enterprise");
    expect((await as(acct.key, "GET", "/v1/me")).body.data.quota.credits_limit).toBe(7);
    await setPlan(acct.id, "growth");
    expect((await as(acct.key, "GET", "/v1/me")).body.data.quota.credits_limit).toBe(SPEC_FIGURES.growth.credits);
    await operator("POST", `/${acct.id}/plan`, { plan: "professional", credits_limit: 5 });
    expect((await as(acct.key, "GET", "/v1/sets")).h("x-quota-limit")).toBe("5");
  });

  it("values the database cannot hold are 400 INVALID_PARAMETER, not 500", async () => {
    const acct = await makeAccount();
    for (const [path, body] of [
      ["plan", { plan: "enterprise", credits_limit: 2_147_483_648 }],
      ["plan", { plan: "developer", resets_at: "0000-01-01T00:00:00Z" }],
      ["plan", { plan: "developer", resets_at: "9999-12-31T23:59:59+23:59" }],
      ["trial", { expires_at: "0000-02-29T00:00:00Z" }],
      ["trial", { expires_at: "9999-12-31T23:59:59-23:59" }],
    ] as const) {
      const a = await parse(await call("POST", `/v1/admin/accounts/${acct.id}/${path}`, {
        anonymous: true, headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" }, body: JSON.stringify(body),
      }));
      expect(a.status, JSON.stringify(body)).toBe(400);
      expect(expectEnvelope(a.res, a.body).code).toBe("INVALID_PARAMETER");
    }
  });

  it("every action is in the audit log: who, what, when", async () => {
    const acct = await makeAccount();
    const started = await queryOne<{ now: Date }>("select now() as now");
    await operator("POST", `/${acct.id}/confirm-email`);
    await setTrialExpiry(acct.id, isoDaysFromNow(10));
    await setCreditsUsed(acct.id, 7);
    await setPlan(acct.id, "growth");
    await operator("GET", `/${acct.id}`);
    const rows = await query<{ actor: string; action: string; at: Date; details: any }>(
      "select actor, action, at, details from audit_log where account_id = $1 order by id", [acct.id]);
    expect(rows.map((r) => r.action)).toEqual(["confirm_email", "set_trial_expiry", "set_credits_used", "set_plan"]);
    // Who is the token that proved the right (its fingerprint); X-Operator is only a note.
    const fingerprint = createHash("sha256").update(ADMIN_TOKEN).digest("hex").slice(0, 12);
    for (const r of rows) {
      expect(r.actor).toBe(`admin-token:${fingerprint}`);
      expect(r.details.operator_note).toBe("vitest");
      expect(r.at.getTime()).toBeGreaterThanOrEqual(new Date(started.now).getTime());
    }
    expect(rows[2]!.details).toMatchObject({ from: 0, to: 7 });
    expect(rows[3]!.details).toMatchObject({ from: "trial", to: "growth" });
    // Operators read it through the API, newest first; nobody else can.
    const { body } = await operator("GET", `/${acct.id}/audit`);
    expect(body.data.map((e: { action: string }) => e.action)).toEqual(["set_plan", "set_credits_used", "set_trial_expiry", "confirm_email"]);
    for (const e of body.data) {
      expect(e.actor).toBe(`admin-token:${fingerprint}`);
      expect(Date.parse(e.at)).toBeGreaterThanOrEqual(new Date(started.now).getTime());
    }
    expect(body.data[0].details).toMatchObject({ from: "trial", to: "growth" });
    expect((await call("GET", `/v1/admin/accounts/${acct.id}/audit`, { anonymous: true, headers: { "x-api-key": acct.key } })).status).toBe(404);
    const missing = await parse(await call("GET", `/v1/admin/accounts/acct_${randomUUID()}/audit`, { anonymous: true, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } }));
    expect([missing.status, missing.body.error.code]).toEqual([404, "ACCOUNT_NOT_FOUND"]);
  });

  it("to a trial key without the token an operator path is one that does not exist: the same 404, X-Trial-Expires-At, logged under the path asked", async () => {
    const acct = await makeAccount();
    const ask = (method: string, path: string) => call(method, path, { anonymous: true, headers: { "x-api-key": acct.key } });
    for (const method of ["GET", "POST", "OPTIONS", "DELETE"]) {
      const real = await ask(method, `/v1/admin/accounts/${acct.id}/audit`);
      const none = await ask(method, "/v1/admin/no-such-thing");
      expect([real.status, none.status], method).toEqual([404, 404]);
      expect(real.headers.get("x-trial-expires-at"), method).toBeTruthy();
      expect(real.headers.get("x-trial-expires-at"), method).toBe(none.headers.get("x-trial-expires-at"));
      expect(real.headers.get("allow"), method).toBeNull();
    }
    const { flushRequestLog } = await import("@/lib/usage/log");
    await flushRequestLog();
    const routes = await query<{ route: string }>("select distinct route from request_log where account_id = $1", [acct.id]);
    expect(routes.map((r) => r.route).sort()).toEqual([`/v1/admin/accounts/${acct.id}/audit`, "/v1/admin/no-such-thing"]);
  });

  it("the audit log pages as every list: limit, links.next, a cursor bound to its account", async () => {
    const acct = await makeAccount();
    for (const used of [1, 2, 3, 4, 5]) await setCreditsUsed(acct.id, used);
    // It was the latest 200 at once, without limit or cursor (both refused as unknown).
    const first = await operator("GET", `/${acct.id}/audit?limit=2`);
    expect(first.body.meta).toEqual({ limit: 2, count: 2, has_more: true });
    expect(first.body.data.map((e: { details: { to: number } }) => e.details.to)).toEqual([5, 4]);
    const seen: number[] = [];
    for (let page = first.body; ; ) {
      seen.push(...page.data.map((e: { details: { to: number } }) => e.details.to));
      if (!page.links.next) break;
      page = (await operator("GET", page.links.next.replace(/^.*\/v1\/admin\/accounts/, ""))).body;
    }
    expect(seen).toEqual([5, 4, 3, 2, 1]);
    const other = await makeAccount();
    const cursor = new URL(first.body.links.next).searchParams.get("cursor")!;
    await expect(operator("GET", `/${other.id}/audit?cursor=${cursor}`)).rejects.toThrow(/→ 400 .*INVALID_CURSOR/);
  });

  it("the operator's view shows the account's keys by prefix only", async () => {
    const acct = await makeAccount();
    const { body } = await operator("GET", `/${acct.id}`);
    expect(body.data.account_id).toBe(acct.id);
    expect(body.data.keys).toHaveLength(1);
    expect(Object.keys(body.data.keys[0]).sort()).toEqual(["created_at", "expired", "expires_at", "id", "last_used_at", "name", "prefix", "requests_30d"]);
    expect(acct.key.startsWith(body.data.keys[0].prefix.replace(/…$/, ""))).toBe(true);
    expect(JSON.stringify(body)).not.toContain(acct.key);
  });

  it("the operator's view counts each key's calls of 30 days as the owner's list does", async () => {
    const acct = await makeAccount({ confirmed: true });
    for (let i = 0; i < 3; i++) expect((await as(acct.key, "GET", "/v1/sets?limit=1")).status).toBe(200);
    const own = await as(acct.key, "GET", "/v1/keys");
    expect(own.body.data[0].requests_30d).toBeGreaterThanOrEqual(3);
    const { body } = await operator("GET", `/${acct.id}`);
    // It said 0 for every key.
    expect(body.data.keys[0].requests_30d).toBe(own.body.data[0].requests_30d + 1);
  });

  /** A body each operator route accepts (CONTRACT.md §6), by the path's last segment. */
  const VALID_BODIES: Record<string, unknown> = {
    trial: { expires_at: "2030-01-01T00:00:00Z" }, credits: { used: 1 }, plan: { plan: "growth" }, flags: { legacy_paging: false },
  };

  describe("answer 404 to anyone without the token, even for bad bodies", async () => {
    const doc = await (await call("GET", "/v1/openapi.json", { anonymous: true })).json();
    const routes: [string, string, boolean][] = [];
    for (const [path, methods] of Object.entries<Record<string, any>>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(methods)) {
        if ((op.security ?? []).some((s: Record<string, unknown>) => "AdminToken" in s)) routes.push([method.toUpperCase(), path, !!op.requestBody]);
      }
    }

    it("there are operator routes to check", () => {
      expect(routes.length).toBeGreaterThanOrEqual(5);
    });

    it.each(routes)("%s %s", async (method, template, hasBody) => {
      const acct = await makeAccount();
      const path = template.replace("{account_id}", acct.id);
      const attempt = async (headers: Record<string, string>, body?: string) =>
        parse(await call(method, path, { anonymous: true, headers: { ...headers, ...(body !== undefined ? { "content-type": "application/json" } : {}) }, body: method === "GET" ? undefined : body }));
      const bodies = method === "GET" ? [undefined] : ["{not json", JSON.stringify({ unexpected: true }), undefined];
      // The same 404 as a path that does not exist, word for word, and the one the document lists.
      const expect404 = (a: Answer) => {
        expect(a.status).toBe(404);
        expect(expectEnvelope(a.res, a.body).code).toBe("NOT_FOUND");
        expect(a.body.error.details).toEqual({ path });
        expect(a.body.error.message).toMatch(/^No route [A-Z]+ \S+\. The API reference is at \/v1\/openapi\.json\.$/);
      };
      expect(doc.paths[template][method.toLowerCase()].responses["404"].headers["X-Error-Code"].schema.enum).toContain("NOT_FOUND");
      // Nor does another method or a preflight tell that the path exists (no 405, no Allow).
      for (const other of ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"].filter((m) => m !== method)) {
        for (const headers of [{}, { authorization: `Bearer ${ADMIN_TOKEN}x` }, { "x-api-key": acct.key }] as Record<string, string>[]) {
          const a = await parse(await call(other, path, { anonymous: true, headers }));
          expect(a.status, `${other} ${template}`).toBe(404);
          expect(a.h("allow"), `${other} ${template}`).toBeNull();
        }
      }
      for (const body of bodies) {
        expect404(await attempt({}, body));
        expect404(await attempt({ authorization: `Bearer ${ADMIN_TOKEN}x` }, body));
        expect404(await attempt({ authorization: ADMIN_TOKEN }, body));
        expect404(await attempt({ "x-api-key": acct.key }, body));
      }
      // Without ADMIN_TOKEN configured, no token opens them, not even the one that worked before.
      delete process.env.ADMIN_TOKEN;
      for (const body of bodies) expect404(await attempt({ authorization: `Bearer ${ADMIN_TOKEN}` }, body));
      process.env.ADMIN_TOKEN = ADMIN_TOKEN;
      // The guard, not the route, said 404: with the token a bad body is a 400, and an unknown
      // account is a 404 of another code.
      if (hasBody) expect((await attempt({ authorization: `Bearer ${ADMIN_TOKEN}` }, "{not json")).status).toBe(400);
      const valid = VALID_BODIES[template.split("/").pop()!];
      const missing = await parse(await call(method, template.replace("{account_id}", `acct_${randomUUID()}`), {
        anonymous: true,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(valid ? { "content-type": "application/json" } : {}) },
        body: valid ? JSON.stringify(valid) : undefined,
      }));
      expect(missing.status).toBe(404);
      expect(missing.body.error.code).toBe("ACCOUNT_NOT_FOUND");
    });
  });
});
