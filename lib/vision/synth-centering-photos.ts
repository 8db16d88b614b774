import sharp from "sharp";
import type { Quad } from "./outline";

// A second, independent generator of centering photos, for evaluation only (the calibration of
// lib/centering uses synth.ts's synthCenteringPhoto and render.ts's faces, with other seeds).
// Nothing here is shared with those: the card is drawn analytically in card coordinates (no
// SVG, no render.ts face), its border in any of four colours (yellow, silver, white, black),
// laid on one of four tables (light, dark, wood grain, or one close to the border's own
// colour), at any orientation (0°, 90°, 180°, 270° plus a tilt), in perspective, under a
// lighting gradient, with blur, sensor noise and JPEG loss. The centering is known exactly: it
// is the card's own (left border's share of both side borders, top's of top and bottom, the
// card upright as printed), whatever way round it lies in the photo.

export const BORDERS = ["yellow", "silver", "white", "black"] as const;
export const TABLES = ["light", "dark", "wood", "match"] as const;
export const LEVELS = ["easy", "medium", "hard"] as const;
export type BorderKind = (typeof BORDERS)[number];
export type TableKind = (typeof TABLES)[number];
export type Level = (typeof LEVELS)[number];
export type Truth = { left_right: number; top_bottom: number };
export type PhotoCase = { seed: string; border: BorderKind; table: TableKind; level: Level; truth: Truth };

type RGB = [number, number, number];

/** splitmix32 over an FNV-1a-free string hash (djb2 xor): a generator of its own. */
export function prng(seed: string): () => number {
  let h = 5381;
  for (let i = 0; i < seed.length; i++) h = ((h * 33) ^ seed.charCodeAt(i)) >>> 0;
  let s = h ^ 0x9e3779b9;
  return () => {
    s = (s + 0x9e3779b9) | 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    z ^= z >>> 16;
    return (z >>> 0) / 4294967296;
  };
}

const BORDER_RGB: Record<BorderKind, RGB> = {
  yellow: [236, 200, 48], silver: [178, 182, 188], white: [243, 242, 238], black: [24, 23, 26],
};

/** Frame colours a card may print inside its border (types, trainers, energy). */
const FRAME_PALETTE: RGB[] = [
  [214, 84, 52], [52, 120, 196], [76, 150, 64], [226, 196, 40], [140, 84, 176], [176, 104, 52], [62, 66, 78],
  [140, 150, 160], [222, 126, 182], [176, 140, 36], [186, 178, 164], [240, 232, 200], [210, 214, 220], [90, 60, 40],
];

const dist = (a: readonly number[], b: readonly number[]) => Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!);

/** Level parameters: tilt (degrees off an axis), corner jitter (share of the card's width), blur sigma, noise, light gradient, JPEG quality, share of the frame. */
const LEVEL = {
  easy: { tilt: 8, persp: 0.03, blur: [0.3, 0.7], noise: 3, light: 0.08, q: [88, 95], share: [0.4, 0.75], matchGap: [20, 32] },
  medium: { tilt: 20, persp: 0.08, blur: [0.5, 1.1], noise: 6, light: 0.18, q: [75, 90], share: [0.28, 0.6], matchGap: [13, 22] },
  hard: { tilt: 40, persp: 0.14, blur: [0.9, 1.7], noise: 10, light: 0.3, q: [58, 78], share: [0.2, 0.45], matchGap: [7, 14] },
} as const;

/** The card, 630 × 880 units (63 × 88 mm), as a function of a point in it: colour and coverage. */
type Card = (x: number, y: number) => RGB | null;

