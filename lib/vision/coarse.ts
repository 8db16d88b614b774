import { orderCorners, sameQuad, type Planes, type Point, type Quad } from "./outline";
import { colourAt, far, lerp, medianColour } from "./refine";
import { kthSmallest } from "./select";

// The rough stage of finding a card, on a small copy of the photo: edges (colour Sobel) →
// straight lines (Hough) → the four-line quadrilaterals shaped like a card with edges along
// them, best supported first. refine.ts then moves their sides onto the card's edges.

/** `cos` and `sin`: of theta, kept with it (quads are closed from every four lines: their trigonometry was a share of the time). */
type Line = { theta: number; rho: number; votes: number; cos: number; sin: number };

/** The channels' summed structure tensor at pixel i (not on the border): xx, yy, xy. */
function tensor(d: ArrayLike<number>, r: number, C: number, i: number, out: Float64Array): void {
  let xx = 0, yy = 0, xy = 0;
  for (let c = 0; c < C; c++, i++) {
    const gx = d[i - r + C]! + 2 * d[i + C]! + d[i + r + C]! - d[i - r - C]! - 2 * d[i - C]! - d[i + r - C]!;
    const gy = d[i + r - C]! + 2 * d[i + r]! + d[i + r + C]! - d[i - r - C]! - 2 * d[i - r]! - d[i - r + C]!;
    xx += gx * gx;
    yy += gy * gy;
    xy += gx * gy;
  }
  out[0] = xx;
  out[1] = yy;
  out[2] = xy;
}
const TENSOR = new Float64Array(3);

/** Gradient magnitude (colour Sobel: the root of the summed structure tensor's trace). */
function sobel(p: Planes): Float32Array {
  const { w, h, c: C } = p;
  const mag = new Float32Array(w * h);
  const r = w * C;
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      tensor(p.data, r, C, (y * w + x) * C, TENSOR);
      mag[y * w + x] = Math.sqrt(TENSOR[0]! + TENSOR[1]!);
    }
  }
  return mag;
}

/**
 * The gradient's direction at (x, y), mod π, as a float: worked out only for the pixels that
 * vote (a tenth of them), its arc tangent was most of the Sobel's time.
 */
function direction(p: Planes, x: number, y: number): number {
  tensor(p.data, p.w * p.c, p.c, (y * p.w + x) * p.c, TENSOR);
  return Math.fround(0.5 * Math.atan2(2 * TENSOR[2]!, TENSOR[0]! - TENSOR[1]!));
}

const THETAS = 180;

/** Strongest straight lines, each voted for by edge pixels whose gradient points across it. */
function houghLines(g: Planes, mag: Float32Array, max: number): Line[] {
  const { w, h } = g;
  const threshold = Math.max(quantile(mag, 0.9), 20);
  const diag = Math.ceil(Math.hypot(w, h));
  const acc = new Float32Array(THETAS * (2 * diag + 1));
  const cos = Float64Array.from({ length: THETAS }, (_, t) => Math.cos((t * Math.PI) / THETAS));
  const sin = Float64Array.from({ length: THETAS }, (_, t) => Math.sin((t * Math.PI) / THETAS));
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      const i = y * w + x;
      if (mag[i]! < threshold) continue;
      // Only angles near the gradient's own: ±6° keeps the voting cheap and the peaks sharp.
      const t0 = Math.round(((direction(g, x, y) + Math.PI) % Math.PI) / (Math.PI / THETAS));
      for (let d = -6; d <= 6; d++) {
        const t = (t0 + d + THETAS) % THETAS;
        const rho = Math.round(x * cos[t]! + y * sin[t]!);
        acc[t * (2 * diag + 1) + rho + diag]! += 1;
      }
    }
  }
  const lines: Line[] = [];
  const width = 2 * diag + 1;
  // Peaks with suppression of their neighbourhood, strongest first.
  // Most votes first, in index order among equals, sorted as numbers −votes × span + index
  // (votes are whole numbers, the index under the span): a typed array's own sort rather than a
  // comparator called thousands of times.
  const least = Math.min(w, h) * 0.15;
  const span = acc.length;
  let count = 0;
  for (let k = 0; k < span; k++) if (acc[k]! > least) count++;
  const order = new Float64Array(count);
  for (let k = 0, j = 0; k < span; k++) if (acc[k]! > least) order[j++] = -acc[k]! * span + k;
  order.sort();
  for (const key of order) {
    const k = ((key % span) + span) % span;
    const t = Math.floor(k / width);
    const rho = (k % width) - diag;
    const theta = (t * Math.PI) / THETAS;
    if (lines.some((l) => angleGap(l.theta, theta) < (8 * Math.PI) / 180 && Math.abs(l.rho - rho * Math.sign(Math.cos(l.theta - theta))) < Math.min(w, h) * 0.02)) continue;
    lines.push({ theta, rho, votes: acc[k]!, cos: Math.cos(theta), sin: Math.sin(theta) });
    if (lines.length >= max) break;
  }
  return lines;
}

