import { area, cardWidth, coarseQuads, convex, downscale } from "./coarse";
import { colourAt, cornersOf, framed, lerp, medianColour, refineSides, scaleLines, snapSides, type Line as Side, type Snapped } from "./refine";

// Finding a card in a photo and squaring it up, on the CPU without a vision library: card-shaped
// quadrilaterals from straight lines on a small copy (coarse.ts) → their sides snapped onto the
// card's edges and refined to a fraction of a pixel (refine.ts) → a homography that maps the
// card onto an upright raster.

export type Gray = {
  data: Float32Array; w: number; h: number;
  /** The RGB raster (3 bytes a pixel) the luminance came from, when known: edges between colours of equal luminance show too. */
  rgb?: Buffer;
};
/** A point in pixels; pixel (i, j)'s centre is the point (i, j). */
export type Point = { x: number; y: number };
/** Corners in order: top-left, top-right, bottom-right, bottom-left. */
export type Quad = [Point, Point, Point, Point];
/** A w × h image's own edges as a quad: the whole frame read as the card. */
export const wholeQuad = (w: number, h: number): Quad => [{ x: 0, y: 0 }, { x: w, y: 0 }, { x: w, y: h }, { x: 0, y: h }];
/** An image with `c` interleaved channels a pixel: luminance alone, or red, green and blue. */
export type Planes = { data: ArrayLike<number>; w: number; h: number; c: number };

const planesOf = (g: Gray): Planes =>
  g.rgb && g.rgb.length >= g.w * g.h * 3 ? { data: g.rgb, w: g.w, h: g.h, c: 3 } : { data: g.data, w: g.w, h: g.h, c: 1 };

/** Whether every corner of `a` lies within `tol` pixels of the same corner of `b`. */
export const sameQuad = (a: Quad, b: Quad, tol: number) => a.every((p, i) => Math.hypot(p.x - b[i]!.x, p.y - b[i]!.y) < tol);

/** Orders four corners clockwise from the top-left, the card upright (its long sides vertical). */
export function orderCorners(pts: Point[]): Quad {
  const c = { x: pts.reduce((n, p) => n + p.x, 0) / 4, y: pts.reduce((n, p) => n + p.y, 0) / 4 };
  // Each corner's angle worked out once, not in every comparison (thousands of quads a photo).
  const byAngle = pts.map((p) => ({ p, a: Math.atan2(p.y - c.y, p.x - c.x) })).sort((a, b) => a.a - b.a).map((k) => k.p);
  // Start where the corner sum x + y is least (top-left in image terms).
  let start = 0;
  byAngle.forEach((p, i) => { if (p.x + p.y < byAngle[start]!.x + byAngle[start]!.y) start = i; });
  let q = [0, 1, 2, 3].map((k) => byAngle[(start + k) % 4]!) as Quad;
  const len = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y);
  // A card lying on its side: rotate the order so that the long sides run top to bottom.
  if (len(q[0], q[1]) + len(q[2], q[3]) > len(q[1], q[2]) + len(q[3], q[0])) q = [q[3], q[0], q[1], q[2]];
  // Of the two upright readings (180° apart), the one starting nearer the image's top-left.
  if (q[2].x + q[2].y < q[0].x + q[0].y) q = [q[2], q[3], q[0], q[1]];
  return q;
}

/** Luminance (0..255) of an RGB raster, which it keeps for findCard's edges. */
export function grayOf(rgb: { data: Buffer; w: number; h: number }): Gray {
  // Worked out when first read: findCard's edges are the colour's, and identify never reads it.
  let data: Float32Array | undefined;
  return {
    get data() {
      return (data ??= luminance(rgb));
    },
    w: rgb.w, h: rgb.h, rgb: rgb.data,
  };
}

