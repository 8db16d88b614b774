import sharp from "sharp";
import { MAX_INPUT_PIXELS, pixelLimitMessage } from "@/lib/vision/identify";
import { findCard, grayOf, onSquare, rectify, squareToQuad, widen, type Point, type Quad } from "@/lib/vision/outline";

// Centering from a flat scan: the card's outer edges against the background, then, scanning
// inward from each edge along many lines, where the border's colour ends and the frame begins.
// Each edge is the median of its scanlines; their spread gives the uncertainty. Positions are
// in the pixels of the image as uploaded (after EXIF rotation), so a person can move them and
// send them back to /v1/centering/confirm. A photo with the card in perspective or tilted is
// first squared up (the card's outline, then a homography onto an upright raster with a little
// of the table around it) and measured in that raster's pixels.

import { MIN_BORDERS, readFrame, readFrameOutward, uprightness, type FrameRead, type Way } from "./frame";
import { MeasureError, ratiosOf, round2, type Edges } from "./ratios";

export { MeasureError, ratiosOf, type Edges };
export type Measurement = {
  width: number; height: number;
  outer: Edges; inner: Edges;
  left_right: number; top_bottom: number;
  /** One standard uncertainty of each ratio, in percentage points. */
  uncertainty: { left_right: number; top_bottom: number };
  /**
   * Null for a flat scan. For a photo squared up first: the card's corners in the uploaded
   * image's pixels (top-left, top-right, bottom-right, bottom-left), the squared-up raster's
   * size, and where those corners land in it; `outer` and `inner` are then in that raster.
   */
  rectified: null | { quad: Quad; width: number; height: number; card: Edges };
};

const WORK = 900;

type Raster = { data: Buffer; w: number; h: number };

const at = (r: Raster, x: number, y: number) => {
  const i = (y * r.w + x) * 3;
  return [r.data[i]!, r.data[i + 1]!, r.data[i + 2]!] as const;
};
const dist = (a: readonly number[], b: readonly number[]) => Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

function mad(xs: number[]): number {
  const m = median(xs);
  return median(xs.map((x) => Math.abs(x - m))) * 1.4826;
}

/** The colour of the image's outer margin: the background the card lies on. */
function backgroundColour(r: Raster): number[] {
  const samples: number[][] = [];
  const m = Math.max(1, Math.round(Math.min(r.w, r.h) * 0.01));
  for (let x = 0; x < r.w; x += 3) samples.push([...at(r, x, m)], [...at(r, x, r.h - 1 - m)]);
  for (let y = 0; y < r.h; y += 3) samples.push([...at(r, m, y)], [...at(r, r.w - 1 - m, y)]);
  return [0, 1, 2].map((c) => median(samples.map((s) => s[c]!)));
}

/**
 * Along one scanline (a function from step to colour), the first step where the colour leaves
 * `from` by more than `threshold` and stays away for `hold` steps; -1 when it never does.
 */
function firstChange(len: number, colour: (i: number) => readonly number[], from: readonly number[], threshold: number, start = 0, hold = 3): number {
  let run = 0;
  for (let i = start; i < len; i++) {
    if (dist(colour(i), from) > threshold) {
      if (++run >= hold) return refine(len, colour, from, i - hold + 1);
    } else run = 0;
  }
  return -1;
}

/**
 * Sub-pixel position of the change found at step `k`: where the colour's distance from `from`
 * crosses half of its value a few steps further in (resampling spreads an edge over pixels).
 * Steps are pixel centres; the answer is a boundary (pixel k's left side is k).
 */
function refine(len: number, colour: (i: number) => readonly number[], from: readonly number[], k: number): number {
  const d = (i: number) => dist(colour(Math.min(len - 1, Math.max(0, i))), from);
  const target = d(k + 3) / 2;
  for (let i = k - 3; i <= k + 2; i++) {
    const a = d(i);
    const b = d(i + 1);
    if (a < target && b >= target) return i + 0.5 + (target - a) / (b - a);
  }
  return k;
}