function angleGap(a: number, b: number): number {
  const d = Math.abs(a - b) % Math.PI;
  return Math.min(d, Math.PI - d);
}

function intersect(a: Line, b: Line): Point | null {
  const det = a.cos * b.sin - a.sin * b.cos;
  if (Math.abs(det) < 1e-6) return null;
  return {
    x: (a.rho * b.sin - b.rho * a.sin) / det,
    y: (b.rho * a.cos - a.rho * b.cos) / det,
  };
}

/** Pixels with a strong edge within one pixel. */
function strongNear(mag: Float32Array, w: number, h: number, threshold: number): Uint8Array {
  const out = new Uint8Array(w * h);
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      if (mag[y * w + x]! < threshold) continue;
      for (let dy = -1; dy <= 1; dy++) out.fill(1, (y + dy) * w + x - 1, (y + dy) * w + x + 2);
    }
  }
  return out;
}

/** Share of the quad's perimeter that runs along strong edges. */
function support(q: Quad, strong: Uint8Array, w: number, h: number): number {
  let on = 0;
  let n = 0;
  for (let k = 0; k < 4; k++) {
    const a = q[k]!;
    const b = q[(k + 1) % 4]!;
    const steps = Math.ceil(Math.hypot(b.x - a.x, b.y - a.y));
    for (let s = 0; s < steps; s += 2) {
      const x = Math.round(a.x + ((b.x - a.x) * s) / steps);
      const y = Math.round(a.y + ((b.y - a.y) * s) / steps);
      n++;
      if (x >= 0 && y >= 0 && x < w && y < h && strong[y * w + x]) on++;
    }
  }
  return n ? on / n : 0;
}

const dist = (p: Point, q: Point) => Math.hypot(q.x - p.x, q.y - p.y);

/** The width of a card whose outline is `q` (from its area and a card's proportions). */
export const cardWidth = (q: Quad) => Math.sqrt(area(q) * CARD_SHAPE.aspect);

export function area(q: Quad): number {
  let s = 0;
  for (let k = 0; k < 4; k++) s += q[k]!.x * q[(k + 1) % 4]!.y - q[(k + 1) % 4]!.x * q[k]!.y;
  return Math.abs(s) / 2;
}

export function convex(q: Quad): boolean {
  let sign = 0;
  for (let k = 0; k < 4; k++) {
    const a = q[k]!;
    const b = q[(k + 1) % 4]!;
    const c = q[(k + 2) % 4]!;
    const z = (b.x - a.x) * (c.y - b.y) - (b.y - a.y) * (c.x - b.x);
    if (z === 0) return false;
    if (sign && Math.sign(z) !== sign) return false;
    sign = Math.sign(z);
  }
  return true;
}

/** The image averaged over k × k blocks. */
export function downscale(p: Planes, k: number): Planes {
  const { c: C, data: src } = p;
  const w = Math.floor(p.w / k);
  const h = Math.floor(p.h / k);
  const data = new Float32Array(w * h * C);
  const rowLen = w * C;
  for (let y = 0; y < h; y++) {
    const o = y * rowLen;
    for (let dy = 0; dy < k; dy++) {
      let i = (y * k + dy) * p.w * C;
      // Each source row adds into the output row, k pixels to an output pixel.
      for (let x = 0; x < rowLen; x += C) {
        if (C === 3) {
          let r = 0, g = 0, b = 0;
          for (let dx = 0; dx < k; dx++, i += 3) { r += src[i]!; g += src[i + 1]!; b += src[i + 2]!; }
          data[o + x]! += r;
          data[o + x + 1]! += g;
          data[o + x + 2]! += b;
        } else {
          let v = 0;
          for (let dx = 0; dx < k; dx++) v += src[i++]!;
          data[o + x]! += v;
        }
      }
    }
  }
  const norm = 1 / (k * k);
  for (let i = 0; i < data.length; i++) data[i]! *= norm;
  return { data, w, h, c: C };
}

