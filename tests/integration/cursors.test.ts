import type { z } from "zod";
import { beforeAll, describe, expect, it } from "vitest";
import { routeSpecs } from "@/app/api/v1/routes";
import type { RouteSpec } from "@/lib/api/route";
import { call, getJson } from "../helpers/api";
import { makeAccount } from "../helpers/accounts";
import { expectEnvelope } from "../helpers/expect";
import { setCreditsUsed, useAdminToken } from "../helpers/meter";

// Garbage cursors on every list of the route table (app/api/v1/routes.ts): whatever a client
// sends as `cursor`, the answer is 400 INVALID_CURSOR in the envelope, never INVALID_PARAMETER
// and never a 500. A route with a cursor added later is covered without touching this file.

type List = { path: string; url: string; orderBy: boolean; headers: Record<string, string> };

/** Real values for the path parameters of list routes (the operator's account: made in beforeAll). */
const PATH_VALUES: Record<string, Record<string, string>> = { "/sets/{code}/cards": { code: "base1" } };
const ADMIN_TOKEN = useAdminToken();
/** Lists with a cursor of their own, not the catalogue's base64url {r, o, k}: their tampering is tried in their own files. */
const OWN_CURSOR = ["/billing/invoices", "/admin/accounts/{account_id}/audit"];

let lists: List[] = [];

function listOf(spec: RouteSpec): List | undefined {
  const shape = (spec.query as unknown as z.ZodObject | undefined)?.shape ?? {};
  if (spec.method !== "GET" || !("cursor" in shape)) return undefined;
  const url = "/v1" + spec.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const v = PATH_VALUES[spec.path]?.[name];
    if (!v) throw new Error(`no real value for {${name}} of ${spec.path}: add one to PATH_VALUES`);
    return encodeURIComponent(v);
  });
  // An operator list answers the operator's token only (anyone else: a path that does not exist).
  const headers: Record<string, string> = spec.auth === "admin" ? { authorization: `Bearer ${ADMIN_TOKEN}` } : {};
  return { path: spec.path, url, orderBy: "orderBy" in shape, headers };
}

beforeAll(async () => {
  const audited = await makeAccount();
  for (const used of [1, 2]) await setCreditsUsed(audited.id, used);
  PATH_VALUES["/admin/accounts/{account_id}/audit"] = { account_id: audited.id };
  lists = routeSpecs().map(listOf).filter((l): l is List => !!l).sort((a, b) => a.path.localeCompare(b.path));
});

const b64 = (v: unknown) => Buffer.from(typeof v === "string" ? v : JSON.stringify(v)).toString("base64url");
const join = (url: string, query: string) => `${url}${url.includes("?") ? "&" : "?"}${query}`;

/** Cursors as they travel in the URL: percent-encoded already. */
const GARBAGE: [string, string][] = [
  ["a NUL", "%00"],
  ["a NUL inside a base64url text", `${b64({ r: "x" })}%00`],
  ["abc", "abc"],
  ["a byte that is not UTF-8", "%FF"],
  ["an over-long cursor", "A".repeat(5000)],
  ["a long cursor within the length limit", "A".repeat(3990)],
  ["characters outside base64url", encodeURIComponent("ab+/c==")],
  ["spaces", "a%20b"],
  ["an emoji", encodeURIComponent("🃏")],
  ["base64 of text that is not JSON", b64("not json")],
  ["base64 of bytes that are not UTF-8", Buffer.from([0xff, 0xfe, 0x00, 0x7b]).toString("base64url")],
  ["JSON null", b64("null")],
  ["a JSON number", b64("42")],
  ["a JSON string", b64('"cursor"')],
  ["a JSON array", b64([1, 2, 3])],
  ["JSON of the wrong shape", b64({ a: 1 })],
  ["a payload without k", b64({ r: "cards", o: "id" })],
  ["k that is not an array", b64({ r: "cards", o: "id", k: "x" })],
  ["a prototype-polluting payload", b64('{"__proto__":{"k":[]},"r":"cards","o":"id"}')],
];

async function expectInvalidCursor(url: string, headers: Record<string, string> = {}) {
  const res = await call("GET", url, { headers });
  const text = await res.text();
  expect(res.status, `${url.slice(0, 200)} never 500`).toBeLessThan(500);
  const body = JSON.parse(text);
  expect({ url: url.slice(0, 200), status: res.status, code: body.error?.code }).toEqual({ url: url.slice(0, 200), status: 400, code: "INVALID_CURSOR" });
  const error = expectEnvelope(res, body);
  expect(error.details?.parameter).toBe("cursor");
}

