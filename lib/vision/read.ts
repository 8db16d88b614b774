import sharp from "sharp";
import type { Rgb } from "./describe";
import { squareToQuad, type Quad } from "./outline";
import { FACE, ID_LINE, glyphSvg } from "./render";

// Reads the printing's line (render.ts ID_LINE: set code, number / printed total, language
// mark) off a squared-up card, to tell apart cards that share their artwork. The faces are
// drawn by our own renderer, in one fixed-pitch font at known places, so no general OCR is
// needed: a glyph matcher. Each character cell of the line is sampled through the outline's
// homography on a grid (CW × CH samples a cell), and compared with templates of the font's
// glyphs rendered once on the same grid. A candidate printing's expected line is its glyphs
// side by side (blurred as much as the photo is); the photo's line is fitted to it with one
// gain and offset (any exposure, cast or fill colour), and the residual's share of the line's
// variance (1 − R²) says how well the candidate's text explains what the photo shows.
// Candidates that share the artwork are then ranked by it; the best is trusted only when it
// explains the line well and clearly better than the runner-up.

export const CW = 10;
export const CH = 20;
/** The cell's height (face px): from the cap line over the ascent to a little below the baseline. */
const CELL_H = ID_LINE.size * 1.2;
const CELL_TOP = -ID_LINE.size * 0.95;
export const N = ID_LINE.cells;
const LINE_LEN = N * CW * CH;
/** Samples per sample point side (supersampling) when reading the photo. */
const SS = 2;

type Template = Float32Array;
const templates = new Map<string, Template>();
const pending = new Map<string, Promise<Template>>();