/** The value below which `share` of the array lies, from every 7th value (fast enough, close enough). */
function quantile(a: Float32Array, share: number): number {
  const s = new Float32Array(Math.ceil(a.length / 7));
  for (let i = 0, j = 0; i < a.length; i += 7, j++) s[j] = a[i]!;
  return kthSmallest(s, Math.floor(s.length * share));
}

/**
 * Card-shaped quads on the small image, best supported first, near-duplicates dropped, from the
 * `lines` strongest straight lines (identify takes 26: see identify.ts OUTLINE_LINES).
 */
export function coarseQuads(g: Planes, max: number, lines_ = 18): Quad[] {
  return shapedQuads(g, max, lines_, CARD_SHAPE);
}

/** What a quad's shape may be: its share of the frame, its short sides over its long ones, the typical one. */
type Shape = { minShare: number; maxShare: number; lo: number; hi: number; aspect: number; border?: number };
// Down to 5 % of the frame: a card held at arm's length covers 6 % of synth-hard.ts's hard photos;
// at 8 % four of its hard tuning photos' cards (6.5-7.4 %) could not be found at all.
const CARD_SHAPE: Shape = { minShare: 0.05, maxShare: 0.98, lo: 0.45, hi: 0.95, aspect: 0.716, border: 0.0275 };

/**
 * The artwork's window (`aspect`: its height over its width on the face) as quads: a strong
 * rectangle inside the card, whole when a card's side is out of the frame or under a finger.
 * Down to 1 % of the frame (a card of 6 %), best supported first.
 */
export function artQuads(g: Planes, max: number, lines_: number, aspect: number): Quad[] {
  return shapedQuads(g, max, lines_, { minShare: 0.008, maxShare: 0.3, lo: aspect * 0.7, hi: Math.min(0.95, aspect * 1.35), aspect });
}

/** A quad's score by how many of its sides have one colour just inside them (a card's border): 0 to 4. */
const BORDER_AGREES = [0.5, 0.5, 0.6, 0.85, 1];

/**
 * How many of the quad's sides agree on the colour at `depth` (a share of its width) inside them,
 * each side's the median of 8 samples along its middle: a card's border is one paint all round;
 * a quad closed by a finger's edges or a table's stripes has something else inside some sides.
 */
function sidesAgreeing(g: Planes, q: Quad, depth: number): number {
  const cx = (q[0].x + q[1].x + q[2].x + q[3].x) / 4;
  const cy = (q[0].y + q[1].y + q[2].y + q[3].y) / 4;
  const width = cardWidth(q);
  const meds: number[][] = [];
  for (let k = 0; k < 4; k++) {
    const a = q[k]!;
    const b = q[(k + 1) % 4]!;
    const cols: number[][] = [];
    for (let i = 0; i < 8; i++) {
      const f = 0.15 + (0.7 * i) / 7;
      const p = lerp(a, b, f);
      // `depth` of the card's width in, towards the centre (so across a side, roughly: the corners are left out).
      const d = Math.hypot(cx - p.x, cy - p.y);
      const t = Math.min(0.5, (depth * width) / d);
      const at = lerp(p, { x: cx, y: cy }, t);
      const c = colourAt(g, at.x, at.y);
      if (c) cols.push(c);
    }
    if (cols.length < 4) continue;
    meds.push(medianColour(cols, g.c));
  }
  return Math.max(0, ...meds.map((m) => meds.filter((n) => !far(m, n)).length));
}

/** Distinct candidates the border's colour is looked for in (the best supported): it costs 32 samples each. */
const BY_BORDER = 40;

/**
 * The best supported distinct candidates, their scores weighed by how many sides have one colour
 * inside them: the lines of fingers, planks and stripes close card-shaped quads too, as well
 * supported as a card's, and pushed the card's own out of the few that findCard snaps (on
 * bench/tune-identify.ts's hard photos, 72 outlines right of 100 before, 76 after).
 */