function luminance(rgb: { data: Buffer; w: number; h: number }): Float32Array {
  const n = rgb.w * rgb.h;
  const data = new Float32Array(n);
  const d = rgb.data;
  for (let i = 0, j = 0; i < n; i++, j += 3) data[i] = 0.299 * d[j]! + 0.587 * d[j + 1]! + 0.114 * d[j + 2]!;
  return data;
}

/** The weakest colour step (over two pixels) an edge is looked for at on the half-size copy, where refine.ts's default misses a card on a table of nearly its own colour. */
const FAINT_STEP = 6;

/** Longest side of the small copy the lines are looked for on: a third of an 800 px photo. */
export const COARSE_SIDE = 300;

/**
 * The card's outline in `g`, corners to a fraction of a pixel, ordered by orderCorners; null when
 * nothing card-like is found. Lines are found on a small copy (fast), the few quads they close
 * snapped onto the outermost edges near them and the card's among them kept, then refined on the
 * full image. `score` (0..1): the share of each side's sample points on its edge, pulled down by
 * the worst side, times how many sides have the border's colour inside them and a printed frame
 * inside that. A card scores about 0.75-1; clutter with no card in it rarely over 0.6, and under
 * 0.4 findCard answers null. Give `g` its colour (grayOf does): edges between colours of equal
 * luminance are lost without it. `outside`: also look for the card's own faint edge outside the
 * one found (widerFaint), which centering needs and identification, whose artwork is squared up
 * as well from the printed frame, does without (it costs a half-size copy, 6-10 ms a photo).
 * Pixel (i, j)'s centre is the point (i, j).
 */
