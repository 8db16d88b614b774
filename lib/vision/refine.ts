import type { Planes, Point, Quad } from "./outline";

// A rough quad's sides brought onto the card's edges. Along each side, across it, where the
// colour steps; the card's edge is the outermost straight line those steps form (the frame
// printed inside the border is a second, often stronger, parallel line just inside it). First
// on the small image with a wide window, then to a fraction of a pixel on the full one.

/** A point on the line, its unit direction, its unit normal pointing out of the quad. */
export type Line = { p: Point; u: Point; n: Point };
type Peak = { s: number; t: number; m: number };

/** Colour distance over two pixels (RGB; scaled for one channel): weaker steps are noise or JPEG blocking. */
const minStep = (channels: number) => 12 * Math.sqrt(channels / 3);

let scratch = new Float64Array(1024);

/**
 * Across the line at `s` along it, offsets in [lo, hi] where the colour steps: local maxima of
 * the central difference's magnitude, sub-pixel by a parabola. The profile is averaged over
 * `rows` parallel rows: the edge is straight, the noise is not.
 */
function steps(g: Planes, l: Line, s: number, lo: number, hi: number, rows: number, least = minStep(g.c)): Peak[] {
  const n = hi - lo + 3;
  const C = g.c;
  const D = g.data;
  // The profile of each channel at f[c·n + k], its steps' magnitude at f[C·n + k]: one scratch
  // array, no views made (this runs thousands of times a photo).
  const size = (C + 1) * n;
  if (scratch.length < size) scratch = new Float64Array(2 * size);
  const f = scratch;
  f.fill(0, 0, size);
  const dAt = C * n;
  const bx = l.p.x + l.u.x * s + l.n.x * (lo - 1);
  const by = l.p.y + l.u.y * s + l.n.y * (lo - 1);
  const half = rows >> 1;
  const r = g.w * C;
  for (let k = 0; k < n; k++) {
    for (let j = -half; j <= half; j++) {
      const x = bx + l.n.x * k + l.u.x * j;
      const y = by + l.n.y * k + l.u.y * j;
      const x0 = Math.floor(x);
      const y0 = Math.floor(y);
      if (x0 < 0 || y0 < 0 || x0 >= g.w - 1 || y0 >= g.h - 1) {
        for (let c = 0; c < C; c++) f[c * n + k] = NaN;
        continue;
      }
      const fx = x - x0;
      const fy = y - y0;
      const w00 = (1 - fx) * (1 - fy), w01 = fx * (1 - fy), w10 = (1 - fx) * fy, w11 = fx * fy;
      const i = (y0 * g.w + x0) * C;
      if (C === 3) {
        f[k]! += w00 * D[i]! + w01 * D[i + 3]! + w10 * D[i + r]! + w11 * D[i + r + 3]!;
        f[n + k]! += w00 * D[i + 1]! + w01 * D[i + 4]! + w10 * D[i + r + 1]! + w11 * D[i + r + 4]!;
        f[2 * n + k]! += w00 * D[i + 2]! + w01 * D[i + 5]! + w10 * D[i + r + 2]! + w11 * D[i + r + 5]!;
      } else {
        for (let c = 0; c < C; c++) f[c * n + k]! += w00 * D[i + c]! + w01 * D[i + C + c]! + w10 * D[i + r + c]! + w11 * D[i + r + C + c]!;
      }
    }
  }
  for (let k = 1; k < n - 1; k++) {
    let sum = 0;
    for (let c = 0; c < C; c++) sum += (f[c * n + k + 1]! - f[c * n + k - 1]!) ** 2;
    f[dAt + k] = Math.sqrt(sum) / (2 * half + 1);
  }
  const out: Peak[] = [];
  for (let k = 2; k < n - 2; k++) {
    const c = f[dAt + k]!;
    const before = f[dAt + k - 1]!;
    const after = f[dAt + k + 1]!;
    if (!(c >= least) || c < before || c <= after) continue;
    const den = before - 2 * c + after;
    out.push({ s, t: lo - 1 + k + (den < 0 ? (0.5 * (before - after)) / den : 0), m: c });
  }
  return out;
}

/** Least-squares t = a + b·s, outliers dropped until the residuals agree; with the inliers' count. */
function fit(pts: Peak[], min: number): { a: number; b: number; inliers: number } | null {
  let use = pts;
  for (let iter = 0; ; iter++) {
    if (use.length < min) return null;
    let ss = 0, st = 0, sss = 0, sst = 0;
    for (const p of use) { ss += p.s; st += p.t; sss += p.s * p.s; sst += p.s * p.t; }
    const k = use.length;
    const b = (k * sst - ss * st) / (k * sss - ss * ss);
    const a = (st - b * ss) / k;
    const res = use.map((p) => Math.abs(p.t - a - b * p.s));
    const sorted = [...res].sort((x, y) => x - y);
    const limit = Math.max(0.6, 2.5 * 1.4826 * sorted[sorted.length >> 1]!);
    const keep = use.filter((_, i) => res[i]! <= limit);
    if (keep.length === use.length || iter === 3) return { a, b, inliers: keep.length };
    use = keep;
  }
}

