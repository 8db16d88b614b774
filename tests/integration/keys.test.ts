import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { makeAccount, type TestAccount } from "../helpers/accounts";
import { query } from "../helpers/db";
import { call } from "../helpers/api";
import { as, expectRefusal, int, parse, SPEC_FIGURES, type Answer } from "../helpers/meter";

// The key routes (CONTRACT.md §4): a secret is shown once and stored as a hash; rotation and
// deletion take effect at once; rate and credits belong to the account, never to a key.

const list = async (key: string) => {
  const a = await as(key, "GET", "/v1/keys");
  expect(a.status).toBe(200);
  return a;
};
const create = async (key: string, name?: string) => {
  const a = await as(key, "POST", "/v1/keys", { body: name === undefined ? {} : { name } });
  expect(a.status, JSON.stringify(a.body)).toBe(201);
  return a.body.data as { id: string; name: string; prefix: string; secret: string; created_at: string; last_used_at: string | null };
};
const accountOf = async (key: string) => (await as(key, "GET", "/v1/me")).body.data.account_id as string;
const expectUnknownKey = async (key: string) => expectRefusal(await as(key, "GET", "/v1/me"), 401, "INVALID_API_KEY");

describe("listing and creating keys", () => {
  it("lists the account's keys without secrets", async () => {
    const acct = await makeAccount();
    const a = await list(acct.key);
    // The list envelope of SPEC.md Pagination: the default page holds every key (at most 50 live keys).
    expect(a.body.meta).toEqual({ limit: 50, count: 1, has_more: false });
    expect(a.body).not.toHaveProperty("links.next");
    expect(a.body.data).toHaveLength(1);
    const k = a.body.data[0];
    expect(Object.keys(k).sort()).toEqual(["created_at", "expired", "expires_at", "id", "last_used_at", "name", "prefix", "requests_30d"]);
    expect(acct.key.startsWith(k.prefix.replace(/…$/, ""))).toBe(true);
    expect(k.prefix.replace(/…$/, "").length).toBeLessThan(acct.key.length);
    expect(JSON.stringify(a.body)).not.toContain(acct.key);
    expect(a.h("x-credits-cost")).toBe("0");
  });

  it("pages as every list does (SPEC.md Pagination): limit and cursor, oldest first, nothing repeated or dropped", async () => {
    // A paid plan: a dozen calls at once are past the trial's burst of 10.
    const acct = await makeAccount({ plan: "developer", confirmed: true });
    for (const name of ["b", "c", "d", "e"]) await create(acct.key, name);
    const all = (await list(acct.key)).body.data.map((k: { name: string }) => k.name);
    expect(all).toHaveLength(5);
    const seen: string[] = [];
    let next: string | undefined = "/v1/keys?limit=2";
    while (next) {
      const page = await as(acct.key, "GET", next.replace(/^https?:\/\/[^/]+/, ""));
      expect(page.status).toBe(200);
      expect(page.body.meta.limit).toBe(2);
      expect(page.body.meta.has_more).toBe(Boolean(page.body.links.next));
      seen.push(...page.body.data.map((k: { name: string }) => k.name));
      next = page.body.links.next;
    }
    expect(seen).toEqual(all);
    expect(all.slice(1)).toEqual(["b", "c", "d", "e"]);
    expectRefusal(await as(acct.key, "GET", "/v1/keys?limit=251"), 400, "LIMIT_EXCEEDED");
    expectRefusal(await as(acct.key, "GET", "/v1/keys?cursor=nope"), 400, "INVALID_CURSOR");
    const sets = await as(acct.key, "GET", "/v1/sets?limit=1");
    const foreign = new URL(sets.body.links.next).searchParams.get("cursor")!;
    expectRefusal(await as(acct.key, "GET", `/v1/keys?cursor=${foreign}`), 400, "INVALID_CURSOR");
  });

  it("shows a new key's secret once; after that only its prefix; the database holds its hash", async () => {
    const acct = await makeAccount();
    const k = await create(acct.key, "ci runner");
    expect(k.name).toBe("ci runner");
    expect(k.secret.startsWith(k.prefix.replace(/…$/, ""))).toBe(true);
    expect(k.secret).not.toBe(acct.key);
    expect(await accountOf(k.secret)).toBe(acct.id);

    const after = await list(acct.key);
    expect(after.body.data.map((x: { id: string }) => x.id)).toContain(k.id);
    // The list's created_at is the one the creation answered.
    expect(after.body.data.find((x: { id: string }) => x.id === k.id).created_at).toBe(k.created_at);
    expect(JSON.stringify(after.body)).not.toContain(k.secret);
    for (const row of after.body.data) expect(row).not.toHaveProperty("secret");

    const stored = await query<Record<string, unknown>>("select * from api_keys where id = $1", [k.id]);
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(k.secret);
    expect(Object.values(stored[0]!)).toContain(createHash("sha256").update(k.secret).digest("hex"));
  });
});