export function findCard(g: Gray, o: { lines?: number; outside?: boolean } = {}): { quad: Quad; score: number } | null {
  const { k, planes, small, done } = copiesOf(g);
  const once = <T>(key: string, work: () => T): T => {
    if (!done.has(key)) done.set(key, work());
    return done.get(key) as T;
  };
  const snapOnce = (q: Quad) => once(`snap ${JSON.stringify(q)}`, () => snapSides(small, q));
  const rate = (support: number[]) => Math.min(support.reduce((s, x) => s + x, 0) / 4, 1.5 * Math.min(...support));
  type Candidate = { lines: Side[]; quad: Quad; score: number; area: number; border: number; colour?: number[] };
  const found: Candidate[] = [];
  const seen: Quad[] = [];
  for (const q of coarseQuads(small, 8, o.lines)) {
    // Twice: a rough line on the artwork's box reaches the frame first, the card's edge next.
    const first = snapOnce(q);
    const again = first && cornersOf(first.lines);
    if (!again || seen.some((s) => sameQuad(s, again, 1))) continue;
    seen.push(again);
    const r = snapOnce(again);
    const quad = r && cornersOf(r.lines);
    if (!r || !quad || !convex(orderCorners(quad))) continue;
    found.push({ lines: r.lines, quad, score: rate(r.support), area: area(quad), border: r.border, colour: r.colour });
  }
  found.sort((a, b) => b.score - a.score);
  let best = found[0];
  if (!best) return null;
  // The card's own lines close smaller quads too (the art box and the border below it make a
  // well-supported "card"): a reasonably supported quad around the best one is the card.
  // It must have the border's colour inside as many sides, counted on the full image if the
  // small one blurs a thin border (a card far off centre) into its frame.
  const floor = Math.max(0.45, 0.7 * best.score);
  // A rough quad's sides on a larger copy `p`: onto the outermost edge near them again.
  const snapOn = (p: Planes, rough: Quad | null, known?: number[], least?: number) => (rough ? snapSides(p, rough, { in: 0.02, out: 0.06 }, known, least) : null);
  const onFull = (c: Candidate, known?: number[]) => (k > 1 ? once(`full ${JSON.stringify([c.lines, known])}`, () => snapOn(planes, cornersOf(scaleLines(c.lines, k)), known)) : null);
  const fullBorder = (c: Candidate) => onFull(c)?.border ?? c.border;
  for (let next: Candidate | undefined = best; next; ) {
    best = next;
    const inner: Candidate = best;
    next = found.find((c) => c.area > inner.area * 1.02 && c.score >= floor && covered(inner.quad, grow(orderCorners(c.quad), 0.02)) >= 0.9 &&
      (c.border >= inner.border || fullBorder(c) >= fullBorder(inner)));
  }
  // The same card found with more lines (identify.ts) is refined once.
  const chosen = best;
  return once(`fine ${JSON.stringify([chosen.lines, chosen.colour, chosen.border, !!o.outside])}`, () => {
    // On the full image, where a thin border's two edges are apart: the outermost again, then to a fraction of a pixel.
    const lines = chosen.lines;
    // On `p`, `f` times the small copy's resolution: the snapped sides, else the small copy's lines, to a fraction of a pixel.
    const refined = (p: Planes, f: number, snapped: Snapped | null, least?: number) =>
      refineSides(p, snapped?.lines ?? scaleLines(lines, f), snapped ? 2.5 : f + 1.5, least);
    let snapped = onFull(chosen, chosen.colour);
    let fine = refined(planes, k, snapped);
    if (k >= 2 && (o.outside || !fine)) {
      // A table of nearly the border's own colour. JPEG keeps colour at half resolution, which
      // spreads a step of hue alone over more pixels than the full image's two-pixel difference
      // sees, and a step of 15 is not much above the noise: on a half-size copy the step is sharp
      // again and the noise halved, so weaker steps count (FAINT_STEP), and lines there are still
      // good to a fraction of a pixel. There the card's own faint edge may lie outside the one
      // found (the printed frame's, the strong one), or the edge found may not refine at all.
      // Pixel centres: the half-size copy's pixel (i, j) covers the full image's 2i..2i + 1.
      const half = downscale(planes, 2);
      const here = fine ? (fine.quad.map((p) => ({ x: (p.x - 0.5) / 2, y: (p.y - 0.5) / 2 })) as Quad) : cornersOf(scaleLines(lines, k / 2));
      const wider = o.outside && here ? widerFaint(half, here) : null;
      if (wider || !fine) {
        snapped = wider ?? snapOn(half, here, chosen.colour, FAINT_STEP);
        const onHalf = refined(half, k / 2, snapped, FAINT_STEP);
        fine = onHalf && { quad: onHalf.quad.map((p) => ({ x: 2 * p.x + 0.5, y: 2 * p.y + 0.5 })) as Quad, support: onHalf.support };
      }
    }
    if (!fine) return null;
    const quad = orderCorners(fine.quad);
    if (!convex(quad)) return null;
    // A card has the same border colour inside all four sides and a printed frame inside that.
    const inner = framed(small, chosen.lines);
    const border = Math.max(chosen.border, snapped?.border ?? 0);
    const score = rate(fine.support) * (0.5 + 0.125 * border) * (0.6 + 0.1 * inner);
    return score < 0.4 ? null : { quad, score: Math.round(score * 1000) / 1000 };
  });
}

/**
 * What findCard works out of a photo before its lines, and the rough quads it snapped: kept with
 * the photo, so that a second look with more lines (identify.ts) does none of it again.
 */
const prepared = new WeakMap<Gray, { k: number; planes: Planes; small: Planes; done: Map<string, unknown> }>();

/**
 * The photo's planes and their small copy, `k` times smaller (at most COARSE_SIDE a side): made
 * once a photo, for findCard and the artwork's windows (window.ts), whose straight lines on the
 * small copy are then found once too (coarse.ts keeps them with it).
 */
export function copiesOf(g: Gray): { k: number; planes: Planes; small: Planes; done: Map<string, unknown> } {
  let p = prepared.get(g);
  if (!p) {
    const k = Math.max(1, Math.round(Math.max(g.w, g.h) / COARSE_SIDE));
    const planes = planesOf(g);
    prepared.set(g, (p = { k, planes, small: downscale(planes, k), done: new Map() }));
  }
  return p;
}

