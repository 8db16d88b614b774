import { afterEach, describe, expect, it, vi } from "vitest";
import { routeSpecs } from "@/app/api/v1/routes";
import { buildOpenApi } from "@/lib/api/openapi";
import { requestId } from "@/lib/api/respond";

const bare = () => new Request("http://x/v1/health");

describe("requestId", () => {
  afterEach(() => vi.useRealTimers());

  it("is req_ and 24 hex digits, unique within one millisecond", () => {
    vi.useFakeTimers({ now: new Date("2026-11-26T12:00:00Z") });
    const ids = Array.from({ length: 5_000 }, () => requestId(bare()));
    for (const id of ids) expect(id).toMatch(/^req_[0-9a-f]{24}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("sorts in the order the ids were made, across milliseconds and years", () => {
    vi.useFakeTimers({ now: new Date("2026-11-26T12:00:00Z") });
    const ids: string[] = [];
    for (const step of [1, 1, 999, 3_600_000, 365 * 86_400_000]) {
      ids.push(requestId(bare()));
      vi.advanceTimersByTime(step);
    }
    expect([...ids].sort()).toEqual(ids);
    expect(ids[0]!.slice(4, 16)).toBe(Date.parse("2026-11-26T12:00:00Z").toString(16).padStart(12, "0"));
  });

  it("keeps a sane incoming X-Request-Id and replaces one of another shape", () => {
    const withId = (v: string) => new Request("http://x/v1/health", { headers: { "x-request-id": v } });
    expect(requestId(withId("trace-1234.abc:9"))).toBe("trace-1234.abc:9");
    expect(requestId(withId("short"))).toMatch(/^req_/);
    expect(requestId(withId("has space in it"))).toMatch(/^req_/);
    expect(requestId(withId("x".repeat(129)))).toMatch(/^req_/);
  });

  it("matches the shape the OpenAPI document publishes for X-Request-Id, which kept incoming ids follow too", () => {
    const doc = buildOpenApi(routeSpecs(), { version: "test" }) as { components: { headers: Record<string, { schema: { pattern: string } }> } };
    const pattern = new RegExp(doc.components.headers["X-Request-Id"]!.schema.pattern);
    expect(requestId(bare())).toMatch(pattern);
    for (const sent of ["trace-1234.abc:9", "short", "x".repeat(129)]) {
      const kept = requestId(new Request("http://x/v1/health", { headers: { "x-request-id": sent } })) === sent;
      expect(pattern.test(sent)).toBe(kept);
    }
  });
});