/**
 * Edge positions along scanlines across the middle of the card, with their median, spread and
 * slope (pixels of edge per pixel along the side: a card lying square has none).
 */
function scan(lines: number[], find: (line: number) => number): { at: number; spread: number; slope: number } | null {
  const pairs = lines.map((l) => [l, find(l)] as const).filter(([, v]) => v >= 0);
  const found = pairs.map(([, v]) => v);
  if (found.length < lines.length / 3) return null;
  const mx = pairs.reduce((n, [l]) => n + l, 0) / pairs.length;
  const my = pairs.reduce((n, [, v]) => n + v, 0) / pairs.length;
  const sxx = pairs.reduce((n, [l]) => n + (l - mx) ** 2, 0);
  const slope = sxx ? pairs.reduce((n, [l, v]) => n + (l - mx) * (v - my), 0) / sxx : 0;
  return { at: median(found), spread: mad(found) / Math.sqrt(found.length), slope };
}

const LINES = 40;
/**
 * Colour distance at which the border ends. Low enough for a frame printed in a colour close
 * to the border's own (a yellow Lightning frame inside a yellow border is about 34 away); the
 * 3-pixel hold keeps noise and JPEG ringing from ending it early.
 */
const INNER_THRESHOLD = 22;
const between = (a: number, b: number, n: number) => Array.from({ length: n }, (_, i) => Math.round(a + ((b - a) * (i + 0.5)) / n));


type Side = keyof Edges;

/**
 * Scanning inward from pixel `start` on `side` along row or column `line`, for at most `limit`
 * pixels: the boundary where the colour leaves `ref` (default: the start pixel's own colour),
 * or -1. Boundaries are pixel edges: a left edge is its first pixel, a right edge its last + 1.
 */
function inward(r: Raster, side: Side, line: number, start: number, limit: number, threshold: number, ref?: readonly number[]): number {
  const forward = side === "left" || side === "top";
  const pixel = side === "left" || side === "right"
    ? (k: number) => at(r, forward ? start + k : start - k, line)
    : (k: number) => at(r, line, forward ? start + k : start - k);
  const i = firstChange(limit, pixel, ref ?? pixel(0), threshold);
  if (i < 0) return -1;
  return forward ? start + i : start + 1 - i;
}

