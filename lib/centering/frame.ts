// The card's edges and its printed frame on a squared-up raster (a photo after the homography),
// and which way up the card lies. Centering-specific: identification's outline (lib/vision/
// outline.ts) only brings the raster here.
//
// Why not measureRaster's scan from the raster's border: after squaring up, the raster's margin
// is table, and on a table close to the border's colour (a white card on a white desk, black on
// black) "where the background ends" is the frame, not the card's edge; the border then seems
// missing on one side and the ratio lands near 0 or 100. Here each side is read on a profile
// averaged over many scanlines (after squaring up the edges are straight and aligned, so the
// average keeps them sharp while noise, JPEG blocks and table texture average out), the outer
// edge is looked for only near where the outline put it, and the frame is the first step
// inward from the border's own colour. A result that a card could not have (side borders
// together under 6 % of the card's width, or the four borders of different colours) is
// returned with an uncertainty that says so.
//
// Which way up: the outline gives the card's long sides vertical but cannot tell 0° from 180°
// (it takes the reading nearer the image's top-left), and a card upside down swaps left with
// right and top with bottom. A card's artwork window lies in the upper half of its face: two
// long horizontal lines 28-52 % of the frame's height apart, their middle above the centre.

import type { Edges } from "./ratios";

export type Raster = { data: Buffer; w: number; h: number };
type Side = keyof Edges;
const SIDES: Side[] = ["left", "right", "top", "bottom"];

/** Lines averaged per group, and groups (whose spread gives the uncertainty). */
const GROUPS = 8;
const PER_GROUP = 8;

type Profile = Float64Array; // 3 values a step

/**
 * The mean colour along `side`'s inward direction, t = 0 at the raster's edge, over the lines
 * `lines` (rows for left/right, columns for top/bottom), `len` steps.
 */
function profile(r: Raster, side: Side, lines: number[], len: number): Profile {
  const p = new Float64Array(len * 3);
  const across = side === "left" || side === "right";
  for (const line of lines) {
    for (let t = 0; t < len; t++) {
      const x = across ? (side === "left" ? t : r.w - 1 - t) : line;
      const y = across ? line : side === "top" ? t : r.h - 1 - t;
      const i = (y * r.w + x) * 3;
      p[t * 3] = p[t * 3]! + r.data[i]!;
      p[t * 3 + 1] = p[t * 3 + 1]! + r.data[i + 1]!;
      p[t * 3 + 2] = p[t * 3 + 2]! + r.data[i + 2]!;
    }
  }
  for (let k = 0; k < p.length; k++) p[k] = p[k]! / lines.length;
  return p;
}

const col = (p: Profile, t: number) => [p[t * 3]!, p[t * 3 + 1]!, p[t * 3 + 2]!];
const dist3 = (a: number[], b: number[]) => Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!);
function meanCol(p: Profile, a: number, b: number): number[] {
  const n = p.length / 3;
  const [lo, hi] = [Math.max(0, Math.round(a)), Math.min(n - 1, Math.round(b))];
  const m = [0, 0, 0];
  for (let t = lo; t <= hi; t++) for (let c = 0; c < 3; c++) m[c]! += p[t * 3 + c]!;
  return m.map((v) => v / Math.max(1, hi - lo + 1));
}

/** Colour gradient magnitude at t (central difference over ±1). */
const grad = (p: Profile, t: number) => dist3(col(p, t + 1), col(p, t - 1)) / 2;

/**
 * Sub-step position of a step edge near `t` between colour `a` (before) and `b` (after): where
 * the profile, projected on a→b, crosses half-way. Boundaries: a crossing between samples t and
 * t + 1 at fraction f is t + 0.5 + f (pixel t covers [t, t + 1)).
 */
function crossing(p: Profile, t: number, a: number[], b: number[], reach = 4): number | null {
  const d = [b[0]! - a[0]!, b[1]! - a[1]!, b[2]! - a[2]!];
  const n2 = d[0]! ** 2 + d[1]! ** 2 + d[2]! ** 2;
  if (n2 < 25) return null;
  const s = (k: number) => { const c = col(p, k); return ((c[0]! - a[0]!) * d[0]! + (c[1]! - a[1]!) * d[1]! + (c[2]! - a[2]!) * d[2]!) / n2; };
  const n = p.length / 3;
  let best: number | null = null;
  for (let k = Math.max(0, t - reach); k < Math.min(n - 1, t + reach); k++) {
    const [u, v] = [s(k), s(k + 1)];
    if (u < 0.5 && v >= 0.5) {
      const x = k + 0.5 + (0.5 - u) / (v - u);
      if (best === null || Math.abs(x - t) < Math.abs(best - t)) best = x;
    }
  }
  return best;
}