/**
 * The card's own edge outside the quad `q` found on `g`, when the quad is the printed frame's:
 * on a table of nearly the border's own colour the frame is the strong edge and the card's a
 * faint one outside it. Taken when all four sides move out onto a line with one colour inside
 * them all (the border), each corner by 0.5 to 20 % of the card's width, and the band between
 * is one flat paint (bandRoughness: not a line of a wood's grain); null otherwise.
 */
function widerFaint(g: Planes, q: Quad): Snapped | null {
  const r = snapSides(g, q, { in: 0, out: 0.15 }, undefined, FAINT_STEP);
  const wide = r && cornersOf(r.lines);
  if (!r || !wide || r.border < 4 || !convex(orderCorners(wide))) return null;
  const [a, b] = [orderCorners(q), orderCorners(wide)];
  const width = cardWidth(a);
  const moved = a.map((p, i) => Math.hypot(p.x - b[i]!.x, p.y - b[i]!.y) / width);
  if (moved.some((d) => d < 0.005 || d > 0.2) || area(b) < area(a) * 1.02) return null;
  return bandRoughness(g, a, b) > BAND_ROUGH ? null : r;
}

/**
 * How far a flat paint's colours stray across a border band (bandRoughness) at most: set on
 * the centering tuning photos, where true borders measured 3.5 to 9 on plain tables (noise
 * included) and grain between a card and a line of the wood 11.5 to 38.
 */
const BAND_ROUGH = 10;

/**
 * How uneven the band between quad `a` and the wider `b` is: on each side the median colour
 * distance of 30 samples from their median colour, the worst side's. A card's border is one
 * flat paint; a table's grain or pattern is not.
 */
function bandRoughness(g: Planes, a: Quad, b: Quad): number {
  let worst = 0;
  for (let k = 0; k < 4; k++) {
    const cols: number[][] = [];
    for (let i = 0; i < 10; i++) {
      const f = 0.15 + (0.7 * i) / 9;
      const [pa, pb] = [lerp(a[k]!, a[(k + 1) % 4]!, f), lerp(b[k]!, b[(k + 1) % 4]!, f)];
      for (const depth of [0.3, 0.5, 0.7]) {
        const p = lerp(pa, pb, depth);
        const c = colourAt(g, Math.round(p.x), Math.round(p.y));
        if (c) cols.push(c);
      }
    }
    if (cols.length < 10) return Infinity;
    const med = medianColour(cols, g.c);
    const d = cols.map((x) => Math.hypot(...x.map((v, c) => v - med[c]!))).sort((x, y) => y - x);
    worst = Math.max(worst, d[d.length >> 1]!);
  }
  return worst;
}

/** The share of quad `a` (sampled on a 10 × 10 grid) that lies inside quad `b`. */
function covered(a: Quad, b: Quad): number {
  let n = 0;
  for (let i = 0; i < 10; i++) {
    for (let j = 0; j < 10; j++) {
      const u = (i + 0.5) / 10;
      const v = (j + 0.5) / 10;
      const top = { x: a[0].x + (a[1].x - a[0].x) * u, y: a[0].y + (a[1].y - a[0].y) * u };
      const bottom = { x: a[3].x + (a[2].x - a[3].x) * u, y: a[3].y + (a[2].y - a[3].y) * u };
      if (inside(b, { x: top.x + (bottom.x - top.x) * v, y: top.y + (bottom.y - top.y) * v })) n++;
    }
  }
  return n / 100;
}

/** The quad scaled about its centre by 1 + f. */
function grow(q: Quad, f: number): Quad {
  const cx = (q[0].x + q[1].x + q[2].x + q[3].x) / 4;
  const cy = (q[0].y + q[1].y + q[2].y + q[3].y) / 4;
  return q.map((p) => ({ x: cx + (p.x - cx) * (1 + f), y: cy + (p.y - cy) * (1 + f) })) as Quad;
}