export async function measureCentering(input: Buffer): Promise<Measurement> {
  const img = sharp(input, { failOn: "error", limitInputPixels: MAX_INPUT_PIXELS }).rotate();
  const meta = await img.metadata().catch((err: unknown) => {
    const tooLarge = pixelLimitMessage(err);
    throw tooLarge ? new MeasureError(tooLarge) : err;
  });
  const uploaded = { w: meta.autoOrient?.width ?? meta.width ?? 0, h: meta.autoOrient?.height ?? meta.height ?? 0 };
  const photo = await squaredUp(img, uploaded.w);
  if (photo) {
    const m = measureSquared(photo.raster, photo.rectified, photo.score, photo.toPhoto);
    // A card lying square is measured flat below, in the upload's own pixels, unless it lies
    // upside down: then its lines are given in the raster turned the right way up.
    if (m && (!photo.flat || m.way === "flipped")) return { ...m.measurement, width: uploaded.w, height: uploaded.h };
    // Measured flat below, as if the outline had not been found.
  }
  const { data, info } = await img.clone().resize({ width: WORK, height: WORK, fit: "inside" }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const r: Raster = { data, w: info.width, h: info.height };
  // The upload's own size, not the working raster's scaled back (734 × 1025 came out 734 × 1026).
  const size = uploaded.w && uploaded.h ? { width: uploaded.w, height: uploaded.h } : {};
  return { ...measureRaster(r, (uploaded.w || info.width) / info.width), ...size, rectified: null };
}

/** Longest side a photo is looked for a card at, and squared up from. */
const PHOTO = 1800;
/** The squared-up card's height in pixels (the width follows from 63 × 88 mm), and the table shown around it. */
const CARD_H = 830;
const CARD_W = Math.round((CARD_H * 63) / 88);
/** Wide enough to hold the border when the outline found is the printed frame (frame.ts's readFrameOutward). */
const MARGIN = Math.round(0.12 * CARD_H);

/**
 * A photo's card squared up, or null when no outline is found. `flat`: the outline's sides all
 * run within a degree of the image's axes (a flat scan: measured as it is, unless upside down).
 */
async function squaredUp(img: ReturnType<typeof sharp>, uploadedWidth: number): Promise<{ raster: Raster; rectified: NonNullable<Measurement["rectified"]>; score: number; flat: boolean; toPhoto: (x: number, y: number) => Point } | null> {
  const { data, info } = await img.clone().resize({ width: PHOTO, height: PHOTO, fit: "inside", withoutEnlargement: true }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const rgb = { data, w: info.width, h: info.height };
  const found = findCard(grayOf(rgb), { outside: true });
  if (!found) return null;
  const q = found.quad;
  const tilt = Math.max(...q.map((a, k) => {
    const b = q[(k + 1) % 4]!;
    const deg = (Math.atan2(b.y - a.y, b.x - a.x) * 180) / Math.PI;
    return Math.abs(((deg % 90) + 135) % 90 - 45);
  }));
  const flat = tilt < 1;
  // The raster's corners: the card's square extended by the margin, carried into the photo.
  const [w, h] = [CARD_W + 2 * MARGIN, CARD_H + 2 * MARGIN];
  const wide = widen(q, MARGIN / CARD_W, MARGIN / CARD_H);
  const raster = { data: rectify(rgb, wide, w, h), w, h };
  // Corners in the uploaded image, as pixel edges like `outer` (the outline's are pixel centres).
  const scale = (uploadedWidth || info.width) / info.width;
  const quad = q.map((p) => ({ x: round1((p.x + 0.5) * scale), y: round1((p.y + 0.5) * scale) })) as Quad;
  // A point of the raster (pixel edges) in the uploaded image (pixel edges).
  const m = squareToQuad(wide);
  const toPhoto = (x: number, y: number) => {
    const p = onSquare(m, x / w, y / h);
    return { x: round1((p.x + 0.5) * scale), y: round1((p.y + 0.5) * scale) };
  };
  return { raster, rectified: { quad, width: w, height: h, card: { left: MARGIN, right: MARGIN + CARD_W, top: MARGIN, bottom: MARGIN + CARD_H } }, score: found.score, flat, toPhoto };
}

/**
 * An uncertainty no reading we doubt goes below, in points: a frame that may be on the wrong
 * edge can be off by anything, and the answer says so rather than look precise.
 */
export const DOUBTFUL_PP = 10;

const px = (e: Edges) => ({ left: round1(e.left), right: round1(e.right), top: round1(e.top), bottom: round1(e.bottom) });

/** Each border's width is uncertain by its two edges' spreads and half a working pixel: one standard uncertainty of the ratio, in points. */
const ratioU = (a: number, b: number, s: number[]) => (100 * Math.sqrt(s.reduce((n, x) => n + x * x + 0.083, 0)) * Math.max(a, b)) / (a + b) ** 2;

/**
 * Centering on a squared-up photo (frame.ts): edges on averaged profiles, the card turned the
 * right way up (an upside-down card swaps left with right and top with bottom: its corners are
 * reordered and the lines mirrored, so that confirm computes the same ratios from them). Null
 * when no frame is found at all (the caller measures the photo flat).
 */
function measureSquared(r: Raster, rect: NonNullable<Measurement["rectified"]>, score: number, toPhoto: (x: number, y: number) => Point): { measurement: Omit<Measurement, "width" | "height">; way: Way } | null {
  let read: FrameRead | null = readFrame(r, rect.card);
  // Borders too thin for a card: the outline may be on the printed frame. Read outward from it;
  // kept when that reading has no doubt of its own, the card's corners then those it found.
  if (!read || read.doubts.some((d) => d.includes("under 6 %"))) {
    const out = readFrameOutward(r, rect.card);
    if (out && !out.doubts.length) {
      read = out;
      const o = out.outer;
      rect = { ...rect, card: { left: round1(o.left), right: round1(o.right), top: round1(o.top), bottom: round1(o.bottom) }, quad: [toPhoto(o.left, o.top), toPhoto(o.right, o.top), toPhoto(o.right, o.bottom), toPhoto(o.left, o.bottom)] };
    }
  }
  if (!read) return null;
  let { outer, inner } = read;
  const s = read.spread;
  let spreads = { lr: [s.outerLeft, s.outerRight, s.left, s.right], tb: [s.outerTop, s.outerBottom, s.top, s.bottom] };
  const doubts = [...read.doubts];
  if (score < 0.6) doubts.push("the card's outline is faint");
  const up = uprightness(r, inner);
  const way = up.way;
  let quad = rect.quad;
  if (way === "flipped") {
    const mirror = (e: Edges): Edges => ({ left: r.w - e.right, right: r.w - e.left, top: r.h - e.bottom, bottom: r.h - e.top });
    [outer, inner] = [mirror(outer), mirror(inner)];
    quad = [quad[2], quad[3], quad[0], quad[1]];
    spreads = { lr: [s.outerRight, s.outerLeft, s.right, s.left], tb: [s.outerBottom, s.outerTop, s.bottom, s.top] };
  }
  // Ratios from the lines as returned (a tenth of a pixel), so that confirm gives back the same.
  outer = px(outer);
  inner = px(inner);
  let ratios: { left_right: number; top_bottom: number };
  try {
    ratios = ratiosOf(outer, inner);
  } catch {
    return null;
  }
  const lw = inner.left - outer.left, rw = outer.right - inner.right, tw = inner.top - outer.top, bw = outer.bottom - inner.bottom;
  let u = { left_right: ratioU(lw, rw, spreads.lr), top_bottom: ratioU(tw, bw, spreads.tb) };
  // A doubtful reading may have an edge on the table or the frame: at least DOUBTFUL_PP. Like one
  // that cannot tell which way up the card lies, it cannot say which side is the larger either:
  // its uncertainty reaches 50/50.
  const floor = (ratio: number) => Math.max(doubts.length ? DOUBTFUL_PP : 0, doubts.length || way === null ? Math.abs(ratio - 50) : 0);
  u = { left_right: Math.max(u.left_right, floor(ratios.left_right)), top_bottom: Math.max(u.top_bottom, floor(ratios.top_bottom)) };
  return {
    way,
    measurement: {
      outer: px(outer), inner: px(inner), left_right: ratios.left_right, top_bottom: ratios.top_bottom,
      uncertainty: { left_right: round2(u.left_right), top_bottom: round2(u.top_bottom) },
      rectified: { quad, width: rect.width, height: rect.height, card: rect.card },
    },
  };
}

/** Centering on an upright raster; `scale` turns its pixels into the reported ones. */
function measureRaster(r: Raster, scale: number): Omit<Measurement, "rectified"> {
  const bg = backgroundColour(r);

  // Outer edges: where the background ends, scanning in from each side across the middle.
  const rows = between(r.h * 0.3, r.h * 0.7, LINES);
  const cols = between(r.w * 0.3, r.w * 0.7, LINES);
  const fromImage = { left: 0, right: r.w - 1, top: 0, bottom: r.h - 1 };
  const outerScan = (side: Side) => scan(side === "left" || side === "right" ? rows : cols, (line) =>
    inward(r, side, line, fromImage[side], side === "left" || side === "right" ? r.w : r.h, 40, bg));
  const o = { left: outerScan("left"), right: outerScan("right"), top: outerScan("top"), bottom: outerScan("bottom") };
  // A scan cropped to the card has no background: the image's edges are the card's.
  const outer: Edges = { left: o.left?.at ?? 0, right: o.right?.at ?? r.w, top: o.top?.at ?? 0, bottom: o.bottom?.at ?? r.h };
  if (outer.right - outer.left < r.w * 0.2 || outer.bottom - outer.top < r.h * 0.2) throw new MeasureError("No card found: the card's edges must stand out from the background.");

  // Inner frame: scanning inward from just inside each outer edge, where the border's colour ends.
  const cw = outer.right - outer.left;
  const ch = outer.bottom - outer.top;
  const inset = Math.max(2, Math.round(Math.min(cw, ch) * 0.008));
  const innerRows = between(outer.top + ch * 0.3, outer.top + ch * 0.7, LINES);
  const innerCols = between(outer.left + cw * 0.3, outer.left + cw * 0.7, LINES);
  const fromBorder = {
    left: Math.ceil(outer.left) + inset, right: Math.floor(outer.right) - 1 - inset,
    top: Math.ceil(outer.top) + inset, bottom: Math.floor(outer.bottom) - 1 - inset,
  };
  const innerScan = (side: Side) => {
    const across = side === "left" || side === "right";
    return scan(across ? innerRows : innerCols, (line) => inward(r, side, line, fromBorder[side], Math.round((across ? cw : ch) * 0.25), INNER_THRESHOLD));
  };
  const left = innerScan("left");
  const right = innerScan("right");
  const top = innerScan("top");
  const bottom = innerScan("bottom");
  if (!left || !right || !top || !bottom) throw new MeasureError("No frame found inside the card's border: a borderless (full-art) card has no centering to measure.");

  const inner: Edges = { left: left.at, right: right.at, top: top.at, bottom: bottom.at };
  const ratios = ratiosOf(outer, inner);
  // Measured as it lies, a card must lie square (a tilted one whose outline was not found
  // is measured along the wrong lines) and upright (upside down, its sides are swapped).
  const tilted = [o.left, o.right, o.top, o.bottom].some((e) => e && Math.abs(e.slope) > 0.012);
  const flipped = uprightness(r, inner).way === "flipped";
  const lw = inner.left - outer.left;
  const rw = outer.right - inner.right;
  const tw = inner.top - outer.top;
  const bw = outer.bottom - inner.bottom;
  // Borders no card prints (under 6 % of its width for two, as frame.ts doubts on a photo): the
  // "card" may be a picture of something else, or its frame read as its edge.
  const thin = (lw + rw) / cw < MIN_BORDERS || (tw + bw) / cw < MIN_BORDERS;
  const doubtful = tilted || thin;
  // Each border's width is uncertain by its two edges' spreads and half a working pixel.
  const u = (a: number, b: number, s: number[]) => (100 * Math.sqrt(s.reduce((n, x) => n + x * x + 0.083, 0)) * Math.max(a, b)) / (a + b) ** 2;
  const doubt = (ratio: number, x: number) => Math.max(x, doubtful ? DOUBTFUL_PP : 0, doubtful || flipped ? Math.abs(ratio - 50) : 0);
  const px = (e: Edges) => ({ left: round1(e.left * scale), right: round1(e.right * scale), top: round1(e.top * scale), bottom: round1(e.bottom * scale) });
  return {
    width: Math.round(r.w * scale), height: Math.round(r.h * scale), outer: px(outer), inner: px(inner),
    left_right: ratios.left_right, top_bottom: ratios.top_bottom,
    uncertainty: {
      left_right: round2(doubt(ratios.left_right, u(lw, rw, [o.left?.spread ?? 0.5, o.right?.spread ?? 0.5, left.spread, right.spread]))),
      top_bottom: round2(doubt(ratios.top_bottom, u(tw, bw, [o.top?.spread ?? 0.5, o.bottom?.spread ?? 0.5, top.spread, bottom.spread]))),
    },
  };
}

const round1 = (n: number) => Math.round(n * 10) / 10;
