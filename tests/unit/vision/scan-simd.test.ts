import { describe, expect, it } from "vitest";
import { COARSE_LEN } from "@/lib/vision/describe";
import { simdScanner } from "@/lib/vision/scan-simd";
import { nearest } from "@/lib/vision/search";
import { seeded } from "@/lib/vision/render";

// The coarse scan in WebAssembly SIMD gives exactly the plain scan's distances and ranking.

function vectors(n: number, seed: string): Int8Array {
  const r = seeded(seed);
  const v = new Int8Array(n * COARSE_LEN);
  for (let i = 0; i < v.length; i++) v[i] = Math.floor(r() * 256) - 128;
  return v;
}

describe("the SIMD coarse scan", () => {
  it("gives every row's squared distance exactly, extremes included (−128 against 127)", () => {
    const n = 3001;
    const coarse = vectors(n, "scan-rows");
    coarse.fill(127, 0, COARSE_LEN);
    const scanner = simdScanner(coarse, COARSE_LEN);
    expect(scanner).not.toBeNull();
    for (const [i, q] of [vectors(1, "scan-q1"), new Int8Array(COARSE_LEN).fill(-128), vectors(1, "scan-q2")].entries()) {
      const got = scanner!.distances(q);
      let wrong = 0;
      for (let r = 0; r < n; r++) {
        let s = 0;
        for (let j = 0; j < COARSE_LEN; j++) s += (q[j]! - coarse[r * COARSE_LEN + j]!) ** 2;
        if (got[r] !== s) wrong++;
      }
      expect(wrong, `query ${i}`).toBe(0);
    }
    expect(scanner!.distances(new Int8Array(COARSE_LEN).fill(-128))[0]).toBe(255 * 255 * COARSE_LEN);
  });

  it("ranks the nearest rows as the plain scan does, ties in row order", () => {
    const coarse = vectors(5000, "scan-rank");
    // Duplicates tie: the earlier row comes first either way.
    coarse.copyWithin(4000 * COARSE_LEN, 10 * COARSE_LEN, 11 * COARSE_LEN);
    const q = Int8Array.from(coarse.subarray(10 * COARSE_LEN, 11 * COARSE_LEN), (x, j) => (j % 7 ? x : x >> 1));
    const simd = nearest(coarse, q, 48);
    expect(simd).toEqual(nearest(coarse, q, 48, false));
    expect(simd.slice(0, 2).map((h) => h.row)).toEqual([10, 4000]);
  });
});
