import { describe, expect, it } from "vitest";
import { makeAccount } from "../helpers/accounts";
import { query } from "../helpers/db";
import { expectEnvelope } from "../helpers/expect";
import { as, sleep, type Answer } from "../helpers/meter";
import { flushRequestLog } from "@/lib/usage/log";
import { deleteLogBefore, insertLogRows } from "@/lib/usage/queries/write";

// The owner's usage (issue 13): the request log behind GET /v1/me/requests, its filters and
// paging, the analytics of GET /v1/me/usage against the durable ledger, and keys' expiry,
// last use and per-key counts.

const rowsOf = async (key: string, qs = "") => {
  const a = await as(key, "GET", `/v1/me/requests${qs}`);
  expect(a.status, JSON.stringify(a.body)).toBe(200);
  return a.body.data as any[];
};

/** A few calls of every kind: charged, a 304 refund, a bad parameter, a not-found. */
async function someCalls(key: string): Promise<{ ok: Answer; notModified: Answer; bad: Answer; missing: Answer }> {
  const ok = await as(key, "GET", "/v1/cards/base1-4");
  const notModified = await as(key, "GET", "/v1/cards/base1-4", { headers: { "if-none-match": ok.h("etag")! } });
  const bad = await as(key, "GET", "/v1/cards?limit=0");
  const missing = await as(key, "GET", "/v1/cards/no-such-card-9");
  return { ok, notModified, bad, missing };
}