/**
 * The straight lines the steps across a side form (a small Hough over the offset and its slope
 * along the side) that at least a quarter as many sample points support as the best one,
 * outermost first, as offsets a + b·s.
 */
function lineCandidates(all: Peak[][], len: number): { a: number; b: number; votes: number; share: number }[] {
  let lo = Infinity, hi = -Infinity;
  for (const peaks of all) for (const p of peaks) { lo = Math.min(lo, p.t); hi = Math.max(hi, p.t); }
  if (lo > hi) return [];
  lo = Math.floor(lo) - 1;
  const bins = Math.ceil(hi) - lo + 2;
  const SLOPES = 11;
  // Over the side's length the slopes tried move an end by up to ±3 px, in steps of 0.6.
  const slopeAt = (k: number) => ((k - (SLOPES - 1) / 2) * 1.2) / len;
  const best = new Int32Array(bins);
  const bestSlope = new Int32Array(bins);
  const seen = new Int32Array(bins);
  const count = new Int32Array(bins);
  for (let k = 0; k < SLOPES; k++) {
    const b = slopeAt(k);
    count.fill(0);
    seen.fill(-1);
    for (let i = 0; i < all.length; i++) {
      for (const p of all[i]!) {
        // Each sample point counts once per bin, in the bin of its offset and the next one up.
        const c = Math.floor(p.t - b * (p.s - len / 2)) - lo;
        if (c >= 0 && c < bins && seen[c] !== i) { seen[c] = i; count[c]!++; }
        if (c + 1 >= 0 && c + 1 < bins && seen[c + 1] !== i) { seen[c + 1] = i; count[c + 1]!++; }
      }
    }
    for (let j = 0; j < bins; j++) if (count[j]! > best[j]!) { best[j] = count[j]!; bestSlope[j] = k; }
  }
  const top = Math.max(...best);
  const out: { a: number; b: number; votes: number; share: number }[] = [];
  if (top < all.length * 0.2) return out;
  for (let j = bins - 1; j >= 0; j--) {
    const v = best[j]!;
    if (v < top / 4) continue;
    let peak = true;
    for (let d = -2; d <= 2 && peak; d++) if (d && j + d >= 0 && j + d < bins && (best[j + d]! > v || (d > 0 && best[j + d] === v))) peak = false;
    if (!peak) continue;
    const b = slopeAt(bestSlope[j]!);
    out.push({ a: j + lo - b * (len / 2), b, votes: v / top, share: v / all.length });
  }
  return out;
}

/** Each channel's median over `cols` (colours of `channels` channels). */
export function medianColour(cols: number[][], channels: number): number[] {
  return Array.from({ length: channels }, (_, c) => cols.map((x) => x[c]!).sort((x, y) => x - y)[cols.length >> 1]!);
}

/** The point a share `t` of the way from `p` to `q`. */
export const lerp = (p: Point, q: Point, t: number): Point => ({ x: p.x + (q.x - p.x) * t, y: p.y + (q.y - p.y) * t });

/** Colour at (x, y), bilinear; null off the image. */
export function colourAt(g: Planes, x: number, y: number): number[] | null {
  const x0 = Math.floor(x);
  const y0 = Math.floor(y);
  if (x0 < 0 || y0 < 0 || x0 >= g.w - 1 || y0 >= g.h - 1) return null;
  const fx = x - x0;
  const fy = y - y0;
  const i = (y0 * g.w + x0) * g.c;
  const r = g.w * g.c;
  const D = g.data;
  const out: number[] = [];
  for (let c = 0; c < g.c; c++) out.push((D[i + c]! * (1 - fx) + D[i + g.c + c]! * fx) * (1 - fy) + (D[i + r + c]! * (1 - fx) + D[i + r + g.c + c]! * fx) * fy);
  return out;
}

/**
 * Whether two colours (RGB, or one plane) are different paints. Within 40 they are the same; so
 * are two of one chromaticity whose brightness differs by at most 30 %: a silver border's sheen
 * or a shadow across the card makes one side lighter than the next (and a side lighter at one
 * end), and read as different paints that border lost its sides to a table's straight grain.
 */
export const far = (a: number[], b: number[]) => {
  if (Math.hypot(...a.map((v, c) => v - b[c]!)) <= 40 * Math.sqrt(a.length / 3)) return false;
  if (a.length !== 3) return true;
  const ma = (a[0]! + a[1]! + a[2]!) / 3;
  const mb = (b[0]! + b[1]! + b[2]!) / 3;
  // Dark colours have no chromaticity worth comparing.
  if (ma < 40 || mb < 40 || ma / mb > 1.3 || mb / ma > 1.3) return true;
  return Math.hypot(...a.map((v, c) => v - (b[c]! * ma) / mb)) > 20;
};