type SideRead = { outer: number; inner: number; border: number[]; contrast: number; frameStep: number };

/** The profile's strongest colour step between `from` and `to`: its position (-1 if none) and gradient. */
function strongestStep(p: Profile, from: number, to: number): [number, number] {
  let t0 = -1;
  let g0 = 0;
  for (let t = Math.max(1, Math.floor(from)); t < Math.min(p.length / 3 - 1, Math.ceil(to)); t++) {
    const g = grad(p, t);
    if (g > g0) [g0, t0] = [g, t];
  }
  return [t0, g0];
}

/**
 * One side on one profile: the outer edge, the strongest step within `window` (steps from the
 * raster's edge), then the frame, the first place inward where the colour leaves the border's
 * and stays away.
 */
function readSide(p: Profile, window: [number, number], maxBorder: number): SideRead | null {
  const n = p.length / 3;
  const [t0, g0] = strongestStep(p, window[0], window[1]);
  // A border within 15 of the table's colour steps by only 2-3 a pixel even on the averaged
  // profile; in a window this narrow the strongest step is still the edge, and the groups'
  // agreement (their spread, the uncertainty) says whether it was noise.
  if (t0 < 0 || g0 < 1.5) return null;
  // The table's and the border's colours on either side of the step, clear of its blur.
  const table = meanCol(p, t0 - 8, t0 - 4);
  let border = meanCol(p, t0 + 3, t0 + 5);
  const outer = crossing(p, t0, table, border);
  if (outer === null) return null;
  // The border's colour where it settles: a soft shadow or the edge's blur may run on a few
  // steps past the step itself.
  let start = Math.ceil(outer + 1.5);
  const calm = Math.max(2.5, 0.2 * g0);
  for (let k = 0; k < 8 && start + 3 < n; k++, start++) if (grad(p, start) < calm && grad(p, start + 1) < calm && grad(p, start + 2) < calm) break;
  border = meanCol(p, start, start + 2);
  // The frame: the colour leaves the border's by more than a share of the largest departure
  // seen inside, for 3 steps running.
  const end = Math.min(n - 2, Math.floor(outer + maxBorder));
  let far = 0;
  for (let t = start; t <= end; t++) far = Math.max(far, dist3(col(p, t), border));
  // Compared with the colour a few steps back rather than the border's at its start: a foil's
  // sheen or the light drifts slowly across a wide border, a frame steps within a few pixels.
  const threshold = Math.max(7, Math.min(14, far * 0.3));
  let run = 0;
  for (let t = start; t <= end; t++) {
    const ref = run ? col(p, Math.max(start, t - run - 5)) : col(p, Math.max(start, t - 6));
    if (dist3(col(p, t), ref) > threshold) {
      if (++run < 3) continue;
      const k = t - 2;
      const after = meanCol(p, k + 2, k + 4);
      const inner = crossing(p, k, border, after, 3);
      if (inner === null || inner <= outer + 1) return null;
      return { outer, inner, border, contrast: dist3(table, border), frameStep: dist3(border, after) };
    } else run = 0;
  }
  return null;
}

export type FrameRead = {
  outer: Edges; inner: Edges;
  /** One standard uncertainty of each edge, in raster pixels. */
  spread: Edges & { outerLeft: number; outerRight: number; outerTop: number; outerBottom: number };
  /** Reasons the reading is doubtful, empty when it is not. */
  doubts: string[];
};

/** How many times wider one pair of opposite borders (summed) may be than the other before a reading is doubted. */
export const BORDER_PAIRS = 1.3;

/** Two opposite borders together, as a share of the card's width, below which a reading is doubted. */
export const MIN_BORDERS = 0.06;

const between = (a: number, b: number, n: number) => Array.from({ length: n }, (_, i) => Math.round(a + ((b - a) * (i + 0.5)) / n));

/**
 * Outer edges and frame on a squared-up raster where the outline put the card at `card`.
 * Null when a side has no edge or no frame at all.
 */
export function readFrame(r: Raster, card: Edges): FrameRead | null {
  return readWith(r, card, (p, expected, cw) => readSide(p, [expected - cw * 0.008 - 2, expected + cw * 0.008 + 2], cw * 0.16));
}

/**
 * The same when the outline found is the printed frame, not the card (a table close to the
 * border's colour shows the frame's edge better than the card's): the frame is refined where
 * the outline put it, and the card's edge looked for outward, where the border's colour ends.
 */
export function readFrameOutward(r: Raster, frame: Edges): FrameRead | null {
  // Squared up on the frame, the card's outline is stretched a little on one axis: its proportions say nothing.
  return readWith(r, frame, (p, expected, cw) => readSideOutward(p, expected, cw), false);
}