function makeCard(r: () => number, border: BorderKind, truth: Truth): Card {
  const W = 630;
  const H = 880;
  const base = BORDER_RGB[border].map((v) => v + (r() - 0.5) * 12) as RGB;
  // Border widths: real cards print 2.5 to 4 mm a side when centred.
  const bw = 2 * W * (0.042 + r() * 0.02);
  const bh = bw * (0.95 + r() * 0.1);
  const L = (bw * truth.left_right) / 100;
  const T = (bh * truth.top_bottom) / 100;
  const R = W - (bw - L);
  const B = H - (bh - T);
  let frame: RGB;
  // A frame that stands out from the border all along it (a silver border's sheen included).
  const sheen = border === "silver" ? [0.88, 1, 1.12] : [1];
  do frame = FRAME_PALETTE[Math.floor(r() * FRAME_PALETTE.length)]!;
  while (sheen.some((k) => dist(frame, base.map((v) => v * k)) < 45));
  const fill = frame.map((v) => v + (255 - v) * (0.45 + r() * 0.3)) as RGB;
  const band = 6 + r() * 8;
  const iw = R - L;
  const ih = B - T;
  const art = { x0: L + iw * 0.07, x1: R - iw * 0.07, y0: T + ih * (0.09 + r() * 0.04), y1: 0 };
  art.y1 = art.y0 + ih * (0.36 + r() * 0.06);
  const artFrame = frame.map((v) => v * 0.7) as RGB;
  // Artwork: a few coloured sinusoid layers.
  const waves = Array.from({ length: 3 }, () => ({ fx: 0.01 + r() * 0.05, fy: 0.01 + r() * 0.05, ph: r() * 6.28, c: [r() * 255, r() * 255, r() * 255] }));
  const words = Array.from({ length: 40 }, () => ({ len: 20 + r() * 70, gap: 8 + r() * 10 }));
  const silverK = border === "silver" ? 0.12 : 0;
  const rc = W * 0.035;
  return (x, y) => {
    if (x < 0 || y < 0 || x >= W || y >= H) return null;
    // Rounded corners.
    const cx = x < rc ? rc - x : x > W - rc ? x - (W - rc) : 0;
    const cy = y < rc ? rc - y : y > H - rc ? y - (H - rc) : 0;
    if (cx > 0 && cy > 0 && cx * cx + cy * cy > rc * rc) return null;
    if (x < L || x >= R || y < T || y >= B) {
      if (!silverK) return base;
      // A silver border catches the light: a gentle sheen across the card.
      const k = 1 + silverK * Math.sin((x + y) * 0.006 + 1.3);
      return [base[0] * k, base[1] * k, base[2] * k];
    }
    if (x < L + band || x >= R - band || y < T + band || y >= B - band) return frame;
    if (y >= art.y0 - 3 && y < art.y1 + 3 && x >= art.x0 - 3 && x < art.x1 + 3) {
      if (y < art.y0 || y >= art.y1 || x < art.x0 || x >= art.x1) return artFrame;
      let a = 0, b = 0, c = 0;
      for (const w of waves) {
        const s = 0.5 + 0.5 * Math.sin(w.fx * x + w.fy * y + w.ph + Math.sin(0.02 * y));
        a += w.c[0]! * s; b += w.c[1]! * s; c += w.c[2]! * s;
      }
      return [a / 1.5, b / 1.5, c / 1.5];
    }
    // Text: the name at the top, attack lines below the art, a small line at the bottom.
    const row = (y0: number, h: number, from: number, to: number) => {
      if (y < y0 || y >= y0 + h || x < from || x >= to) return false;
      let p = from;
      for (const w of words) {
        if (x < p + w.len) return true;
        p += w.len + w.gap;
        if (x < p) return false;
      }
      return false;
    };
    const t = (y - T) / ih;
    const ink: RGB = [30, 30, 34];
    if (row(T + ih * 0.025, ih * 0.045, L + iw * 0.08, L + iw * 0.55)) return ink;
    for (const k of [0.6, 0.68, 0.76]) if (row(T + ih * k, ih * 0.03, L + iw * 0.1, R - iw * (0.1 + 0.2 * k))) return ink;
    if (t > 0.93 && row(T + ih * 0.94, ih * 0.02, L + iw * 0.08, L + iw * 0.4)) return [90, 90, 90];
    return fill;
  };
}

function invert3(m: number[]): number[] {
  const [a, b, c, d, e, f, g, h, i] = m as [number, number, number, number, number, number, number, number, number];
  const A = e * i - f * h, B = -(d * i - f * g), C = d * h - e * g;
  const det = a * A + b * B + c * C;
  return [A / det, -(b * i - c * h) / det, (b * f - c * e) / det, B / det, (a * i - c * g) / det, -(a * f - c * d) / det, C / det, -(a * h - b * g) / det, (a * e - b * d) / det];
}

/** The homography taking the unit square's corners (0,0) (1,0) (1,1) (0,1) to `q` (own copy). */
function unitToQuad(q: Quad): number[] {
  const [p0, p1, p2, p3] = q;
  const sx = p0.x - p1.x + p2.x - p3.x;
  const sy = p0.y - p1.y + p2.y - p3.y;
  const [d1x, d1y, d2x, d2y] = [p1.x - p2.x, p1.y - p2.y, p3.x - p2.x, p3.y - p2.y];
  const den = d1x * d2y - d2x * d1y;
  const g = (sx * d2y - d2x * sy) / den;
  const h = (d1x * sy - sx * d1y) / den;
  return [p1.x - p0.x + g * p1.x, p3.x - p0.x + h * p3.x, p0.x, p1.y - p0.y + g * p1.y, p3.y - p0.y + h * p3.y, p0.y, g, h, 1];
}