/** A glyph's template: the cell's appearance on the CW × CH grid, 1 paper, ~0.1 ink (the language cells: inverted, boxed). */
export async function template(ch: string, inverted: boolean): Promise<Template> {
  const key = `${inverted ? "i" : "n"}${ch}`;
  const have = templates.get(key);
  if (have) return have;
  let p = pending.get(key);
  if (!p) {
    p = (async () => {
      const K = 4;
      const [w, h] = [CW * K, CH * K];
      const vb = `0 ${CELL_TOP} ${ID_LINE.pitch} ${CELL_H}`;
      const bg = inverted ? `<rect x="-1" y="${CELL_TOP - 1}" width="${ID_LINE.pitch + 2}" height="${CELL_H + 2}" fill="#1a1a1a"/>` : "";
      const glyph = ch === " " ? "" : glyphSvg(ch, ID_LINE.pitch / 2, 0, inverted ? "#fafafa" : "#1a1a1a");
      const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="${vb}" preserveAspectRatio="none"><rect x="-1" y="${CELL_TOP - 1}" width="${ID_LINE.pitch + 2}" height="${CELL_H + 2}" fill="#ffffff"/>${bg}${glyph}</svg>`;
      const raw = await sharp(Buffer.from(svg)).greyscale().raw().toBuffer();
      const t = new Float32Array(CW * CH);
      for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) t[Math.floor(y / K) * CW + Math.floor(x / K)]! += raw[y * w + x]! / 255 / (K * K);
      templates.set(key, t);
      pending.delete(key);
      return t;
    })();
    pending.set(key, p);
  }
  return p;
}

/**
 * A printing's line laid out cell by cell: `put(cell, ch)` for each character shown, the text
 * from the first cell (a blank cell left before the mark), the language mark in the last two.
 * Cells not put are blank.
 */
export function layLine(text: string, lang: string, put: (cell: number, ch: string) => void): void {
  let i = 0;
  for (const ch of text) {
    if (i >= N - ID_LINE.langCells - 1) break;
    put(i++, ch);
  }
  i = N - ID_LINE.langCells;
  for (const ch of lang.slice(0, ID_LINE.langCells)) put(i++, ch);
}

/** The characters a printing's line shows, cell by cell (the language mark in the last two). */
export function lineCells(text: string, lang: string): string[] {
  const cells = Array.from({ length: N }, () => " ");
  layLine(text, lang, (i, ch) => (cells[i] = ch));
  return cells;
}

/** A line as the index records it ("MEW 6/165\tEN", index-file.ts), in its parts; EN when no mark is recorded. */
export function lineParts(record: string): { text: string; lang: string } {
  const tab = record.indexOf("\t");
  return tab < 0 ? { text: record, lang: "EN" } : { text: record.slice(0, tab), lang: record.slice(tab + 1) };
}

export const isLang = (i: number) => i >= N - ID_LINE.langCells;

/** Every character the line may show. */
export const GLYPHS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz/-.+!? ";
/** What the language mark's cells may show, inverted: the capitals and space. */
export const LANG_GLYPHS = GLYPHS.replace(/[^A-Z ]/g, "");

/** Templates of every character the line may show, rendered ahead (about 10 ms, once). */
export async function warmTemplates(chars = GLYPHS): Promise<void> {
  await Promise.all([...chars].flatMap((ch) => [template(ch, false), ...(LANG_GLYPHS.includes(ch) ? [template(ch, true)] : [])]));
}

/** The expected line of a printing, cell after cell, row-major within each cell. */
async function expected(cells: string[]): Promise<Float32Array> {
  const out = new Float32Array(LINE_LEN);
  const ts = await Promise.all(cells.map((ch, i) => template(ch, isLang(i))));
  ts.forEach((t, i) => out.set(t, i * CW * CH));
  return out;
}

/** A Gaussian's weights out to 2.5 σ either side (r of them), and their sum. */
export function gaussian(sigma: number): { r: number; k: number[]; ks: number } {
  const r = Math.ceil(sigma * 2.5);
  const k = Array.from({ length: 2 * r + 1 }, (_, i) => Math.exp(-((i - r) ** 2) / (2 * sigma * sigma)));
  return { r, k, ks: k.reduce((a, b) => a + b, 0) };
}

/** The blur (σ in samples of a cell's grid) a card `scale` times the face's width shows the line with. */
export const expectedBlur = (scale: number) => 0.9 / Math.max(0.2, scale) / (ID_LINE.pitch / CW);

/**
 * Where the line is and how blurred: from where the outline puts it, a pattern search over shifts
 * of up to 5 face px (steps of 2, 1 and 0.5) at the blur `base`, then that blur × 0.6 or × 1.6
 * when either fits better. `score` (the lower the better) judges a shift and blur.
 */
export function alignLine(base: number, score: (dx: number, dy: number, sigma: number) => number): { dx: number; dy: number; sigma: number; m: number } {
  let best = { dx: 0, dy: 0, sigma: base, m: score(0, 0, base) };
  for (const step of [2, 1, 0.5]) {
    for (let moves = 0; moves < 4; moves++) {
      let moved = false;
      for (const [dx, dy] of [[-step, 0], [step, 0], [0, -step], [0, step]] as const) {
        const [x, y] = [best.dx + dx, best.dy + dy];
        if (Math.abs(x) > 5 || Math.abs(y) > 5) continue;
        const m = score(x, y, best.sigma);
        if (m < best.m) {
          best = { ...best, m, dx: x, dy: y };
          moved = true;
        }
      }
      if (!moved) break;
    }
  }
  for (const sigma of [base * 0.6, base * 1.6]) {
    const m = score(best.dx, best.dy, sigma);
    if (m < best.m) best = { ...best, m, sigma };
  }
  return best;
}

/** Gaussian blur of a line (cells side by side) along both axes, σ in samples. */
function blurLine(src: Float32Array, sigma: number): Float32Array {
  if (sigma < 0.3) return src;
  const { r, k, ks } = gaussian(sigma);
  const W = N * CW;
  const at = (x: number, y: number) => src[(Math.floor(x / CW) * CH + y) * CW + (x % CW)]!;
  const tmp = new Float32Array(W * CH);
  for (let y = 0; y < CH; y++) for (let x = 0; x < W; x++) {
    let s = 0;
    for (let j = -r; j <= r; j++) s += k[j + r]! * at(Math.min(W - 1, Math.max(0, x + j)), y);
    tmp[y * W + x] = s / ks;
  }
  const out = new Float32Array(LINE_LEN);
  for (let y = 0; y < CH; y++) for (let x = 0; x < W; x++) {
    let s = 0;
    for (let j = -r; j <= r; j++) s += k[j + r]! * tmp[Math.min(CH - 1, Math.max(0, y + j)) * W + x]!;
    out[(Math.floor(x / CW) * CH + y) * CW + (x % CW)] = s / ks;
  }
  return out;
}

/** The photo's line sampled through the card's quad (upright), shifted by (dx, dy) face pixels. */
export function sampleLine(rgb: Rgb, quad: Quad, dx: number, dy: number): Float32Array {
  const m = squareToQuad(quad);
  const [m0, m1, m2, m3, m4, m5, m6, m7] = m as [number, number, number, number, number, number, number, number];
  const out = new Float32Array(LINE_LEN);
  // Locals: imported bindings and closures in this loop cost more than the arithmetic.
  const { x0: lineX, baseline, pitch } = ID_LINE;
  const [fw, fh] = [FACE.width, FACE.height];
  const sx = pitch / CW;
  const sy = CELL_H / CH;
  const top = baseline + CELL_TOP + dy;
  const src = rgb.data;
  const w = rgb.w;
  const [maxX, maxY] = [rgb.w - 1.001, rgb.h - 1.001];
  for (let i = 0; i < N; i++) {
    const left = lineX + i * pitch + dx;
    for (let cy = 0; cy < CH; cy++) {
      for (let cx = 0; cx < CW; cx++) {
        let acc = 0;
        for (let a = 0; a < SS; a++) {
          const v = (top + (cy + (a + 0.5) / SS) * sy) / fh;
          for (let b = 0; b < SS; b++) {
            const u = (left + (cx + (b + 0.5) / SS) * sx) / fw;
            const z = m6 * u + m7 * v + 1;
            const px = Math.min(maxX, Math.max(0, (m0 * u + m1 * v + m2) / z - 0.5));
            const py = Math.min(maxY, Math.max(0, (m3 * u + m4 * v + m5) / z - 0.5));
            const x0 = Math.floor(px), y0 = Math.floor(py);
            const ax = px - x0, ay = py - y0;
            const i00 = (y0 * w + x0) * 3;
            const i10 = i00 + w * 3;
            const l00 = 0.299 * src[i00]! + 0.587 * src[i00 + 1]! + 0.114 * src[i00 + 2]!;
            const l01 = 0.299 * src[i00 + 3]! + 0.587 * src[i00 + 4]! + 0.114 * src[i00 + 5]!;
            const l10 = 0.299 * src[i10]! + 0.587 * src[i10 + 1]! + 0.114 * src[i10 + 2]!;
            const l11 = 0.299 * src[i10 + 3]! + 0.587 * src[i10 + 4]! + 0.114 * src[i10 + 5]!;
            acc += (l00 * (1 - ax) + l01 * ax) * (1 - ay) + (l10 * (1 - ax) + l11 * ax) * ay;
          }
        }
        out[(i * CH + cy) * CW + cx] = acc / (SS * SS);
      }
    }
  }
  return out;
}

/** 1 − R² of the photo's line against an expected one, with one gain (≥ 0) and offset, over the cells in `use`. */
function misfit(obs: Float32Array, exp: Float32Array, use: (i: number) => boolean = () => true): number {
  let n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0, syy = 0;
  for (let i = 0; i < N; i++) {
    if (!use(i)) continue;
    for (let k = i * CW * CH; k < (i + 1) * CW * CH; k++) {
      const x = exp[k]!, y = obs[k]!;
      n++; sx += x; sy += y; sxx += x * x; sxy += x * y; syy += y * y;
    }
  }
  const vx = sxx - (sx * sx) / n, vy = syy - (sy * sy) / n, cxy = sxy - (sx * sy) / n;
  if (vy <= 1e-6 * n) return 1;
  if (vx <= 1e-9 || cxy <= 0) return 1;
  return Math.max(0, 1 - (cxy * cxy) / (vx * vy));
}

/** Each cell's squared residual after fitting the photo's line to `exp` with one gain and offset. */
function cellResiduals(obs: Float32Array, exp: Float32Array): Float32Array {
  let n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (let k = 0; k < LINE_LEN; k++) {
    const x = exp[k]!, y = obs[k]!;
    n++; sx += x; sy += y; sxx += x * x; sxy += x * y;
  }
  const den = n * sxx - sx * sx;
  const a = den > 0 ? Math.max(0, (n * sxy - sx * sy) / den) : 0;
  const b = (sy - a * sx) / n;
  const out = new Float32Array(N);
  for (let i = 0; i < N; i++) for (let k = i * CW * CH; k < (i + 1) * CW * CH; k++) out[i]! += (obs[k]! - a * exp[k]! - b) ** 2;
  return out;
}
export type Reading = {
  /** Per candidate, in the order given: 1 − R² of its line against the photo's (0 perfect, 1 nothing in common). */
  misfits: number[];
  /** The index of the best candidate, or -1 when the line could not be read well enough to choose. */
  best: number;
  /** Between the best two: (r2 − r1) / (r1 + r2) of their residuals on the cells where their lines differ (1 when one candidate). */
  gap: number;
  /** The best candidate's 1 − R². */
  misfit: number;
};

/** How well the best candidate must explain the line, and by how much better than the runner-up. */
export const READ = { maxMisfit: 0.6, minGap: 0.25 } as const;

/**
 * Ranks candidate printings (line text and language mark) by how well each explains the
 * photo's line. `scale`: the card's width in the photo over the face's, for the blur expected.
 */
export async function readPrinting(rgb: Rgb, quad: Quad, candidates: { text: string; lang: string }[], scale: number): Promise<Reading> {
  const exps = await Promise.all(candidates.map((c) => expected(lineCells(c.text, c.lang))));
  const blurred = new Map<number, Float32Array[]>();
  const blurredFor = (sigma: number) => {
    let b = blurred.get(sigma);
    if (!b) blurred.set(sigma, (b = exps.map((e) => blurLine(e, sigma))));
    return b;
  };
  const samples = new Map<string, Float32Array>();
  const sampleAt = (dx: number, dy: number) => {
    const k = `${dx},${dy}`;
    let s = samples.get(k);
    if (!s) samples.set(k, (s = sampleLine(rgb, quad, dx, dy)));
    return s;
  };
  // Against all candidates at once (their mean), so the alignment favours none of them.
  const meanOf = (xs: Float32Array[]) => {
    const m = new Float32Array(LINE_LEN);
    for (const x of xs) for (let k = 0; k < LINE_LEN; k++) m[k]! += x[k]! / xs.length;
    return m;
  };
  // Alignment: the outline is right to a pixel or two.
  const refs = new Map<number, Float32Array>();
  const refFor = (sigma: number) => {
    let r = refs.get(sigma);
    if (!r) refs.set(sigma, (r = meanOf(blurredFor(sigma))));
    return r;
  };
  const best = alignLine(expectedBlur(scale), (dx, dy, sigma) => misfit(sampleAt(dx, dy), refFor(sigma)));
  const obs = sampleAt(best.dx, best.dy);
  const exp = blurredFor(best.sigma);
  const misfits = exp.map((e) => misfit(obs, e));
  const order = misfits.map((m, i) => [m, i] as const).sort((a, b) => a[0] - b[0]);
  const [first, second] = [order[0], order[1]];
  let chosen = -1;
  let gap = 1;
  if (first && second) {
    // The two best, compared where their lines differ: each one's residual there.
    const cells = lineCells(candidates[first[1]]!.text, candidates[first[1]]!.lang);
    const other = lineCells(candidates[second[1]]!.text, candidates[second[1]]!.lang);
    const differ = (i: number) => cells[i] !== other[i];
    const r1 = cellResiduals(obs, exp[first[1]]!), r2 = cellResiduals(obs, exp[second[1]]!);
    let d1 = 0, d2 = 0;
    for (let i = 0; i < N; i++) if (differ(i)) { d1 += r1[i]!; d2 += r2[i]!; }
    gap = d1 + d2 > 0 ? (d2 - d1) / (d1 + d2) : 0;
  }
  if (first && first[0] <= READ.maxMisfit && gap >= READ.minGap) chosen = first[1];
  return { misfits, best: chosen, gap, misfit: first?.[0] ?? 1 };
}