/** Whether `p` lies inside the convex quad `q` (corners clockwise in image coordinates). */
function inside(q: Quad, p: Point): boolean {
  for (let k = 0; k < 4; k++) {
    const a = q[k]!;
    const b = q[(k + 1) % 4]!;
    if ((b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x) < 0) return false;
  }
  return true;
}

/** The 3×3 homography taking the unit square's corners (0,0) (1,0) (1,1) (0,1) to `q`. */
export function squareToQuad(q: Quad): number[] {
  const [p0, p1, p2, p3] = q;
  const dx1 = p1.x - p2.x, dx2 = p3.x - p2.x, dx3 = p0.x - p1.x + p2.x - p3.x;
  const dy1 = p1.y - p2.y, dy2 = p3.y - p2.y, dy3 = p0.y - p1.y + p2.y - p3.y;
  const det = dx1 * dy2 - dx2 * dy1;
  const g = (dx3 * dy2 - dx2 * dy3) / det;
  const h = (dx1 * dy3 - dx3 * dy1) / det;
  return [p1.x - p0.x + g * p1.x, p3.x - p0.x + h * p3.x, p0.x, p1.y - p0.y + g * p1.y, p3.y - p0.y + h * p3.y, p0.y, g, h, 1];
}

/** The quad of the points (u, v) of `q`'s square at -mu..1+mu, -mv..1+mv: `q` widened by a margin that follows its perspective. */
export function widen(q: Quad, mu: number, mv: number): Quad {
  const m = squareToQuad(q);
  return [onSquare(m, -mu, -mv), onSquare(m, 1 + mu, -mv), onSquare(m, 1 + mu, 1 + mv), onSquare(m, -mu, 1 + mv)];
}

/** The point (u, v) of the unit square, carried by squareToQuad's matrix `m` (any u, v: outside it too). */
export function onSquare(m: number[], u: number, v: number): Point {
  const z = m[6]! * u + m[7]! * v + m[8]!;
  return { x: (m[0]! * u + m[1]! * v + m[2]!) / z, y: (m[3]! * u + m[4]! * v + m[5]!) / z };
}

/**
 * The quad's content squared up into a w × h raster of `channels` per pixel (bilinear sampling;
 * pixel centres at integers, as findCard's corners). The browser passes its own RGBA `out`.
 */
export function rectify<T extends { [i: number]: number; length: number } = Buffer>(
  src: { data: ArrayLike<number>; w: number; h: number }, q: Quad, w: number, h: number, channels = 3,
  out: T = Buffer.alloc(w * h * channels) as unknown as T,
): T {
  const m = squareToQuad(q);
  const C = channels;
  const data = src.data;
  for (let y = 0; y < h; y++) {
    const v = (y + 0.5) / h;
    for (let x = 0; x < w; x++) {
      const u = (x + 0.5) / w;
      const z = m[6]! * u + m[7]! * v + 1;
      const sx = (m[0]! * u + m[1]! * v + m[2]!) / z;
      const sy = (m[3]! * u + m[4]! * v + m[5]!) / z;
      const x0 = Math.max(0, Math.min(src.w - 2, Math.floor(sx)));
      const y0 = Math.max(0, Math.min(src.h - 2, Math.floor(sy)));
      const fx = Math.max(0, Math.min(1, sx - x0));
      const fy = Math.max(0, Math.min(1, sy - y0));
      const o = (y * w + x) * C;
      for (let c = 0; c < C; c++) {
        const i00 = (y0 * src.w + x0) * C + c;
        const top = data[i00]! * (1 - fx) + data[i00 + C]! * fx;
        const bottom = data[i00 + src.w * C]! * (1 - fx) + data[i00 + src.w * C + C]! * fx;
        out[o + c] = top * (1 - fy) + bottom * fy;
      }
    }
  }
  return out;
}