describe("GET /v1/me/requests", () => {
  it("logs every call with what it finally cost; a request id from an error answer finds its row", async () => {
    const acc = await makeAccount({ plan: "developer" });
    const { ok, notModified, bad, missing } = await someCalls(acc.key);
    expect([ok.status, notModified.status, bad.status, missing.status]).toEqual([200, 304, 400, 404]);
    const rows = await rowsOf(acc.key);
    // Newest first; the log call itself is not in its own answer.
    expect(rows.map((r) => r.status)).toEqual([404, 400, 304, 200]);
    const [r404, r400, r304, r200] = rows;
    expect(r200).toMatchObject({
      request_id: ok.h("x-request-id"), method: "GET", route: "/v1/cards/{id}", status: 200, error_code: null,
      credits: Number(ok.h("x-credits-cost")), refunded: false, cards_added: 1,
    });
    expect(r200.credits).toBeGreaterThan(0);
    expect(r200.key).toMatchObject({ id: expect.stringMatching(/^key_/), name: expect.any(String) });
    expect(r200.latency_ms).toBeGreaterThan(0);
    expect(r304).toMatchObject({ status: 304, credits: 0, refunded: true, cards_added: 0 });
    // Refused before the key was checked (a bad parameter): still the account's row.
    expect(r400).toMatchObject({ status: 400, error_code: expectEnvelope(bad.res, bad.body).code, credits: 0, route: "/v1/cards" });
    expect(r404).toMatchObject({ status: 404, error_code: "CARD_NOT_FOUND", credits: 0, refunded: true });
    const found = await rowsOf(acc.key, `?request_id=${missing.h("x-request-id")}`);
    expect(found).toHaveLength(1);
    expect(found[0].status).toBe(404);
  });

  it("a key's call to a path no route has, or with a method its route does not serve, is in the log too", async () => {
    const acc = await makeAccount({ plan: "developer" });
    const nowhere = await as(acc.key, "GET", "/v1/no-such-route");
    const wrongMethod = await as(acc.key, "DELETE", "/v1/cards");
    // A route with a parameter: its template, as every call of the route is logged (it was the path asked for, one route per id).
    const onCard = await as(acc.key, "DELETE", "/v1/cards/base1-2");
    expect([nowhere.status, wrongMethod.status, onCard.status]).toEqual([404, 405, 405]);
    for (const [a, method, route, code] of [
      [nowhere, "GET", "/v1/no-such-route", "NOT_FOUND"], [wrongMethod, "DELETE", "/v1/cards", "METHOD_NOT_ALLOWED"], [onCard, "DELETE", "/v1/cards/{id}", "METHOD_NOT_ALLOWED"],
    ] as const) {
      const rows = await rowsOf(acc.key, `?request_id=${a.h("x-request-id")}`);
      expect(rows, route).toHaveLength(1);
      expect(rows[0]).toMatchObject({ method, route, status: a.status, error_code: code, credits: 0 });
    }
    // Without a key, or with one of no account, nobody's log.
    expect((await as("pk_live_not_a_key_at_all_000000", "GET", "/v1/no-such-route")).status).toBe(404);
  });

  it("filters by status class, exact status, error code, route (with or without method), key and time", async () => {
    const acc = await makeAccount({ plan: "developer" });
    const other = await as(acc.key, "POST", "/v1/keys", { body: { name: "second" } });
    expect(other.status).toBe(201);
    await someCalls(acc.key);
    await as(other.body.data.secret, "GET", "/v1/sets/base1");
    const statuses = async (qs: string) => (await rowsOf(acc.key, qs)).map((r) => `${r.method} ${r.route} ${r.status}`);
    expect(await statuses("?status=4xx")).toEqual(["GET /v1/cards/{id} 404", "GET /v1/cards 400"]);
    expect(await statuses("?status=304")).toEqual(["GET /v1/cards/{id} 304"]);
    expect(await statuses("?error_code=CARD_NOT_FOUND")).toEqual(["GET /v1/cards/{id} 404"]);
    // A code the API does not have is a mistake, not a filter that matches nothing.
    const unknownCode = await as(acc.key, "GET", "/v1/me/requests?error_code=NOPE_CODE");
    expect(unknownCode.status).toBe(400);
    expect(unknownCode.body.error).toMatchObject({ code: "INVALID_PARAMETER", details: { parameter: "error_code" } });
    expect(await statuses(`?route=${encodeURIComponent("/v1/cards/{id}")}&status=2xx`)).toEqual(["GET /v1/cards/{id} 200"]);
    expect(await statuses(`?route=${encodeURIComponent("POST /v1/keys")}`)).toEqual(["POST /v1/keys 201"]);
    expect(await statuses(`?key=${other.body.data.id}`)).toEqual(["GET /v1/sets/{code} 200"]);
    const future = new Date(Date.now() + 60_000).toISOString();
    expect(await statuses(`?from=${encodeURIComponent(future)}`)).toEqual([]);
    // Everything before then: the six calls, and the log's own reads so far.
    const before = await statuses(`?to=${encodeURIComponent(future)}`);
    expect(before.filter((r) => !r.startsWith("GET /v1/me/requests"))).toHaveLength(6);
    // Another account's calls never show, whatever the filter.
    const stranger = await makeAccount({ plan: "developer" });
    expect(await rowsOf(stranger.key, `?key=${other.body.data.id}`)).toEqual([]);
  });

  it("pages with a cursor, every row once; bad filters and cursors are 400s in the envelope", async () => {
    const acc = await makeAccount({ plan: "developer" });
    for (let i = 0; i < 7; i++) await as(acc.key, "GET", "/v1/cards/base1-4");
    const seen: string[] = [];
    let next: string | undefined = "/v1/me/requests?limit=3&route=/v1/cards/{id}";
    while (next) {
      const a = await as(acc.key, "GET", next.replace(/^https?:\/\/[^/]+/, ""));
      expect(a.status).toBe(200);
      seen.push(...a.body.data.map((r: any) => r.request_id));
      next = a.body.links.next;
    }
    expect(seen).toHaveLength(7);
    expect(new Set(seen).size).toBe(7);
    for (const [qs, code] of [["?status=6xx", "INVALID_PARAMETER"], ["?from=yesterday", "INVALID_PARAMETER"], ["?cursor=%00", "INVALID_CURSOR"], ["?limit=1000", "LIMIT_EXCEEDED"]] as const) {
      const a = await as(acc.key, "GET", `/v1/me/requests${qs}`);
      expect(a.status, qs).toBe(400);
      expect(expectEnvelope(a.res, a.body).code, qs).toBe(code);
    }
  });

  it("a request id reused on every call (a client's fixed X-Request-Id) still finds its rows, through a btree", async () => {
    const acc = await makeAccount({ plan: "developer" });
    const fixed = { headers: { "x-request-id": "my-client-fixed-id" } };
    for (let i = 0; i < 3; i++) expect((await as(acc.key, "GET", "/v1/cards/base1-4", fixed)).h("x-request-id")).toBe("my-client-fixed-id");
    expect(await rowsOf(acc.key, "?request_id=my-client-fixed-id")).toHaveLength(3);
    // The index is on the id alone: another account sending the same id sees its own row only.
    const other = await makeAccount({ plan: "developer" });
    expect((await as(other.key, "GET", "/v1/cards/base1-4", fixed)).status).toBe(200);
    expect(await rowsOf(other.key, "?request_id=my-client-fixed-id")).toHaveLength(1);
    expect(await rowsOf(acc.key, "?request_id=my-client-fixed-id")).toHaveLength(3);
    // A hash index walks one key's whole chain on each insert: such a client's rows grew slower
    // to write with every call (89-161 µs a row after 200,000, against 11-19 in the btree).
    const [idx] = await query<{ indexdef: string }>("select indexdef from pg_indexes where indexname = 'request_log_request_idx'");
    expect(idx!.indexdef).toMatch(/USING btree \(request_id\)/);
  });

  it("a batch's text comes back as sent, array syntax and all; a null stays null, the word NULL stays a word", async () => {
    const acc = await makeAccount({ plan: "developer" });
    const at = Date.parse("2026-11-26T10:59:59.987Z");
    const odd = ['a "quoted", {braced} \\ text', "NULL", "", " spaced ", "ünïcode ✓"];
    await insertLogRows([
      ...odd.map((text, i) => ({
        accountId: acc.id, at: at + i, keyId: text, method: "GET", route: text, status: 200, errorCode: text,
        credits: 1, cardsAdded: 0, refunded: false, latency: 5, requestId: `req_odd_${i}`,
      })),
      { accountId: acc.id, at: at + 9, keyId: null, method: "GET", route: "/v1/x", status: 500, errorCode: null, credits: 0, cardsAdded: 0, refunded: true, latency: 5, requestId: "req_odd_null" },
    ]);
    const back = await query<{ at: string; key_id: string | null; route: string; error_code: string | null }>(
      `select to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS') as at, key_id, route, error_code from request_log where account_id = $1 order by at`, [acc.id]);
    expect(back).toEqual([
      ...odd.map((text, i) => ({ at: `2026-11-26T10:59:59.${987 + i}`, key_id: text, route: text, error_code: text })),
      { at: "2026-11-26T10:59:59.996", key_id: null, route: "/v1/x", error_code: null },
    ]);
  });

  it("rows past 30 days are purged", async () => {
    const acc = await makeAccount({ plan: "developer" });
    await as(acc.key, "GET", "/v1/cards/base1-4");
    await flushRequestLog();
    await query("update request_log set at = now() - interval '31 days' where account_id = $1", [acc.id]);
    await deleteLogBefore(new Date(Date.now() - 30 * 86_400_000).toISOString());
    expect(await query("select 1 from request_log where account_id = $1", [acc.id])).toHaveLength(0);
  });
});