describe("a key created without a body", () => {
  it("is made as with {} (the body is optional), with or without a content type; a body that is no object is still refused", async () => {
    const acct = await makeAccount();
    const bare = await as(acct.key, "POST", "/v1/keys");
    expect(bare.status, JSON.stringify(bare.body)).toBe(201);
    expect(await accountOf(bare.body.data.secret)).toBe(acct.id);
    const typed = await as(acct.key, "POST", "/v1/keys", { headers: { "content-type": "application/json" } });
    expect(typed.status).toBe(201);
    expectRefusal(await as(acct.key, "POST", "/v1/keys", { body: "{bad" as unknown }), 400, "INVALID_PARAMETER");
  });

  it("an expiry the database cannot hold is 400 INVALID_PARAMETER, not 500", async () => {
    const acct = await makeAccount();
    for (const expires_at of ["9999-12-31T23:00:00-01:00", "0000-02-29T00:00:00Z", "2030-01-01T00:00:00+18:00"]) {
      expectRefusal(await as(acct.key, "POST", "/v1/keys", { body: { name: "t", expires_at } }), 400, "INVALID_PARAMETER");
    }
  });
});

describe("how many keys", () => {
  it("an account holds at most 50 live keys: the 51st is 409 TOO_MANY_KEYS; deleting one makes room", async () => {
    const acct = await makeAccount({ plan: "enterprise", confirmed: true });
    // The signup's key is the first.
    const made: string[] = [];
    for (let i = 1; i < 50; i++) made.push((await as(acct.key, "POST", "/v1/keys", { body: { name: `k${i}` } })).body.data.id);
    expect(made.every(Boolean)).toBe(true);
    const over = await as(acct.key, "POST", "/v1/keys", { body: { name: "one too many" } });
    expect(expectRefusal(over, 409, "TOO_MANY_KEYS")).toMatchObject({ max_keys: 50 });
    expect((await as(acct.key, "DELETE", `/v1/keys/${made[0]}`)).status).toBe(200);
    expect((await as(acct.key, "POST", "/v1/keys", { body: { name: "room again" } })).status).toBe(201);
  });

  it("keys asked for at once cannot pass the limit together: the count and the insert it allows are one step", async () => {
    const acct = await makeAccount({ plan: "enterprise", confirmed: true });
    for (let i = 1; i < 48; i++) expect((await as(acct.key, "POST", "/v1/keys", { body: { name: `k${i}` } })).status).toBe(201);
    // Room for two more: of six asked for at once, two are made and four refused.
    const all = await Promise.all(Array.from({ length: 6 }, (_, i) => as(acct.key, "POST", "/v1/keys", { body: { name: `at once ${i}` } })));
    expect(all.map((r) => r.status).sort()).toEqual([201, 201, 409, 409, 409, 409]);
    expect((await as(acct.key, "GET", "/v1/keys")).body.data).toHaveLength(50);
  });
});

