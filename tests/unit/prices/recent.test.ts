import { describe, expect, it } from "vitest";
import { keyHash, packRecent, unpackRecent } from "@/lib/prices/queries/recent";

describe("stored series shapes", () => {
  it("recent points round-trip, observed_at kept only when it is not the start of as_of", () => {
    const points = [
      { as_of: "2026-11-21", amount: 12.5, sample_n: 4, observed_at: "2026-11-21T00:00:00Z" },
      { as_of: "2026-11-20", amount: 11, sample_n: null, observed_at: "2026-11-20T15:30:00Z" },
    ];
    const packed = packRecent(points);
    expect(packed).toEqual([["2026-11-21", 12.5, 4], ["2026-11-20", 11, null, "2026-11-20T15:30:00Z"]]);
    expect(unpackRecent(packed)).toEqual(points);
  });

  it("the key hash is an md5 in uuid form", () => {
    expect(keyHash("")).toBe("d41d8cd9-8f00-b204-e980-0998ecf8427e");
  });
});