function tableFn(r: () => number, kind: TableKind, border: RGB, gap: number, W: number, H: number): (x: number, y: number) => RGB {
  const blobs = Array.from({ length: 6 }, () => ({ x: r() * W, y: r() * H, s: (0.15 + r() * 0.3) * W, k: (r() - 0.5) * 0.08 }));
  const lowFreq = (x: number, y: number) => {
    let k = 1;
    for (const b of blobs) k += b.k * Math.exp(-((x - b.x) ** 2 + (y - b.y) ** 2) / (b.s * b.s));
    return k;
  };
  if (kind === "wood") {
    const tone = 0.7 + r() * 0.5;
    const c: RGB = [150 * tone, 100 * tone, 58 * tone];
    const ang = r() * Math.PI;
    const [ca, sa] = [Math.cos(ang), Math.sin(ang)];
    const f = 0.04 + r() * 0.05;
    return (x, y) => {
      const u = x * ca + y * sa;
      const v = -x * sa + y * ca;
      const grain = 1 + 0.12 * Math.sin(f * u + 2.5 * Math.sin(v * 0.01) + 0.8 * Math.sin(u * 0.31)) + 0.05 * Math.sin(u * 0.9 + v * 0.02);
      const k = grain * lowFreq(x, y);
      return [c[0] * k, c[1] * k, c[2] * k];
    };
  }
  let c: RGB;
  if (kind === "light") c = [205 + r() * 35, 205 + r() * 35, 200 + r() * 35];
  else if (kind === "dark") c = [25 + r() * 45, 25 + r() * 45, 28 + r() * 45];
  else {
    // Close to the border: a random direction in colour, `gap` away (clamped into range).
    const d = [r() - 0.5, r() - 0.5, r() - 0.5];
    const n = Math.hypot(...d) || 1;
    c = border.map((v, i) => Math.max(4, Math.min(251, v + (d[i]! / n) * gap))) as RGB;
  }
  return (x, y) => {
    const k = lowFreq(x, y);
    return [c[0] * k, c[1] * k, c[2] * k];
  };
}