describe("rotating and deleting", () => {
  it("rotation: the old secret is refused at once, the new one works, under the same name", async () => {
    const acct = await makeAccount();
    const k = await create(acct.key, "deploy");
    expect(await accountOf(k.secret)).toBe(acct.id); // known to this instance's key cache
    const r = await as(acct.key, "POST", `/v1/keys/${k.id}/rotate`);
    expect(r.status).toBe(200);
    const n = r.body.data;
    expect(n).toMatchObject({ name: "deploy", replaces: k.id });
    expect(n.id).not.toBe(k.id);
    expect(n.secret).not.toBe(k.secret);
    await expectUnknownKey(k.secret);
    expect(await accountOf(n.secret)).toBe(acct.id);
    const ids = (await list(acct.key)).body.data.map((x: { id: string }) => x.id);
    expect(ids).toContain(n.id);
    expect(ids).not.toContain(k.id);
  });

  it("a body that does not parse, or one past the limit, is refused on routes that take none; {} is ignored", async () => {
    const acct = await makeAccount();
    const k = await create(acct.key, "spare");
    const send = async (method: string, path: string, body: string) =>
      parse(await call(method, path, { headers: { "x-api-key": acct.key, "content-type": "application/json" }, body }));
    for (const [method, path] of [["POST", `/v1/keys/${k.id}/rotate`], ["DELETE", `/v1/keys/${k.id}`], ["POST", "/v1/billing/portal"]] as const) {
      expectRefusal(await send(method, path, "{not json"), 400, "INVALID_PARAMETER");
      expectRefusal(await send(method, path, JSON.stringify({ pad: "x".repeat(1_100_000) })), 413, "PAYLOAD_TOO_LARGE");
    }
    // Nothing happened to the key: it rotates with an empty JSON object.
    expect((await send("POST", `/v1/keys/${k.id}/rotate`, "{}")).status).toBe(200);
  });

  it("a key can rotate itself: its answer is the last its old secret gets", async () => {
    const acct = await makeAccount();
    const id = (await list(acct.key)).body.data[0].id;
    const r = await as(acct.key, "POST", `/v1/keys/${id}/rotate`);
    expect(r.status).toBe(200);
    await expectUnknownKey(acct.key);
    expect(await accountOf(r.body.data.secret)).toBe(acct.id);
  });

  it("deletion: the secret is refused at once; the other keys keep working", async () => {
    const acct = await makeAccount();
    const k = await create(acct.key);
    expect(await accountOf(k.secret)).toBe(acct.id);
    const d = await as(acct.key, "DELETE", `/v1/keys/${k.id}`);
    expect(d.status).toBe(200);
    expect(d.body.data).toEqual({ id: k.id, deleted: true });
    await expectUnknownKey(k.secret);
    expect(await accountOf(acct.key)).toBe(acct.id);
    expect((await list(acct.key)).body.data.map((x: { id: string }) => x.id)).not.toContain(k.id);
    // Deleted is gone: a second delete or a rotation finds nothing.
    expectRefusal(await as(acct.key, "DELETE", `/v1/keys/${k.id}`), 404, "KEY_NOT_FOUND");
    expectRefusal(await as(acct.key, "POST", `/v1/keys/${k.id}/rotate`), 404, "KEY_NOT_FOUND");
  });

  it("another account's key can be neither rotated nor deleted, and keeps working", async () => {
    const mine = await makeAccount();
    const theirs = await makeAccount();
    const theirKey = (await list(theirs.key)).body.data[0].id;
    expectRefusal(await as(mine.key, "POST", `/v1/keys/${theirKey}/rotate`), 404, "KEY_NOT_FOUND");
    expectRefusal(await as(mine.key, "DELETE", `/v1/keys/${theirKey}`), 404, "KEY_NOT_FOUND");
    expect(await accountOf(theirs.key)).toBe(theirs.id);
  });
});

describe("rate and credits are per account, never per key (SPEC.md Authentication 4)", () => {
  async function twoKeys(): Promise<[TestAccount, string, string]> {
    const acct = await makeAccount({ confirmed: true });
    const second = await create(acct.key, "second");
    return [acct, acct.key, second.secret];
  }

  it("two keys share RateLimit-Remaining and X-Quota-Remaining", async () => {
    const [, a, b] = await twoKeys();
    const answers: Answer[] = [];
    for (const key of [a, b, a, b, a, b]) {
      const r = await as(key, "GET", "/v1/sets?limit=1");
      expect(r.status).toBe(200);
      answers.push(r);
    }
    for (let i = 1; i < answers.length; i++) {
      const prev = answers[i - 1]!;
      const cur = answers[i]!;
      expect(int(cur, "x-quota-remaining")).toBe(int(prev, "x-quota-remaining") - int(cur, "x-credits-cost"));
      expect(int(cur, "ratelimit-remaining")).toBeLessThan(int(prev, "ratelimit-remaining"));
    }
  });

  it("extra keys add no throughput: the burst of 10 is spent across keys, the 11th call is refused on a third", async () => {
    const started = Date.now();
    const [acct, a, b] = await twoKeys();
    const c = (await create(a, "third")).secret;
    let served = 2; // the two creations were calls of the burst too
    let refused: Answer | undefined;
    for (let i = 0; i < 30 && !refused; i++) {
      const r = await as(served < SPEC_FIGURES.trial.burst ? (i % 2 ? a : b) : c, "GET", "/v1/me");
      if (r.status === 429) refused = r;
      else served++;
    }
    const elapsed = Date.now() - started;
    expect(served).toBeGreaterThanOrEqual(SPEC_FIGURES.trial.burst);
    expect(served).toBeLessThanOrEqual(SPEC_FIGURES.trial.burst + Math.floor((elapsed * SPEC_FIGURES.trial.rate) / 1000));
    expectRefusal(refused!, 429, "RATE_LIMITED");
    expect(await query("select id from api_keys where account_id = $1 and revoked_at is null", [acct.id])).toHaveLength(3);
  });
});
