import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { urlOf } from "@/lib/api/context";
import { toWebRequest } from "@/server/http";

// The servers' stand-in for a bodiless Request (server/http.ts). Its URLs are parsed once and
// reused by later requests for the same URL: each request still reads its own headers.

const incoming = (url: string, headers: Record<string, string> = {}) =>
  ({ method: "GET", url, headers: { host: "api.test", ...headers } }) as unknown as IncomingMessage;

describe("toWebRequest (GET)", () => {
  it("reads the URL, method and headers as a Request has them", () => {
    const req = toWebRequest(incoming("/v1/cards?q=name:pikachu&limit=2", { "x-api-key": "k1" }), "fallback:1");
    expect(req.url).toBe("http://api.test/v1/cards?q=name:pikachu&limit=2");
    expect(req.method).toBe("GET");
    expect(req.headers.get("X-Api-Key")).toBe("k1");
    expect(urlOf(req).searchParams.get("limit")).toBe("2");
  });

  it("gives each request of a repeated URL the same reading, its own headers", () => {
    const a = toWebRequest(incoming("/v1/sets/MEW/cards?limit=1", { "x-api-key": "a" }), "f");
    const b = toWebRequest(incoming("/v1/sets/MEW/cards?limit=1", { "x-api-key": "b" }), "f");
    expect(urlOf(b).href).toBe(urlOf(a).href);
    expect([...urlOf(b).searchParams]).toEqual([["limit", "1"]]);
    expect([a.headers.get("x-api-key"), b.headers.get("x-api-key")]).toEqual(["a", "b"]);
  });

  it("parses a long URL too, and refuses one that does not parse, as Request does", () => {
    const long = `/v1/cards?q=${"a".repeat(2000)}`;
    expect(urlOf(toWebRequest(incoming(long), "f")).searchParams.get("q")).toHaveLength(2000);
    expect(() => toWebRequest({ method: "GET", url: "/v1", headers: { host: "bad host" } } as unknown as IncomingMessage, "f")).toThrow();
  });

  it("takes the fallback host when the request has none", () => {
    const req = toWebRequest({ method: "GET", url: "/v1/health", headers: {} } as unknown as IncomingMessage, "localhost:3400");
    expect(req.url).toBe("http://localhost:3400/v1/health");
  });
});