describe("GET /v1/me/usage analytics", () => {
  it("sums agree with the ledger; split by route, key and status they add up to the totals", async () => {
    const acc = await makeAccount({ plan: "developer" });
    const second = (await as(acc.key, "POST", "/v1/keys", { body: { name: "ci" } })).body.data;
    await someCalls(acc.key);
    await as(second.secret, "GET", "/v1/cards/base1-5");
    await as(second.secret, "GET", "/v1/sets/base1/cards?limit=20");
    const usage = async (qs: string) => {
      const a = await as(acc.key, "GET", `/v1/me/usage${qs}`);
      expect(a.status, JSON.stringify(a.body)).toBe(200);
      return a.body.data;
    };
    const plain = await usage("?days=30&range=30d");
    const ledger = plain.totals;
    const t = plain.analytics.totals;
    expect(t.credits).toBe(ledger.credits);
    expect(t.refunds).toBe(ledger.refunds);
    expect(t.credits).toBeGreaterThan(0);
    // The log also counts the call refused before the meter (the bad parameter) and the key's creation.
    expect(t.requests).toBe(ledger.requests + 1);
    expect(plain.analytics.series).toHaveLength(30);
    expect(plain.analytics.series.reduce((n: number, b: any) => n + b.credits, 0)).toBe(t.credits);
    const me = await as(acc.key, "GET", "/v1/me");
    expect(plain.analytics.cards).toEqual({ used: me.body.data.cards.used, limit: me.body.data.cards.limit });
    expect(plain.analytics.cards.used).toBeGreaterThanOrEqual(20);
    for (const g of ["route", "key", "status"]) {
      const d = (await usage(`?range=24h&group_by=${g}`)).analytics;
      expect(d.granularity).toBe("hour");
      expect(d.series).toHaveLength(25);
      expect(d.groups.reduce((n: number, x: any) => n + x.credits, 0), g).toBe(t.credits);
      expect(d.groups.reduce((n: number, x: any) => n + x.requests, 0), g).toBe(d.totals.requests);
    }
    const byKey = (await usage("?range=7d&group_by=key")).analytics.groups;
    const mine = byKey.find((g: any) => g.group === second.id);
    expect(mine).toMatchObject({ requests: 2, label: expect.stringContaining("ci") });
    const byStatus = (await usage("?range=period&group_by=status")).analytics.groups;
    expect(byStatus.find((g: any) => g.group === "304")).toMatchObject({ requests: 1, refunds: 1, credits: 0 });
  });

  it("a deleted key's calls still name it, marked deleted, in the log and in the sums by key", async () => {
    const acc = await makeAccount({ plan: "developer" });
    const gone = (await as(acc.key, "POST", "/v1/keys", { body: { name: "old-ci" } })).body.data;
    expect((await as(gone.secret, "GET", "/v1/cards/base1-6")).status).toBe(200);
    expect((await as(acc.key, "DELETE", `/v1/keys/${gone.id}`)).status).toBe(200);
    await flushRequestLog();
    const [row] = await rowsOf(acc.key, `?key=${gone.id}`);
    expect(row.key).toEqual({ id: gone.id, name: "old-ci", prefix: expect.any(String), deleted: true });
    const live = (await rowsOf(acc.key)).find((r) => r.key?.id !== gone.id);
    expect(live.key.deleted).toBe(false);
    const byKey = (await as(acc.key, "GET", "/v1/me/usage?range=24h&group_by=key")).body.data.analytics.groups;
    expect(byKey.find((g: any) => g.group === gone.id).label).toMatch(/^old-ci .*deleted/);
  });

  it("a range or grouping it does not know is 400 INVALID_PARAMETER", async () => {
    const acc = await makeAccount({ plan: "developer" });
    for (const qs of ["?range=1y", "?group_by=planet", "?granularity=minute"]) {
      const a = await as(acc.key, "GET", `/v1/me/usage${qs}`);
      expect(a.status, qs).toBe(400);
      expect(expectEnvelope(a.res, a.body).code).toBe("INVALID_PARAMETER");
    }
  });
});

