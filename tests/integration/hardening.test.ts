import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { makeAccount } from "../helpers/accounts";
import { call, getJson, walk } from "../helpers/api";
import { count } from "../helpers/db";
import { expectEnvelope, expectError } from "../helpers/expect";
import { imageForm } from "../helpers/images";

// Inputs that once reached PostgreSQL as errors or ran for seconds. Each must be a clean 4xx
// in the envelope, or a correct answer.

const cursorOf = (payload: unknown) => Buffer.from(JSON.stringify(payload)).toString("base64url");

describe("a NUL character anywhere is a 400", () => {
  it.each([
    "/v1/cards/%00", "/v1/sets/%00", "/v1/sets/%00/cards", "/v1/artists/%00", "/v1/sealed/%00",
    "/v1/cards/batch?ids=%00", "/v1/sets?series=%00", "/v1/sealed?set=%00", "/v1/cards?q=id:%00", "/v1/cards?q=rarity:%22a%00%22",
  ])("%s", async (url) => {
    await expectError(url, 400, "INVALID_PARAMETER");
  });
});

describe("crafted cursors are INVALID_CURSOR, never a database error", () => {
  it.each([
    ["/v1/series", { r: "series", o: "-set_count,slug", k: [2147483648, "x"] }],
    ["/v1/cards?orderBy=hp", { r: "cards", o: "hp,id", k: [99999999999, "x"] }],
    ["/v1/sets", { r: "sets", o: "-release_date,code", k: ["2020-13-45", "x"] }],
    ["/v1/sets", { r: "sets", o: "-release_date,code", k: ["0000-01-01", "x"] }],
    ["/v1/sets", { r: "sets", o: "-release_date,code", k: ["2023-02-29", "x"] }],
    ["/v1/cards?orderBy=-updated_at", { r: "cards", o: "-updated_at,id", k: ["2020-01-01 99:99:99", "x"] }],
    ["/v1/artists", { r: "artists", o: "-card_count,slug", k: [1, "x\u0000"] }],
  ])("%s %j", async (url, payload) => {
    const sep = url.includes("?") ? "&" : "?";
    await expectError(`${url}${sep}cursor=${cursorOf(payload)}`, 400, "INVALID_CURSOR");
  });

  it("a leap day is a real date", async () => {
    const { res } = await getJson(`/v1/sets?cursor=${cursorOf({ r: "sets", o: "-release_date,code", k: ["2024-02-29", "x"] })}`);
    expect(res.status).toBe(200);
  });
});

describe("q values PostgreSQL would refuse", () => {
  it.each(["release_date:0000", "release_date:[0000 TO 2000]", "release_date:>=0000-02"])("%s is INVALID_QUERY", async (q) => {
    await expectError(`/v1/cards?q=${encodeURIComponent(q)}`, 400, "INVALID_QUERY");
  });
});

describe("broad name wildcards", () => {
  it("name:*a* scans instead of expanding thousands of words, and still finds every card", async () => {
    const n = await count(
      "select count(*)::int as n from cards c where c.deleted_at is null and exists (select 1 from unnest(c.name_terms) w where w like '%a%')",
    );
    const { body } = await getJson("/v1/cards?q=name:*a*&select=id&limit=1");
    expect(body.data).toHaveLength(1);
    const some = await walk("/v1/cards?q=name:*zar*&select=id&limit=250");
    const zar = await count(
      "select count(*)::int as n from cards c where c.deleted_at is null and exists (select 1 from unnest(c.name_terms) w where w like '%zar%')",
    );
    expect(some.rows).toHaveLength(zar);
    expect(n).toBeGreaterThan(zar);
  });

  it("refuses more than eight name wildcards", async () => {
    const q = Array.from({ length: 9 }, (_, i) => `name:*${"abcdefghi"[i]}*`).join(" OR ");
    await expectError(`/v1/cards?q=${encodeURIComponent(q)}`, 400, "INVALID_QUERY");
  });
});

describe("batch lookups of made-up ids", () => {
  it("resolves alternatives for many missing ids at once", async () => {
    const junk = Array.from({ length: 95 }, (_, i) => `${"a-".repeat(35)}${i}`);
    const ids = ["sv3pt5-06", "MEW-6", "base1-004", ...junk].join(",");
    const { res, body } = await getJson(`/v1/cards/batch?ids=${encodeURIComponent(ids)}&select=name`);
    expect(res.status).toBe(200);
    const alt = (id: string) => body.meta.missing.find((m: { id: string }) => m.id === id).alternatives.map((a: { id: string }) => a.id);
    expect(alt("sv3pt5-06")).toEqual(["sv3pt5-6"]);
    expect(alt("MEW-6")).toEqual(["sv3pt5-6"]);
    expect(alt("base1-004")).toEqual(["base1-4"]);
    expect(body.meta.missing).toHaveLength(98);
  });
});

describe("searches without letters match nothing", () => {
  it.each(["/v1/artists?q=!!!", "/v1/sets?q=!!!", "/v1/sealed?q=%25"])("%s", async (url) => {
    const { res, body } = await getJson(url);
    expect(res.status).toBe(200);
    expect(body.data).toEqual([]);
  });
});

describe("links.next", () => {
  it("ignores X-Forwarded-Host unless the deployment trusts its proxy", async () => {
    const { body } = await getJson("/v1/series?limit=2", { "x-forwarded-host": "evil.example", "x-forwarded-proto": "https", host: "api.test" });
    expect(body.links.next).toMatch(/^http:\/\/api\.test\/v1\/series\?/);
  });
});

describe("lang=ko", () => {
  it("is accepted (the reference vocabulary lists it) and falls back to English", async () => {
    const { res, body } = await getJson("/v1/cards/base1-4?lang=ko&select=name");
    expect(res.status).toBe(200);
    expect(body.data.name).toBe("Charizard");
  });
});

/** A PNG chunk: length, type, data, CRC of type and data. */
function pngChunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const head = Buffer.alloc(4);
  head.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([head, body, crc]);
}

/**
 * A valid black PNG of `side` × `side` pixels at one bit each: a few tens of kilobytes that
 * decode to hundreds of megapixels.
 */
function pngBomb(side: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 1; // bit depth; colour type 0 (grey), deflate, no filter method, no interlace
  const rows = Buffer.alloc((1 + Math.ceil(side / 8)) * side); // each row: filter byte 0, then zeros
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, pngChunk("IHDR", header), pngChunk("IDAT", zlib.deflateSync(rows, { level: 9 })), pngChunk("IEND", Buffer.alloc(0))]);
}

describe("a decompression bomb is refused before it is decoded", () => {
  // 256 megapixels: under sharp's own default limit (268 MP), so only the routes' bound refuses it.
  const bomb = pngBomb(16_000);

  it.each(["/v1/vision/identify", "/v1/centering/measure"])("%s: 400 INVALID_IMAGE naming the limit, refunded", async (path) => {
    expect(bomb.length).toBeLessThan(100_000);
    const growth = await makeAccount({ plan: "growth" });
    const res = await call("POST", path, { body: imageForm(bomb, "image/png", "bomb.png"), headers: { "x-api-key": growth.key } });
    const error = expectEnvelope(res, await res.json());
    expect({ status: res.status, code: error.code }).toEqual({ status: 400, code: "INVALID_IMAGE" });
    expect(error.message).toMatch(/more than 52428800 pixels/);
    expect(res.headers.get("x-credits-cost")).toBe("0");
    expect(res.headers.get("x-quota-remaining")).toBe(res.headers.get("x-quota-limit"));
  });
});
