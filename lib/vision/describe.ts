import { squareToQuad, type Quad } from "./outline";
import { kthSmallest } from "./select";

// What identification compares: the card's artwork, squared up, as a grid of mean colours.
// Each colour channel is normalised to zero mean and unit spread over the grid, which cancels
// exposure and colour casts; the grid's cells average away blur, noise and JPEG loss. The fine
// grid (24 × 15) re-ranks; its 3 × 3 block means (8 × 5) make the coarse vector that the
// in-memory search scans. Occlusions spoil a few cells: the fine distance drops the worst
// quarter of them. Glare can spoil half the artwork: it is modelled, cell by cell, as a blend
// toward white.

/** A part of the face, as shares of its width (x) and height (y). */
export type Region = { x0: number; y0: number; x1: number; y1: number };
/** The part of the face described, as shares of the card: inside the artwork's box with a margin. */
export const REGION = { x0: 0.12, y0: 0.165, x1: 0.88, y1: 0.47 } as const;
export const FINE = { w: 24, h: 15 } as const;
export const COARSE = { w: 8, h: 5 } as const;
export const FINE_LEN = FINE.w * FINE.h * 3;
export const COARSE_LEN = COARSE.w * COARSE.h * 3;
/** Samples per cell side when squaring up from a photo. */
const SS = 4;
/** int8 steps per unit of normalised colour. */
const Q = 40;

export type Rgb = { data: Buffer | Uint8Array; w: number; h: number };
/**
 * `white`: where pure white (255) lands on each channel's normalised scale (int8 steps), what a
 * glare lifts the photo's cells toward; only a photo's descriptor needs it.
 */
export type Descriptor = { fine: Int8Array; coarse: Int8Array; white: Float32Array };

/** Per-cell mean colours of the region, sampled through the homography of the card's quad. */
export function sampleRegion(rgb: Rgb, quad: Quad, region: Region = REGION, shift = { x: 0, y: 0 }): Float32Array {
  const m = squareToQuad(quad);
  const out = new Float32Array(FINE_LEN);
  const sw = FINE.w * SS;
  const sh = FINE.h * SS;
  const src = rgb.data;
  for (let j = 0; j < sh; j++) {
    const v = region.y0 + shift.y + ((region.y1 - region.y0) * (j + 0.5)) / sh;
    for (let i = 0; i < sw; i++) {
      const u = region.x0 + shift.x + ((region.x1 - region.x0) * (i + 0.5)) / sw;
      const z = m[6]! * u + m[7]! * v + 1;
      const sx = Math.min(rgb.w - 1.001, Math.max(0, (m[0]! * u + m[1]! * v + m[2]!) / z - 0.5));
      const sy = Math.min(rgb.h - 1.001, Math.max(0, (m[3]! * u + m[4]! * v + m[5]!) / z - 0.5));
      const x0 = Math.floor(sx);
      const y0 = Math.floor(sy);
      const fx = sx - x0;
      const fy = sy - y0;
      const o = ((Math.floor(j / SS) * FINE.w) + Math.floor(i / SS)) * 3;
      const i00 = (y0 * rgb.w + x0) * 3;
      const i10 = i00 + rgb.w * 3;
      for (let c = 0; c < 3; c++) {
        const top = src[i00 + c]! * (1 - fx) + src[i00 + 3 + c]! * fx;
        const bottom = src[i10 + c]! * (1 - fx) + src[i10 + 3 + c]! * fx;
        out[o + c]! += top * (1 - fy) + bottom * fy;
      }
    }
  }
  for (let k = 0; k < out.length; k++) out[k]! /= SS * SS;
  return out;
}

/** Per-cell mean colours of a raster that is exactly the region (a rendered artwork crop). */
export function cellsOf(rgb: Rgb): Float32Array {
  const out = new Float32Array(FINE_LEN);
  const count = new Float32Array(FINE.w * FINE.h);
  for (let y = 0; y < rgb.h; y++) {
    const cy = Math.min(FINE.h - 1, Math.floor((y * FINE.h) / rgb.h));
    for (let x = 0; x < rgb.w; x++) {
      const cell = cy * FINE.w + Math.min(FINE.w - 1, Math.floor((x * FINE.w) / rgb.w));
      const i = (y * rgb.w + x) * 3;
      for (let c = 0; c < 3; c++) out[cell * 3 + c]! += rgb.data[i + c]!;
      count[cell]!++;
    }
  }
  for (let k = 0; k < out.length; k++) out[k]! /= count[Math.floor(k / 3)]!;
  return out;
}