function readSideOutward(p: Profile, expected: number, cw: number): SideRead | null {
  const [t0, g0] = strongestStep(p, expected - cw * 0.008 - 2, expected + cw * 0.008 + 2);
  if (t0 < 12 || g0 < 3) return null;
  const border = meanCol(p, t0 - 6, t0 - 4);
  const after = meanCol(p, t0 + 3, t0 + 5);
  const inner = crossing(p, t0, border, after);
  if (inner === null) return null;
  const from = Math.floor(inner - 3);
  let far = 0;
  for (let t = 2; t <= from; t++) far = Math.max(far, dist3(col(p, t), border));
  const threshold = Math.max(4, 0.45 * far);
  let run = 0;
  for (let t = from; t >= 2; t--) {
    const ref = col(p, Math.min(from, t + run + 5));
    if (dist3(col(p, t), ref) > threshold) {
      if (++run < 3) continue;
      const k = t + 2;
      const table = meanCol(p, k - 5, k - 3);
      const outer = crossing(p, k, table, meanCol(p, k + 2, Math.min(from, k + 4)), 4);
      if (outer === null || outer >= inner - 2) return null;
      return { outer, inner, border, contrast: dist3(table, border), frameStep: dist3(border, after) };
    } else run = 0;
  }
  return null;
}

function readWith(r: Raster, card: Edges, read: (p: Profile, expected: number, cw: number) => SideRead | null, proportions = true): FrameRead | null {
  const cw = card.right - card.left;
  const ch = card.bottom - card.top;
  const reads: Record<Side, { outer: number; inner: number; border: number[]; contrast: number; frameStep: number }[]> = { left: [], right: [], top: [], bottom: [] };
  for (const side of SIDES) {
    const across = side === "left" || side === "right";
    const span = across ? [card.top + ch * 0.25, card.top + ch * 0.75] : [card.left + cw * 0.25, card.left + cw * 0.75];
    const lines = between(span[0]!, span[1]!, GROUPS * PER_GROUP);
    // Where the outline put this side, in steps from the raster's edge.
    const expected = side === "left" ? card.left : side === "right" ? r.w - card.right : side === "top" ? card.top : r.h - card.bottom;
    const len = Math.min(across ? r.w : r.h, Math.round(expected + cw * 0.3));
    for (let g = 0; g < GROUPS; g++) {
      // Interleaved groups: each covers the whole span.
      const mine = lines.filter((_, i) => i % GROUPS === g);
      const one = read(profile(r, side, mine, len), expected, cw);
      if (one) reads[side].push(one);
    }
  }
  const doubts: string[] = [];
  const pick = (side: Side) => {
    const rs = reads[side];
    if (rs.length < GROUPS / 2) return null;
    const med = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2; };
    const outer = med(rs.map((x) => x.outer));
    const inner = med(rs.map((x) => x.inner));
    const sd = (xs: number[], m: number) => Math.sqrt(xs.reduce((n, x) => n + (x - m) ** 2, 0) / Math.max(1, xs.length - 1));
    const border = [0, 1, 2].map((c) => med(rs.map((x) => x.border[c]!)));
    if (rs.length < GROUPS) doubts.push(`${side}: edges found on ${rs.length} of ${GROUPS} groups of lines`);
    return {
      outer, inner, border,
      contrast: med(rs.map((x) => x.contrast)), frameStep: med(rs.map((x) => x.frameStep)),
      // Robust spread of the groups' positions, as the standard error of their median.
      sOuter: (1.25 * Math.min(sd(rs.map((x) => x.outer), outer), 1.4826 * med(rs.map((x) => Math.abs(x.outer - outer))) + 0.05)) / Math.sqrt(rs.length),
      sInner: (1.25 * Math.min(sd(rs.map((x) => x.inner), inner), 1.4826 * med(rs.map((x) => Math.abs(x.inner - inner))) + 0.05)) / Math.sqrt(rs.length),
    };
  };
  const s = { left: pick("left"), right: pick("right"), top: pick("top"), bottom: pick("bottom") };
  if (!s.left || !s.right || !s.top || !s.bottom) return null;
  const outer: Edges = { left: s.left.outer, right: r.w - s.right.outer, top: s.top.outer, bottom: r.h - s.bottom.outer };
  const inner: Edges = { left: s.left.inner, right: r.w - s.right.inner, top: s.top.inner, bottom: r.h - s.bottom.inner };
  // What a card could not look like.
  const width = outer.right - outer.left;
  const height = outer.bottom - outer.top;
  // A card's borders are 2.5 mm a side or more, 8 % of its 63 mm width for two: under 6 %, the
  // outline found is likely the printed frame and the "frame" a line inside it.
  const sides = inner.left - outer.left + outer.right - inner.right;
  const ends = inner.top - outer.top + outer.bottom - inner.bottom;
  if (sides / width < MIN_BORDERS) doubts.push("side borders together under 6 % of the card's width: the edge found may be the frame's");
  if (ends / width < MIN_BORDERS) doubts.push("top and bottom borders together under 6 % of the card's width: the edge found may be the frame's");
  if (proportions && Math.abs(width / height - cw / ch) > 0.03) doubts.push("the edges found do not make a card's proportions");
  // A card prints its border about as wide all round (on the tuning photos the two pairs, each
  // summed, were within 8 % of each other wherever the reading was right): a pair far wider
  // than the other was read to the art or text on one axis, or to the frame on the other.
  if (proportions && Math.max(sides, ends) > BORDER_PAIRS * Math.min(sides, ends)) doubts.push("the side borders and the top and bottom ones differ too much for one card's border");
  // One colour on four sides, allowing for light falling off across the card (brightness) and a
  // foil's sheen: hue and saturation (chroma) within 9, brightness within a factor of 1.5.
  const colours = SIDES.map((k) => s[k]!.border);
  const level = colours.map((c) => (c[0]! + c[1]! + c[2]!) / 3);
  const chroma = colours.map((c, i) => c.map((v) => (100 * (v - level[i]!)) / (level[i]! + 20)));
  const hueSpread = Math.max(...chroma.flatMap((a) => chroma.map((b) => dist3(a, b))));
  if (hueSpread > 9 || (Math.max(...level) + 10) / (Math.min(...level) + 10) > 1.5) doubts.push("the four borders are not of one colour: an edge may be on the table or the frame");
  const weakest = Math.min(...SIDES.map((k) => s[k]!.contrast));
  if (weakest < 10) doubts.push("the card's edge hardly stands out from the table");
  return {
    outer, inner, doubts,
    spread: {
      left: s.left.sInner, right: s.right.sInner, top: s.top.sInner, bottom: s.bottom.sInner,
      outerLeft: s.left.sOuter, outerRight: s.right.sOuter, outerTop: s.top.sOuter, outerBottom: s.bottom.sOuter,
    },
  };
}