/** A real cursor of the list's first page, and its decoded payload (base64url JSON today). */
async function realCursor(url: string): Promise<{ cursor: string; payload: { r: string; o: string; k: unknown[] } }> {
  const { res, body } = await getJson(join(url, "limit=1"));
  expect(res.status, url).toBe(200);
  expect(body.links?.next, `${url} has a second page`).toBeTruthy();
  const cursor = new URL(body.links.next).searchParams.get("cursor")!;
  return { cursor, payload: JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) };
}

describe("garbage cursors are 400 INVALID_CURSOR on every list of the route table", () => {
  it("finds the lists", () => {
    expect(lists.map((l) => l.path)).toEqual(expect.arrayContaining(
      ["/cards", "/sets", "/sets/{code}/cards", "/series", "/artists", "/sealed", "/changes"],
    ));
  });

  for (const [what, cursor] of GARBAGE) {
    it(what, async () => {
      for (const l of lists) await expectInvalidCursor(join(l.url, `cursor=${cursor}`), l.headers);
    });
  }

  it("a real cursor tampered with: values of the wrong type, too few or too many, another resource or order", async () => {
    // The keys list needs a second key for a second page.
    expect((await call("POST", "/v1/keys", { headers: { "content-type": "application/json" }, body: JSON.stringify({ name: "cursors" }) })).status).toBe(201);
    // The invoices list pages by Stripe's own cursor (an invoice id), the operator's audit log by
    // an entry's id: their tampering is tried in billing.test.ts and accounts.test.ts.
    for (const l of lists.filter((x) => !OWN_CURSOR.includes(x.path))) {
      const { payload } = await realCursor(l.url);
      const tampered = [
        { ...payload, k: payload.k.map(() => ({})) },
        { ...payload, k: payload.k.map(() => true) },
        { ...payload, k: payload.k.slice(1) },
        { ...payload, k: [...payload.k, 1] },
        { ...payload, r: `${payload.r}-other` },
        { ...payload, o: `${payload.o},zz` },
        { ...payload, o: 7 },
      ];
      for (const p of tampered) await expectInvalidCursor(join(l.url, `cursor=${b64(p)}`));
    }
  });

  it("a real cursor of one list is refused by every other list", async () => {
    const { cursor } = await realCursor("/v1/series");
    for (const l of lists.filter((x) => x.path !== "/series")) await expectInvalidCursor(join(l.url, `cursor=${cursor}`), l.headers);
    // Under the same orderBy, it is said to be another list's, not another order's.
    const artists = await realCursor("/v1/artists?orderBy=name");
    const { body } = await getJson(`/v1/series?orderBy=name&cursor=${artists.cursor}`);
    expect(body.error.message).toMatch(/another list/);
  });

  it("a real cursor under another orderBy", async () => {
    for (const l of lists.filter((x) => x.orderBy)) {
      const { cursor, payload } = await realCursor(l.url);
      const first = payload.o.split(",")[0]!;
      const flipped = first.startsWith("-") ? first.slice(1) : `-${first}`;
      await expectInvalidCursor(join(l.url, `orderBy=${encodeURIComponent(flipped)}&cursor=${cursor}`));
      // The same cursor still pages under the order it was issued for.
      const { res } = await getJson(join(l.url, `cursor=${cursor}&limit=1`));
      expect(res.status, l.url).toBe(200);
    }
  });

  it("timestamps PostgreSQL would refuse", async () => {
    for (const l of lists.filter((x) => ["/cards", "/sets/{code}/cards", "/sealed"].includes(x.path))) {
      const { payload } = await realCursor(join(l.url, "orderBy=updated_at"));
      for (const ts of ["2020-01-01 00:00:00+99", "2020-01-01 00:00:00+16:00", "2020-01-01 00:00:00+05:61", "0000-01-01 00:00:00Z"]) {
        const k = [ts, ...payload.k.slice(1)];
        await expectInvalidCursor(join(l.url, `orderBy=updated_at&cursor=${b64({ ...payload, k })}`));
      }
    }
  });
});