/** The normalised, quantised fine grid and its coarse block means. */
export function describe(cells: Float32Array): Descriptor {
  const n = FINE.w * FINE.h;
  const fine = new Int8Array(FINE_LEN);
  const z = new Float32Array(FINE_LEN);
  const white = new Float32Array(3);
  for (let c = 0; c < 3; c++) {
    let sum = 0;
    let sq = 0;
    for (let k = 0; k < n; k++) sum += cells[k * 3 + c]!;
    const mean = sum / n;
    for (let k = 0; k < n; k++) sq += (cells[k * 3 + c]! - mean) ** 2;
    // A flat channel (a grey card, a white wall) has no spread to normalise: keep it at zero.
    const sd = Math.max(Math.sqrt(sq / n), 4);
    for (let k = 0; k < n; k++) z[k * 3 + c] = (cells[k * 3 + c]! - mean) / sd;
    white[c] = ((255 - mean) / sd) * Q;
  }
  for (let k = 0; k < FINE_LEN; k++) fine[k] = Math.max(-127, Math.min(127, Math.round(z[k]! * Q)));
  const coarse = new Int8Array(COARSE_LEN);
  const bw = FINE.w / COARSE.w;
  const bh = FINE.h / COARSE.h;
  for (let cy = 0; cy < COARSE.h; cy++) {
    for (let cx = 0; cx < COARSE.w; cx++) {
      for (let c = 0; c < 3; c++) {
        let s = 0;
        for (let y = cy * bh; y < (cy + 1) * bh; y++) for (let x = cx * bw; x < (cx + 1) * bw; x++) s += z[(y * FINE.w + x) * 3 + c]!;
        coarse[(cy * COARSE.w + cx) * 3 + c] = Math.max(-127, Math.min(127, Math.round((s / (bw * bh)) * Q)));
      }
    }
  }
  return { fine, coarse, white };
}

/** The most of a cell a glare may whiten: past it the card under it is too faint to count. */
const GLARE_MAX = 0.85;

const SCRATCH = { res: new Float32Array(FINE.w * FINE.h), alpha: new Float32Array(FINE.w * FINE.h), order: new Float32Array(FINE.w * FINE.h) };

/** A channel's gain and offset from its weighted sums. */
function fitChannel(gain: number[], bias: number[], c: number, m: number, sx: number, sy: number, sxx: number, sxy: number): void {
  const den = m * sxx - sx * sx;
  // Gains are kept within reason: a card's contrast is never inverted or blown up by a photo.
  const g = den > 0 ? Math.max(0.8, Math.min(1.25, (m * sxy - sx * sy) / den)) : 1;
  gain[c] = g;
  bias[c] = m ? (sy - g * sx) / m : 0;
}

/**
 * Robust distance of a photo's fine grid `a` to a card's `b` (at `offset`): per channel, the
 * photo is fitted as gain × card + offset over the cells that agree best (three quarters,
 * chosen again after each fit), and the distance is the residual's share of the photo's own
 * spread over those cells, square-rooted (0 identical, about 1 unrelated). The fit
 * absorbs what glare and shadows do to the normalisation; the trimming drops occlusions
 * and whatever the outline left of the background.
 *
 * Given the photo's `white`, each cell may also be a glare's blend of the card with white,
 * (1 − α) × card + α × white, α from 0 to GLARE_MAX fitted per cell: a glare across half the
 * artwork (a lamp's reflection on a sleeve) otherwise spoils more cells than the trimming drops.
 * Only a lift toward white is explained, never a darkening or a change of hue.
 */
