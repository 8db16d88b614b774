import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { acceptsGzip, gzipEtag, gzipOf } from "@/lib/api/compress";

describe("acceptsGzip", () => {
  it.each([
    ["gzip", true], ["gzip, deflate, br", true], ["br;q=1.0, gzip;q=0.8", true], ["x-gzip", true], ["*", true],
    ["gzip;q=0", false], ["identity", false], ["br", false], ["*;q=0", false], ["", false], ["*, gzip;q=0", false], ["GZip", true],
  ])("%j → %s", (header, yes) => {
    expect(acceptsGzip(header)).toBe(yes);
  });
  it("no header: no compression", () => expect(acceptsGzip(null)).toBe(false));
});

describe("gzipOf", () => {
  const body = Buffer.from(JSON.stringify({ data: Array.from({ length: 500 }, (_, i) => ({ id: `base1-${i}`, name: "Pikachu" })) }));
  it("round-trips, smaller; a cached rendering is compressed once and its copies share it", () => {
    const cached = { body, etag: '"abc"', status: 200, packed: {} };
    const first = gzipOf(cached);
    expect(gunzipSync(first).equals(body)).toBe(true);
    expect(first.length).toBeLessThan(body.length / 5);
    const copy = Object.assign({}, cached, { hit: true });
    expect(gzipOf(copy)).toBe(first);
  });
  it("a one-off rendering is compressed each time, never kept", () => {
    const once = { body, etag: '"abc"', status: 200 };
    expect(gzipOf(once)).not.toBe(gzipOf(once));
  });
  it("the compressed representation has a strong validator of its own", () => {
    expect(gzipEtag('"abc"')).toBe('"abc-gz"');
  });
});