describe("keys: expiry, last use and per-key counts", () => {
  it("an expiry in the past is refused; a key stops working at its expiry with a 401 that says so", async () => {
    const acc = await makeAccount({ plan: "developer" });
    const past = await as(acc.key, "POST", "/v1/keys", { body: { expires_at: new Date(Date.now() - 1000).toISOString() } });
    expect(past.status).toBe(400);
    expect(expectEnvelope(past.res, past.body).code).toBe("INVALID_PARAMETER");
    // Long enough for a loaded machine to use it first; the key cache (5 s) must not outlive it.
    const at = new Date(Date.now() + 3000).toISOString();
    const made = await as(acc.key, "POST", "/v1/keys", { body: { name: "short", expires_at: at } });
    expect(made.status).toBe(201);
    expect(made.body.data).toMatchObject({ expires_at: at, expired: false });
    expect((await as(made.body.data.secret, "GET", "/v1/cards/base1-4")).status).toBe(200);
    expect(Date.now()).toBeLessThan(Date.parse(at));
    await sleep(Date.parse(at) - Date.now() + 50);
    const late = await as(made.body.data.secret, "GET", "/v1/cards/base1-4");
    expect(late.status).toBe(401);
    expect(expectEnvelope(late.res, late.body)).toMatchObject({ code: "INVALID_API_KEY", details: { expired_at: at } });
    const listed = (await as(acc.key, "GET", "/v1/keys")).body.data.find((k: any) => k.id === made.body.data.id);
    // The refused call is the key's too: in its count, and in the log under its request id.
    expect(listed).toMatchObject({ expired: true, requests_30d: 2 });
    expect(listed.last_used_at).not.toBeNull();
    const rows = await rowsOf(acc.key, `?request_id=${late.h("x-request-id")}`);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 401, error_code: "INVALID_API_KEY", key: { id: made.body.data.id } });
  });
});

describe("the request log's writes", () => {
  it("two instances writing the hourly sums of the same accounts at once, in opposite orders, neither deadlocks nor loses a call", async () => {
    // Each instance's batch lists its accounts in the order their calls came; the sums' upserts
    // lock rows in that order unless the write sorts them.
    const run = Math.random().toString(36).slice(2, 10);
    const accounts = Array.from({ length: 300 }, (_, i) => `acct_lockorder_${run}_${String(i).padStart(3, "0")}`);
    const at = Date.now();
    const row = (accountId: string, i: number) => ({
      accountId, at, keyId: "key_lockorder", method: "GET", route: "/v1/cards/{id}", status: 200, errorCode: null,
      credits: 1, cardsAdded: 0, refunded: false, latency: 10, requestId: `req_lockorder_${run}_${i}`,
    });
    for (let round = 0; round < 4; round++) {
      await Promise.all([insertLogRows(accounts.map(row)), insertLogRows([...accounts].reverse().map(row))]);
    }
    const [sums] = await query<{ requests: string; rows: string }>(
      "select sum(requests) as requests, count(*) as rows from usage_hourly where account_id like $1", [`acct_lockorder_${run}_%`]);
    expect(Number(sums!.rows)).toBe(300);
    expect(Number(sums!.requests)).toBe(300 * 2 * 4);
  });
});
