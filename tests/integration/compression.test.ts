import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { makeAccount } from "../helpers/accounts";
import { call } from "../helpers/api";

// Large answers go out gzip-compressed to a client that accepts it (lib/api/compress.ts): the
// same JSON, the same cost, a validator of its own; small ones and other clients get plain bytes.

const PAGE = "/v1/sets/base1/cards?limit=100";

async function get(key: string, headers: Record<string, string> = {}) {
  const res = await call("GET", PAGE, { headers: { "x-api-key": key, ...headers } });
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
}

describe("gzip", () => {
  it("the same JSON compressed, at the same cost; either validator revalidates it for free", async () => {
    const acc = await makeAccount({ plan: "developer" });
    const plain = await get(acc.key);
    const gz = await get(acc.key, { "accept-encoding": "gzip, deflate, br" });
    expect(plain.res.status).toBe(200);
    expect(plain.res.headers.get("content-encoding")).toBeNull();
    expect(gz.res.headers.get("content-encoding")).toBe("gzip");
    expect(gz.res.headers.get("vary")).toMatch(/Accept-Encoding/);
    expect(gz.bytes.length).toBeLessThan(plain.bytes.length / 4);
    expect(JSON.parse(gunzipSync(gz.bytes).toString("utf8"))).toEqual(JSON.parse(plain.bytes.toString("utf8")));
    expect(gz.res.headers.get("x-credits-cost")).toBe(plain.res.headers.get("x-credits-cost"));
    const [etag, gzEtag] = [plain.res.headers.get("etag")!, gz.res.headers.get("etag")!];
    expect(gzEtag).not.toBe(etag);
    expect(gzEtag).toMatch(/^"[^"]+"$/);
    for (const tag of [etag, gzEtag]) {
      const again = await get(acc.key, { "accept-encoding": "gzip", "if-none-match": tag });
      expect(again.res.status, tag).toBe(304);
      expect(again.res.headers.get("x-credits-cost")).toBe("0");
    }
    // A client that does not accept gzip never matches on the compressed one's validator.
    expect((await get(acc.key, { "if-none-match": gzEtag })).res.status).toBe(200);
  });

  it("gzip;q=0 and small answers stay plain", async () => {
    const acc = await makeAccount({ plan: "developer" });
    expect((await get(acc.key, { "accept-encoding": "gzip;q=0, br" })).res.headers.get("content-encoding")).toBeNull();
    const small = await call("GET", "/v1/cards/base1-4", { headers: { "x-api-key": acc.key, "accept-encoding": "gzip" } });
    expect(small.status).toBe(200);
    expect(small.headers.get("content-encoding")).toBeNull();
  });
});