/**
 * The colour just inside the line (its median along the line) when it is the same at most sample
 * points, else null: a card's edge has its border inside, the same colour all around the card;
 * an edge in the clutter around it rarely has.
 */
function insideColour(g: Planes, l: Line, a: number, b: number, ss: number[], depth: number): number[] | null {
  const cols: number[][] = [];
  for (const s of ss) {
    const t = a + b * s - depth;
    const c = colourAt(g, l.p.x + l.u.x * s + l.n.x * t, l.p.y + l.u.y * s + l.n.y * t);
    if (c) cols.push(c);
  }
  if (cols.length < ss.length / 2) return null;
  const med = medianColour(cols, g.c);
  return cols.filter((x) => !far(x, med)).length >= 0.5 * ss.length ? med : null;
}

function intersect(a: Line, b: Line): Point | null {
  const det = b.u.x * a.u.y - a.u.x * b.u.y;
  if (Math.abs(det) < 1e-9) return null;
  const dx = b.p.x - a.p.x;
  const dy = b.p.y - a.p.y;
  const x = (b.u.x * dy - dx * b.u.y) / det;
  return { x: a.p.x + a.u.x * x, y: a.p.y + a.u.y * x };
}

/** The quad's sides, side k running from corner k to corner k + 1, with their lengths. */
function sidesOf(q: Quad): (Line & { len: number })[] {
  const cx = (q[0].x + q[1].x + q[2].x + q[3].x) / 4;
  const cy = (q[0].y + q[1].y + q[2].y + q[3].y) / 4;
  return q.map((a, k) => {
    const b = q[(k + 1) % 4]!;
    const len = Math.hypot(b.x - a.x, b.y - a.y);
    const u = { x: (b.x - a.x) / len, y: (b.y - a.y) / len };
    let n = { x: -u.y, y: u.x };
    if (n.x * (a.x - cx) + n.y * (a.y - cy) < 0) n = { x: -n.x, y: -n.y };
    return { p: a, u, n, len };
  });
}

/** The corners where consecutive sides meet; null if two are parallel. */
export function cornersOf(lines: Line[]): Quad | null {
  const q = lines.map((l, k) => intersect(lines[(k + 3) % 4]!, l));
  return q.every((p) => p && Number.isFinite(p.x) && Number.isFinite(p.y)) ? (q as Quad) : null;
}

/** The line moved by the offset a + b·s along its normal. */
function moved(l: Line, a: number, b: number): Line {
  const ux = l.u.x + l.n.x * b;
  const uy = l.u.y + l.n.y * b;
  const len = Math.hypot(ux, uy);
  const u = { x: ux / len, y: uy / len };
  const n = { x: -u.y, y: u.x };
  return { p: { x: l.p.x + l.n.x * a, y: l.p.y + l.n.y * a }, u, n: n.x * l.n.x + n.y * l.n.y < 0 ? { x: -n.x, y: -n.y } : n };
}

/**
 * How many of the positions `ss` along the line lie in the image, at least half of them: what a
 * side's support is counted against (a share, so callers cap it at 1: a step may still be found
 * across the line from a position just outside). A card with a corner out of the frame has
 * nothing to find there, and counted against all its positions it lost to the quads inside it.
 */
function inFrame(g: Planes, l: Line, ss: number[]): number {
  const n = ss.filter((s) => {
    const x = l.p.x + l.u.x * s;
    const y = l.p.y + l.u.y * s;
    return x >= 1 && y >= 1 && x <= g.w - 2 && y <= g.h - 2;
  }).length;
  return Math.max(n, ss.length / 2);
}

/** `count` positions along the middle 80 % of a side: the rounded corners are left out. */
const positions = (len: number, count: number) => Array.from({ length: count }, (_, i) => len * (0.1 + (0.8 * (i + 0.5)) / count));

export type Snapped = { lines: Line[]; support: number[]; border: number; colour?: number[] };

/**
 * Each side of the rough quad `q` moved onto the outermost straight edge within reach, from
 * `reach.in` inside to `reach.out` outside (shares of the card's width, plus 2 px): by default
 * from a little inside (the rough line may overshoot) to beyond the printed frame. `support` is
 * the share of sample points on each line, `border` how many sides have the border's colour
 * inside (`colour`: found on three sides, or `known`).
 */