/**
 * Which way up the card lies in the raster: "upright", "flipped" (turned 180°), or null when
 * the artwork window cannot be told. Looks for rows inside the frame crossed by a long
 * continuous horizontal line (the window's top and bottom), then a pair of them 28-52 % of the
 * frame's height apart.
 */
export type Way = "upright" | "flipped" | null;

export function uprightness(r: Raster, inner: Edges): { way: Way; lines: number[] } {
  const x0 = Math.round(inner.left + (inner.right - inner.left) * 0.04);
  const x1 = Math.round(inner.right - (inner.right - inner.left) * 0.04);
  const y0 = Math.round(inner.top + (inner.bottom - inner.top) * 0.06);
  const y1 = Math.round(inner.bottom - (inner.bottom - inner.top) * 0.06);
  const ih = inner.bottom - inner.top;
  const need = (x1 - x0) * 0.6;
  const px = (x: number, y: number) => (y * r.w + x) * 3;
  const strong: number[] = [];
  for (let y = Math.max(2, y0); y < Math.min(r.h - 2, y1); y++) {
    let run = 0, gap = 0, longest = 0;
    for (let x = x0; x < x1; x++) {
      const a = px(x, y - 2);
      const b = px(x, y + 2);
      const d = Math.abs(r.data[a]! - r.data[b]!) + Math.abs(r.data[a + 1]! - r.data[b + 1]!) + Math.abs(r.data[a + 2]! - r.data[b + 2]!);
      if (d > 45) { run += 1 + gap; gap = 0; } else if (run > 0 && gap < 3) gap++; else { run = 0; gap = 0; }
      if (run > longest) longest = run;
    }
    if (longest >= need) strong.push(y);
  }
  // Rows next to each other are one line: keep each line's middle, as a share of the frame's height.
  const lines: number[] = [];
  for (let i = 0; i < strong.length; ) {
    let j = i;
    while (j + 1 < strong.length && strong[j + 1]! - strong[j]! <= 2) j++;
    lines.push(((strong[i]! + strong[j]!) / 2 - inner.top) / ih);
    i = j + 1;
  }
  let up = 0, down = 0;
  for (let i = 0; i < lines.length; i++) {
    for (let j = i + 1; j < lines.length; j++) {
      const gap = lines[j]! - lines[i]!;
      if (gap < 0.28 || gap > 0.52) continue;
      const mid = (lines[i]! + lines[j]!) / 2;
      if (mid < 0.42) up++;
      else if (mid > 0.58) down++;
    }
  }
  return { way: up > 0 && down === 0 ? "upright" : down > 0 && up === 0 ? "flipped" : null, lines };
}