/** A centering case's photo and where the card's corners lie in it (the card's own top-left first, clockwise). */
export async function centeringCasePhoto(pc: PhotoCase): Promise<{ photo: Buffer; quad: Quad; rotation: number }> {
  const r = prng(`h15-centering-photo|${pc.seed}|${pc.border}|${pc.table}|${pc.level}`);
  const lv = LEVEL[pc.level];
  const landscape = r() < 0.3;
  const [W, H] = landscape ? [1200, 900] : [900, 1200];
  const card = makeCard(r, pc.border, pc.truth);
  // Orientation: a quarter turn count (the card as printed, turned) plus a tilt.
  const quarter = Math.floor(r() * 4);
  const rotation = quarter * 90 + (r() - 0.5) * 2 * lv.tilt;
  const a = (rotation * Math.PI) / 180;
  const share = lv.share[0] + r() * (lv.share[1] - lv.share[0]);
  let ch = Math.sqrt((share * W * H) / 0.716);
  const bbox = (h: number) => [h * 0.716 * Math.abs(Math.cos(a)) + h * Math.abs(Math.sin(a)), h * 0.716 * Math.abs(Math.sin(a)) + h * Math.abs(Math.cos(a))];
  const [bw0, bh0] = bbox(ch);
  ch *= Math.min(1, (0.86 * W) / bw0!, (0.86 * H) / bh0!);
  const cw = ch * 0.716;
  const [bw, bh] = bbox(ch);
  const cx = W / 2 + (r() - 0.5) * Math.max(0, W - bw! - 0.1 * W);
  const cy = H / 2 + (r() - 0.5) * Math.max(0, H - bh! - 0.1 * H);
  const jit = () => (r() - 0.5) * 2 * lv.persp * cw;
  const quad = ([[-1, -1], [1, -1], [1, 1], [-1, 1]] as const).map(([sx, sy]) => {
    const x = (sx * cw) / 2;
    const y = (sy * ch) / 2;
    return { x: cx + x * Math.cos(a) - y * Math.sin(a) + jit(), y: cy + x * Math.sin(a) + y * Math.cos(a) + jit() };
  }) as Quad;
  const inv = invert3(unitToQuad(quad));
  const gap = lv.matchGap[0] + r() * (lv.matchGap[1] - lv.matchGap[0]);
  const table = tableFn(r, pc.table, BORDER_RGB[pc.border], gap, W, H);
  // A soft shadow the card casts on the table, weaker the harder the level.
  // A card lies flat: its shadow is a thin, soft fringe (a pixel or two) on the side away from the light.
  const shadow = { dx: (r() - 0.5) * 3, dy: 0.5 + r() * 1.5, k: pc.level === "easy" ? 0.15 : pc.level === "medium" ? 0.1 : 0.04 * r() };
  const light = { gx: (r() - 0.5) * 2 * lv.light, gy: (r() - 0.5) * 2 * lv.light };
  const cast = [0, 1, 2].map(() => 1 + (r() - 0.5) * 0.06);
  const out = Buffer.alloc(W * H * 3);
  // Rotated-grid supersampling: four samples a pixel.
  const SS = [[-0.375, -0.125], [0.125, -0.375], [0.375, 0.125], [-0.125, 0.375]] as const;
  const uv = (x: number, y: number) => {
    const z = inv[6]! * x + inv[7]! * y + inv[8]!;
    return [(inv[0]! * x + inv[1]! * y + inv[2]!) / z, (inv[3]! * x + inv[4]! * y + inv[5]!) / z] as const;
  };
  const acc = [0, 0, 0];
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const [u0, v0] = uv(x, y);
      const tb = table(x, y);
      // Shadow: the card's footprint shifted, blurred by distance to its edge.
      const [us, vs] = uv(x - shadow.dx, y - shadow.dy);
      const inShadow = us >= 0 && us < 1 && vs >= 0 && vs < 1 ? 1 : 0;
      const tableRGB = tb.map((v) => v * (1 - shadow.k * inShadow));
      let o = (y * W + x) * 3;
      if (u0 < -0.01 || u0 > 1.01 || v0 < -0.01 || v0 > 1.01) {
        const shade = 1 + light.gx * (x / W - 0.5) + light.gy * (y / H - 0.5);
        for (let c = 0; c < 3; c++) out[o++] = clamp(tableRGB[c]! * shade);
        continue;
      }
      acc[0] = acc[1] = acc[2] = 0;
      for (const [sx, sy] of SS) {
        const [u, v] = uv(x + sx, y + sy);
        const col = card(u * 630, v * 880);
        for (let c = 0; c < 3; c++) acc[c]! += col ? col[c]! * cast[c]! : tableRGB[c]!;
      }
      const shade = 1 + light.gx * (x / W - 0.5) + light.gy * (y / H - 0.5);
      for (let c = 0; c < 3; c++) out[o++] = clamp((acc[c]! / 4) * shade);
    }
  }
  // Sensor noise, then the lens's blur and the phone's JPEG.
  const nr = prng(`h15-noise|${pc.seed}`);
  for (let i = 0; i < out.length; i += 3) {
    const g = (nr() + nr() + nr() - 1.5) * lv.noise;
    for (let c = 0; c < 3; c++) out[i + c] = clamp(out[i + c]! + g + (nr() - 0.5) * lv.noise * 0.6);
  }
  const sigma = lv.blur[0] + r() * (lv.blur[1] - lv.blur[0]);
  const quality = Math.round(lv.q[0] + r() * (lv.q[1] - lv.q[0]));
  const photo = await sharp(out, { raw: { width: W, height: H, channels: 3 } }).blur(sigma).jpeg({ quality }).toBuffer();
  // Corners in pixel coordinates (pixel (i, j)'s centre is the point (i, j)), the card's own top-left first.
  return { photo, quad, rotation };
}

const clamp = (v: number) => (v < 0 ? 0 : v > 255 ? 255 : Math.round(v));

/** A share of 50-85 % for the first border, either way round. */
function share(r: () => number): number {
  const s = 50 + r() * 35;
  return Math.round((r() < 0.5 ? s : 100 - s) * 10) / 10;
}

/**
 * The evaluation's cases: every border on every table at `level`, `perCell` each, truths drawn
 * from 50/50 to 85/15 both ways on both axes. `seedBase` keeps evaluation seeds apart from any
 * used in tests.
 */
export function centeringCases(level: Level, perCell: number, seedBase = "eval"): PhotoCase[] {
  const cases: PhotoCase[] = [];
  for (const border of BORDERS) {
    for (const table of TABLES) {
      for (let i = 0; i < perCell; i++) {
        const seed = `${seedBase}-${level}-${border}-${table}-${i}`;
        const r = prng(`h15-truth|${seed}`);
        cases.push({ seed, border, table, level, truth: { left_right: share(r), top_bottom: share(r) } });
      }
    }
  }
  return cases;
}