function byBorder(g: Planes, candidates: Candidate[], depth: number): Candidate[] {
  const head = distinct(candidates, BY_BORDER);
  for (const c of head) c.score *= BORDER_AGREES[sidesAgreeing(g, c.quad, depth)]!;
  // Not made distinct again: of two near quads, the better supported stays (snapping corrects
  // the rest), not the one whose rough sides happened to sample the border better.
  return head.sort((x, y) => y.score - x.score);
}

/**
 * A photo's edges and straight lines, kept with its small copy: identify looks at it again with
 * more lines. The lines are found strongest first, so a call asking for fewer than LINES_KEPT
 * takes the first of them; finding a few more costs next to nothing beside the voting.
 */
const LINES_KEPT = 48;
const edgesCache = new WeakMap<Planes, { strong: Uint8Array; lines: Line[]; asked: number }>();
function edgesOf(g: Planes, wanted: number) {
  let e = edgesCache.get(g);
  if (!e || e.asked < wanted) {
    const mag = sobel(g);
    const asked = Math.max(wanted, LINES_KEPT);
    edgesCache.set(g, (e = { strong: strongNear(mag, g.w, g.h, Math.max(quantile(mag, 0.85), 15)), lines: houghLines(g, mag, asked), asked }));
  }
  return { strong: e.strong, lines: e.lines.slice(0, wanted) };
}

function shapedQuads(g: Planes, max: number, lines_: number, shape: Shape): Quad[] {
  const { strong, lines } = edgesOf(g, lines_);
  const candidates: Candidate[] = [];
  const frame = g.w * g.h;
  for (let a = 0; a < lines.length; a++) {
    for (let b = a + 1; b < lines.length; b++) {
      // Opposite sides: roughly parallel (perspective allows some convergence).
      if (angleGap(lines[a]!.theta, lines[b]!.theta) > (25 * Math.PI) / 180) continue;
      for (let c = a + 1; c < lines.length; c++) {
        if (c === b || angleGap(lines[a]!.theta, lines[c]!.theta) < (50 * Math.PI) / 180) continue;
        for (let d = c + 1; d < lines.length; d++) {
          if (d === a || d === b || angleGap(lines[c]!.theta, lines[d]!.theta) > (25 * Math.PI) / 180) continue;
          const pts = [intersect(lines[a]!, lines[c]!), intersect(lines[a]!, lines[d]!), intersect(lines[b]!, lines[d]!), intersect(lines[b]!, lines[c]!)];
          if (pts.some((p) => !p || p.x < -g.w * 0.05 || p.y < -g.h * 0.05 || p.x > g.w * 1.05 || p.y > g.h * 1.05)) continue;
          // The corners run round the quad already (along lines a, d, b, c): orderCorners, which
          // sorts, is left to the few that pass.
          const cyc = pts as Quad;
          if (!convex(cyc)) continue;
          const share = area(cyc) / frame;
          if (share < shape.minShare || share > shape.maxShare) continue;
          const ad = dist(cyc[0], cyc[1]) + dist(cyc[2], cyc[3]);
          const bc = dist(cyc[1], cyc[2]) + dist(cyc[3], cyc[0]);
          // Width over height: orderCorners stands the long sides upright.
          const aspect = Math.min(ad, bc) / Math.max(ad, bc);
          if (aspect < shape.lo || aspect > shape.hi) continue;
          const quad = orderCorners(cyc);
          candidates.push({ quad, score: support(quad, strong, g.w, g.h) * (1 - Math.abs(aspect - shape.aspect) * 0.5) });
        }
      }
    }
  }
  return (shape.border === undefined ? distinct(candidates, max) : byBorder(g, candidates, shape.border).slice(0, max)).map((c) => c.quad);
}

type Candidate = { quad: Quad; score: number };

/** The `max` best candidates, near-duplicates dropped: quads that differ by the printed frame snap to the same edges, and one of them is enough. */
function distinct(candidates: Candidate[], max: number): Candidate[] {
  candidates.sort((x, y) => y.score - x.score);
  const out: Candidate[] = [];
  for (const c of candidates) {
    const tol = 0.1 * Math.min(dist(c.quad[0], c.quad[1]), dist(c.quad[0], c.quad[3]));
    if (out.some((q) => sameQuad(q.quad, c.quad, tol))) continue;
    out.push(c);
    if (out.length >= max) break;
  }
  return out;
}