export function snapSides(g: Planes, q: Quad, reach = { in: 0.035, out: 0.15 }, known?: number[], least?: number): Snapped | null {
  const sides = sidesOf(q);
  const width = Math.min(sides[0]!.len + sides[2]!.len, sides[1]!.len + sides[3]!.len) / 2;
  const per = sides.map((l) => {
    const ss = positions(l.len, 40);
    const all = ss.map((s) => steps(g, l, s, -Math.round(reach.in * width + 2), Math.round(reach.out * width + 2), 3, least));
    const straight = lineCandidates(all, l.len).filter((c) => c.votes >= 0.3);
    // The colour inside a line is read halfway to the next line in (a thin border), at most 2 % of the card's width in.
    const cands = straight.map((c, i) => {
      const next = straight[i + 1];
      const gap = next ? c.a - next.a + ((c.b - next.b) * l.len) / 2 : Infinity;
      return { ...c, colour: insideColour(g, l, c.a, c.b, ss, Math.max(1, Math.min(0.02 * width, gap / 2))) };
    });
    return { l, ss, all, cands };
  });
  // On each side the outermost line with the border's colour inside it: the colour inside the
  // outermost even-coloured, well-supported line of three sides at least (else a colour inside
  // some line on three sides). Failing that, the outermost well-supported line.
  const outer = per.map((p) => p.cands.find((c) => c.colour && c.votes >= 0.5)?.colour).filter((c): c is number[] => !!c);
  const borderColour = known ?? outer.find((c) => outer.filter((d) => !far(c, d)).length >= 3);
  const onSides = (colour: number[]) => per.filter((p) => p.cands.some((c) => c.colour && !far(c.colour, colour))).length;
  const isBorder = (colour: number[] | null) => !!colour && (borderColour ? !far(colour, borderColour) : onSides(colour) >= 3);
  const lines: Line[] = [];
  const support: number[] = [];
  let border = 0;
  for (const { l, ss, all, cands } of per) {
    const edge = cands.find((c) => isBorder(c.colour));
    const found = edge ?? cands.find((c) => c.votes >= 0.6);
    if (!found) return null;
    if (edge) border++;
    // Of each sample point's steps, the one nearest the line found.
    const near: Peak[] = [];
    for (const peaks of all) {
      let best: Peak | undefined;
      let r = 1.5;
      for (const p of peaks) {
        const d = Math.abs(p.t - found.a - found.b * p.s);
        if (d <= r) { best = p; r = d; }
      }
      if (best) near.push(best);
    }
    const f = fit(near, 6);
    if (!f) return null;
    lines.push(moved(l, f.a, f.b));
    support.push(Math.min(1, f.inliers / inFrame(g, l, ss)));
  }
  return { lines, support, border, colour: borderColour };
}

/**
 * How many sides of the quad the lines close have a second straight edge inside them, parallel
 * and near: a card's printed frame or artwork does; a plain rectangle in the clutter does not.
 */
export function framed(g: Planes, lines: Line[]): number {
  const q = cornersOf(lines);
  if (!q) return 0;
  const sides = sidesOf(q);
  const width = Math.min(sides[0]!.len + sides[2]!.len, sides[1]!.len + sides[3]!.len) / 2;
  return sides.filter((l) => {
    const all = positions(l.len, 40).map((s) => steps(g, l, s, -Math.round(0.13 * width + 2), -Math.round(0.008 * width + 1), 3));
    return lineCandidates(all, l.len).some((c) => c.share >= 0.5);
  }).length;
}

/**
 * The lines (in `g`'s pixels) refined to a fraction of a pixel: at 100 points along each side the
 * strongest step within a few pixels, a robust straight fit, corners re-intersected; twice.
 */
export function refineSides(g: Planes, lines: Line[], reach = 3.5, least?: number): { quad: Quad; support: number[] } | null {
  const support = [0, 0, 0, 0];
  for (let pass = 0; pass < 2; pass++) {
    const corners = cornersOf(lines);
    if (!corners) return null;
    const next: Line[] = [];
    for (const [k, l] of sidesOf(corners).entries()) {
      const ss = positions(l.len, 100);
      const r = pass ? 2.5 : reach;
      const pts: Peak[] = [];
      for (const s of ss) {
        let best: Peak | undefined;
        for (const p of steps(g, l, s, -Math.ceil(r), Math.ceil(r), 5, least)) if (Math.abs(p.t) <= r && (!best || p.m > best.m)) best = p;
        if (best) pts.push(best);
      }
      const f = fit(pts, 10);
      if (!f) return null;
      support[k] = Math.min(1, f.inliers / inFrame(g, l, ss));
      next.push(moved(l, f.a, f.b));
    }
    lines = next;
  }
  const quad = cornersOf(lines);
  return quad && { quad, support };
}

/** Lines of a k-times smaller image in this one's pixels (pixel centres at integers in both). */
export function scaleLines(lines: Line[], k: number): Line[] {
  return lines.map((l) => ({ ...l, p: { x: l.p.x * k + (k - 1) / 2, y: l.p.y * k + (k - 1) / 2 } }));
}