export function fineDistance(a: Int8Array, b: Int8Array, offset = 0, white?: Float32Array): number {
  const n = FINE.w * FINE.h;
  const keep = Math.floor(n * 0.75);
  const gain = [1, 1, 1];
  const bias = [0, 0, 0];
  // Scratch shared by every call (it runs to its end without yielding): identify makes hundreds
  // of calls a photo, and three arrays each were a share of its garbage.
  const { res, alpha, order } = SCRATCH;
  alpha.fill(0);
  let cut = Number.POSITIVE_INFINITY;
  let total = 0;
  // Locals, not the arrays' elements: this loop is most of identify's arithmetic.
  const w0 = white ? white[0]! : 0, w1 = white ? white[1]! : 0, w2 = white ? white[2]! : 0;
  for (let round = 0; round < 3; round++) {
    const g0 = gain[0]!, g1 = gain[1]!, g2 = gain[2]!, o0 = bias[0]!, o1 = bias[1]!, o2 = bias[2]!;
    for (let k = 0, i = 0, j = offset; k < n; k++, i += 3, j += 3) {
      const q0 = g0 * b[j]! + o0;
      const q1 = g1 * b[j + 1]! + o1;
      const q2 = g2 * b[j + 2]! + o2;
      let e0 = a[i]! - q0;
      let e1 = a[i + 1]! - q1;
      let e2 = a[i + 2]! - q2;
      if (white) {
        const d0 = w0 - q0;
        const d1 = w1 - q1;
        const d2 = w2 - q2;
        const dd = d0 * d0 + d1 * d1 + d2 * d2;
        const t = dd > 0 ? Math.max(0, Math.min(GLARE_MAX, (e0 * d0 + e1 * d1 + e2 * d2) / dd)) : 0;
        alpha[k] = t;
        e0 -= t * d0;
        e1 -= t * d1;
        e2 -= t * d2;
      }
      res[k] = e0 * e0 + e1 * e1 + e2 * e2;
    }
    // The `keep` smallest residuals: every one under the cut, and the cut as often as it fills them up.
    order.set(res);
    cut = kthSmallest(order, keep - 1);
    total = 0;
    let below = 0;
    for (let k = 0; k < n; k++) {
      if (res[k]! < cut) {
        total += res[k]!;
        below++;
      }
    }
    total += (keep - below) * cut;
    if (round === 2) break;
    // Least squares of gain and offset per channel over the cells within the cut, on the photo
    // with each cell's glare taken out, weighted by how much of the card shows through it. The
    // three channels in one pass over the cells: their weights are the same.
    let m = 0, sx0 = 0, sy0 = 0, sxx0 = 0, sxy0 = 0, sx1 = 0, sy1 = 0, sxx1 = 0, sxy1 = 0, sx2 = 0, sy2 = 0, sxx2 = 0, sxy2 = 0;
    for (let k = 0; k < n; k++) {
      if (res[k]! > cut) continue;
      const t = alpha[k]!;
      const w = (1 - t) * (1 - t);
      const i = k * 3;
      const x0 = b[offset + i]!, x1 = b[offset + i + 1]!, x2 = b[offset + i + 2]!;
      let y0 = a[i]!, y1 = a[i + 1]!, y2 = a[i + 2]!;
      if (t > 0) {
        y0 = (y0 - t * w0) / (1 - t);
        y1 = (y1 - t * w1) / (1 - t);
        y2 = (y2 - t * w2) / (1 - t);
      }
      m += w;
      sx0 += w * x0; sy0 += w * y0; sxx0 += w * x0 * x0; sxy0 += w * x0 * y0;
      sx1 += w * x1; sy1 += w * y1; sxx1 += w * x1 * x1; sxy1 += w * x1 * y1;
      sx2 += w * x2; sy2 += w * y2; sxx2 += w * x2 * x2; sxy2 += w * x2 * y2;
    }
    fitChannel(gain, bias, 0, m, sx0, sy0, sxx0, sxy0);
    fitChannel(gain, bias, 1, m, sx1, sy1, sxx1, sxy1);
    fitChannel(gain, bias, 2, m, sx2, sy2, sxx2, sxy2);
  }
  // Relative to the photo's own spread over the same cells (1 − R²): a card whose artwork is
  // mostly one flat colour would otherwise sit near every photo with a flat quarter.
  // Σ(x − mean)² = Σx² − (Σx)²/m, per channel, over the kept cells.
  let m = 0;
  let spread = 0;
  const sum = [0, 0, 0];
  for (let k = 0; k < n; k++) {
    if (res[k]! > cut) continue;
    m++;
    for (let c = 0; c < 3; c++) {
      const x = a[k * 3 + c]!;
      sum[c]! += x;
      spread += x * x;
    }
  }
  for (let c = 0; c < 3; c++) spread -= sum[c]! ** 2 / Math.max(1, m);
  return Math.sqrt(total / Math.max(spread, keep * 3 * (Q / 8) ** 2));
}
