import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "@/lib/api/errors";
import { toApiError } from "@/lib/api/pipeline";

describe("toApiError", () => {
  const quiet = vi.spyOn(console, "error").mockImplementation(() => {});
  afterEach(() => quiet.mockClear());

  it("passes an ApiError through", () => {
    const e = new ApiError("SET_NOT_FOUND", "nope");
    expect(toApiError(e, "req_1")).toBe(e);
  });

  it("recognises a database outage however deeply the drivers wrapped it", () => {
    const pg = Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" });
    const drizzle = Object.assign(new Error("Failed query: select 1"), { cause: pg });
    expect(toApiError(drizzle, "req_1").code).toBe("SERVICE_UNAVAILABLE");
    const dropped = Object.assign(new Error("Failed query: select 1"), { cause: new Error("Connection terminated unexpectedly") });
    expect(toApiError(dropped, "req_1").code).toBe("SERVICE_UNAVAILABLE");
    expect(toApiError(dropped, "req_1").headers).toMatchObject({ "retry-after": "5" });
  });

  it("hides everything else behind INTERNAL_ERROR with the request id", () => {
    const err = toApiError(new Error('syntax error at or near "select"'), "req_abc");
    expect(err.code).toBe("INTERNAL_ERROR");
    expect(err.message).not.toMatch(/syntax|select/);
    expect(err.message).toContain("req_abc");
  });
});
