import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe as group, expect, it } from "vitest";
import { COARSE_LEN, FINE, FINE_LEN, REGION, cellsOf, describe, fineDistance, sampleRegion } from "@/lib/vision/describe";
import { credible, MATCH } from "@/lib/vision/identify";
import { openIndex, writeIndex } from "@/lib/vision/index-file";
import { renderFaceRegion, seeded } from "@/lib/vision/render";
import { nearest } from "@/lib/vision/search";

const art = async (id: string) => {
  const [w, h] = [FINE.w * 4, FINE.h * 4];
  return { data: await renderFaceRegion(id, REGION, w, h), w, h };
};

group("artwork descriptors", () => {
  it("a colour cast and a change of exposure leave the descriptor almost unchanged; another card's is far", async () => {
    const a = await art("base1-4");
    const cast = { ...a, data: Buffer.from(a.data.map((v, i) => Math.min(255, Math.round(v * [0.8, 1.0, 1.15][i % 3]! * 0.9 + 10)))) };
    const d = describe(cellsOf(a));
    expect(fineDistance(d.fine, describe(cellsOf(cast)).fine)).toBeLessThan(0.08);
    expect(fineDistance(d.fine, describe(cellsOf(await art("base1-5"))).fine)).toBeGreaterThan(0.5);
  });

  it("the fine distance drops the worst quarter of cells: a patch of glare over a fifth of them costs little", async () => {
    const a = await art("sv3pt5-6");
    const d = describe(cellsOf(a));
    const glared = Buffer.from(a.data);
    // The left fifth of the region washed out to white.
    for (let y = 0; y < a.h; y++) for (let x = 0; x < a.w / 5; x++) for (let c = 0; c < 3; c++) glared[(y * a.w + x) * 3 + c] = 255;
    const g = describe(cellsOf({ ...a, data: glared }));
    expect(fineDistance(d.fine, g.fine)).toBeLessThan(0.35);
    expect(fineDistance(d.fine, d.fine)).toBe(0);
  });

  it("a glare's whitening over half the artwork is explained as glare, and explains no other artwork", async () => {
    const a = await art("sv3pt5-6");
    const d = describe(cellsOf(a));
    // A lamp's reflection: white blended in, strongest at the region's right, fading to nothing by its middle.
    const glared = Buffer.from(a.data);
    for (let y = 0; y < a.h; y++) for (let x = 0; x < a.w; x++) {
      const t = Math.max(0, (x / a.w - 0.45) / 0.55) * 0.8;
      for (let c = 0; c < 3; c++) glared[(y * a.w + x) * 3 + c] = Math.round((1 - t) * a.data[(y * a.w + x) * 3 + c]! + t * 255);
    }
    const g = describe(cellsOf({ ...a, data: glared }));
    const withGlare = fineDistance(g.fine, d.fine, 0, g.white);
    expect(withGlare).toBeLessThan(0.1);
    // Without the glare's model, the whitened half is more than the dropped quarter can hide.
    expect(fineDistance(g.fine, d.fine)).toBeGreaterThan(2 * withGlare);
    for (const other of ["base1-4", "base1-5", "xy1-1", "swsh1-1"]) {
      expect(fineDistance(g.fine, describe(cellsOf(await art(other))).fine, 0, g.white)).toBeGreaterThan(0.35);
    }
  });

  it("sampling a face through its quad gives the grid a crop of the same region gives", async () => {
    // A face-sized canvas whose region holds the artwork: the rest is grey.
    const W = 630;
    const H = 880;
    const a = await art("xy1-1");
    const x0 = Math.round(REGION.x0 * W);
    const y0 = Math.round(REGION.y0 * H);
    const rw = Math.round((REGION.x1 - REGION.x0) * W);
    const rh = Math.round((REGION.y1 - REGION.y0) * H);
    const sharp = (await import("sharp")).default;
    const crop = await sharp(a.data, { raw: { width: a.w, height: a.h, channels: 3 } }).resize(rw, rh, { fit: "fill" }).raw().toBuffer();
    const face = Buffer.alloc(W * H * 3, 128);
    for (let y = 0; y < rh; y++) crop.copy(face, ((y0 + y) * W + x0) * 3, y * rw * 3, (y + 1) * rw * 3);
    const quad = [{ x: 0, y: 0 }, { x: W, y: 0 }, { x: W, y: H }, { x: 0, y: H }] as const;
    const sampled = describe(sampleRegion({ data: face, w: W, h: H }, [...quad] as never));
    expect(fineDistance(sampled.fine, describe(cellsOf(a)).fine)).toBeLessThan(0.1);
  });
});

group("coarse search", () => {
  it("finds exactly the k nearest rows, nearest first", () => {
    const r = seeded("nearest");
    const n = 2000;
    const coarse = Int8Array.from({ length: n * COARSE_LEN }, () => Math.round((r() - 0.5) * 200));
    const q = Int8Array.from({ length: COARSE_LEN }, () => Math.round((r() - 0.5) * 200));
    const all = Array.from({ length: n }, (_, row) => {
      let d = 0;
      for (let j = 0; j < COARSE_LEN; j++) d += (q[j]! - coarse[row * COARSE_LEN + j]!) ** 2;
      return { row, d };
    }).sort((a, b) => a.d - b.d);
    expect(nearest(coarse, q, 10)).toEqual(all.slice(0, 10));
  });
});

group("no_match rule", () => {
  it("a close best is a match; a far one or one no nearer than the runner-up is not", () => {
    expect(credible(undefined, undefined)).toBe(false);
    expect(credible(MATCH.sureDistance, MATCH.sureDistance)).toBe(true);
    // Between the sure distance and the most a match may be, the runner-up decides.
    const d = (MATCH.sureDistance + MATCH.maxDistance) / 2;
    expect(credible(d, d / MATCH.maxRatio + 0.01)).toBe(true);
    expect(credible(d, d / MATCH.maxRatio - 0.01)).toBe(false);
    expect(credible(MATCH.maxDistance + 0.01, 5)).toBe(false);
  });
});

group("index file", () => {
  it("round-trips ids, stamps, coarse vectors, and fine grids read by row", async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "vision-")), "index.bin");
    const coarse = Int8Array.from({ length: 3 * COARSE_LEN }, (_, i) => (i % 250) - 125);
    const fine = Int8Array.from({ length: 3 * FINE_LEN }, (_, i) => (i % 200) - 100);
    await writeIndex({ meta: { version: 1, region: REGION, fine: FINE, built_at: "2026-11-22T00:00:00Z", build_seconds: 1, ids: ["a", "b", "c"], stamps: ["art", "x", "art"], real: 1 }, coarse, fine }, file);
    const idx = (await openIndex(file))!;
    expect(idx.meta.ids).toEqual(["a", "b", "c"]);
    expect(idx.coarse).toEqual(coarse);
    expect(await idx.fine(2)).toEqual(fine.subarray(2 * FINE_LEN));
    expect(await idx.allFine()).toEqual(fine);
    await idx.close();
  });
});
