import { describe, expect, it } from "vitest";
import { seeded } from "@/lib/vision/render";
import { kthSmallest } from "@/lib/vision/select";

describe("kthSmallest", () => {
  it("finds what a sort would put at k, for every k, with ties, runs and a single value", () => {
    const r = seeded("select");
    const cases = [
      Float32Array.from({ length: 360 }, () => r() * 1e4),
      Float32Array.from({ length: 101 }, () => Math.floor(r() * 5)),
      Float32Array.from({ length: 64 }, (_, i) => i),
      Float32Array.from({ length: 64 }, (_, i) => 64 - i),
      Float32Array.from({ length: 50 }, () => 3),
      Float32Array.of(7),
    ];
    for (const values of cases) {
      const sorted = Float32Array.from(values).sort();
      for (let k = 0; k < values.length; k++) expect(kthSmallest(Float32Array.from(values), k)).toBe(sorted[k]);
    }
  });

  it("refuses a k outside the array instead of answering undefined", () => {
    expect(() => kthSmallest(Float32Array.of(1, 2), 2)).toThrow(RangeError);
    expect(() => kthSmallest(new Float32Array(0), 0)).toThrow(RangeError);
  });
});
