// Finding a card in a photo and squaring it up, on the CPU without a vision library: edges
// (Sobel) → straight lines (Hough) → the best four lines that close a card-shaped quadrilateral
// with edges all along it → a homography that maps it onto an upright card.

export type Gray = { data: Float32Array; w: number; h: number };
export type Point = { x: number; y: number };
/** Corners in order: top-left, top-right, bottom-right, bottom-left. */
export type Quad = [Point, Point, Point, Point];

type Line = { theta: number; rho: number; votes: number };

/** Gradient magnitude and direction of a grayscale image. */
function sobel(g: Gray): { mag: Float32Array; dir: Float32Array } {
  const { w, h, data } = g;
  const mag = new Float32Array(w * h);
  const dir = new Float32Array(w * h);
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      const i = y * w + x;
      const gx = data[i - w + 1]! + 2 * data[i + 1]! + data[i + w + 1]! - data[i - w - 1]! - 2 * data[i - 1]! - data[i + w - 1]!;
      const gy = data[i + w - 1]! + 2 * data[i + w]! + data[i + w + 1]! - data[i - w - 1]! - 2 * data[i - w]! - data[i - w + 1]!;
      mag[i] = Math.hypot(gx, gy);
      dir[i] = Math.atan2(gy, gx);
    }
  }
  return { mag, dir };
}

const THETAS = 180;

/** Strongest straight lines, each voted for by edge pixels whose gradient points across it. */
function houghLines(g: Gray, mag: Float32Array, dir: Float32Array, max: number): Line[] {
  const { w, h } = g;
  const sorted = Float32Array.from(mag).sort();
  const threshold = Math.max(sorted[Math.floor(sorted.length * 0.9)]!, 20);
  const diag = Math.ceil(Math.hypot(w, h));
  const acc = new Float32Array(THETAS * (2 * diag + 1));
  const cos = Float64Array.from({ length: THETAS }, (_, t) => Math.cos((t * Math.PI) / THETAS));
  const sin = Float64Array.from({ length: THETAS }, (_, t) => Math.sin((t * Math.PI) / THETAS));
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      const i = y * w + x;
      if (mag[i]! < threshold) continue;
      // Only angles near the gradient's own: ±6° keeps the voting cheap and the peaks sharp.
      let t0 = Math.round(((dir[i]! + Math.PI) % Math.PI) / (Math.PI / THETAS));
      for (let d = -6; d <= 6; d++) {
        const t = (t0 + d + THETAS) % THETAS;
        const rho = Math.round(x * cos[t]! + y * sin[t]!);
        acc[t * (2 * diag + 1) + rho + diag]! += 1;
      }
      t0 = 0;
    }
  }
  const lines: Line[] = [];
  const width = 2 * diag + 1;
  // Peaks with suppression of their neighbourhood, strongest first.
  const order = Array.from(acc.keys()).filter((k) => acc[k]! > Math.min(w, h) * 0.15).sort((a, b) => acc[b]! - acc[a]!);
  for (const k of order) {
    const t = Math.floor(k / width);
    const rho = (k % width) - diag;
    const theta = (t * Math.PI) / THETAS;
    if (lines.some((l) => angleGap(l.theta, theta) < (8 * Math.PI) / 180 && Math.abs(l.rho - rho * Math.sign(Math.cos(l.theta - theta))) < Math.min(w, h) * 0.04)) continue;
    lines.push({ theta, rho, votes: acc[k]! });
    if (lines.length >= max) break;
  }
  return lines;
}

function angleGap(a: number, b: number): number {
  const d = Math.abs(a - b) % Math.PI;
  return Math.min(d, Math.PI - d);
}

function intersect(a: Line, b: Line): Point | null {
  const det = Math.cos(a.theta) * Math.sin(b.theta) - Math.sin(a.theta) * Math.cos(b.theta);
  if (Math.abs(det) < 1e-6) return null;
  return {
    x: (a.rho * Math.sin(b.theta) - b.rho * Math.sin(a.theta)) / det,
    y: (b.rho * Math.cos(a.theta) - a.rho * Math.cos(b.theta)) / det,
  };
}

/** Orders four corners clockwise from the top-left, the card upright (its long sides vertical). */
export function orderCorners(pts: Point[]): Quad {
  const c = { x: pts.reduce((n, p) => n + p.x, 0) / 4, y: pts.reduce((n, p) => n + p.y, 0) / 4 };
  const byAngle = [...pts].sort((a, b) => Math.atan2(a.y - c.y, a.x - c.x) - Math.atan2(b.y - c.y, b.x - c.x));
  // Start where the corner sum x + y is least (top-left in image terms).
  let start = 0;
  byAngle.forEach((p, i) => { if (p.x + p.y < byAngle[start]!.x + byAngle[start]!.y) start = i; });
  let q = [0, 1, 2, 3].map((k) => byAngle[(start + k) % 4]!) as Quad;
  const len = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y);
  // A card lying on its side: rotate the order so that the long sides run top to bottom.
  if (len(q[0], q[1]) + len(q[2], q[3]) > len(q[1], q[2]) + len(q[3], q[0])) q = [q[3], q[0], q[1], q[2]];
  return q;
}

/** Share of the quad's perimeter that runs along strong edges. */
function support(q: Quad, mag: Float32Array, g: Gray, threshold: number): number {
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
      if (x < 1 || y < 1 || x >= g.w - 1 || y >= g.h - 1) continue;
      let best = 0;
      for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) best = Math.max(best, mag[(y + dy) * g.w + x + dx]!);
      if (best >= threshold) on++;
    }
  }
  return n ? on / n : 0;
}

function area(q: Quad): number {
  let s = 0;
  for (let k = 0; k < 4; k++) s += q[k]!.x * q[(k + 1) % 4]!.y - q[(k + 1) % 4]!.x * q[k]!.y;
  return Math.abs(s) / 2;
}

function convex(q: Quad): boolean {
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

/**
 * The card's outline in `g`, or null when no card-shaped quadrilateral with edges along it is
 * found. `score` is the share of its perimeter on strong edges.
 */
export function findCard(g: Gray): { quad: Quad; score: number } | null {
  const { mag, dir } = sobel(g);
  const lines = houghLines(g, mag, dir, 14);
  const sorted = Float32Array.from(mag).sort();
  const threshold = Math.max(sorted[Math.floor(sorted.length * 0.85)]!, 15);
  const candidates: { quad: Quad; score: number; area: number }[] = [];
  const frame = g.w * g.h;
  for (let a = 0; a < lines.length; a++) {
    for (let b = a + 1; b < lines.length; b++) {
      // Opposite sides: roughly parallel (perspective allows some convergence).
      if (angleGap(lines[a]!.theta, lines[b]!.theta) > (25 * Math.PI) / 180) continue;
      for (let c = 0; c < lines.length; c++) {
        if (c === a || c === b || angleGap(lines[a]!.theta, lines[c]!.theta) < (50 * Math.PI) / 180) continue;
        for (let d = c + 1; d < lines.length; d++) {
          if (d === a || d === b || angleGap(lines[c]!.theta, lines[d]!.theta) > (25 * Math.PI) / 180) continue;
          const pts = [intersect(lines[a]!, lines[c]!), intersect(lines[a]!, lines[d]!), intersect(lines[b]!, lines[d]!), intersect(lines[b]!, lines[c]!)];
          if (pts.some((p) => !p || p.x < -g.w * 0.05 || p.y < -g.h * 0.05 || p.x > g.w * 1.05 || p.y > g.h * 1.05)) continue;
          const quad = orderCorners(pts as Point[]);
          if (!convex(quad)) continue;
          const share = area(quad) / frame;
          if (share < 0.08 || share > 0.98) continue;
          const side = (i: number) => Math.hypot(quad[(i + 1) % 4]!.x - quad[i]!.x, quad[(i + 1) % 4]!.y - quad[i]!.y);
          const aspect = (side(0) + side(2)) / (side(1) + side(3));
          if (aspect < 0.45 || aspect > 0.95) continue;
          candidates.push({ quad, score: support(quad, mag, g, threshold) * (1 - Math.abs(aspect - 0.716) * 0.5), area: share });
        }
      }
    }
  }
  if (!candidates.length) return null;
  // The frame printed inside a card is a well-supported quad too: of the quads supported almost
  // as well as the best, the largest is the card's own edge.
  const top = Math.max(...candidates.map((c) => c.score));
  const best = candidates.filter((c) => c.score >= top * 0.85).sort((a, b) => b.area - a.area)[0]!;
  return { quad: best.quad, score: best.score };
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

/** The quad's content squared up into a w × h RGB raster (bilinear sampling). */
export function rectify(rgb: { data: Buffer; w: number; h: number }, q: Quad, w: number, h: number): Buffer {
  const m = squareToQuad(q);
  const out = Buffer.alloc(w * h * 3);
  const src = rgb.data;
  for (let y = 0; y < h; y++) {
    const v = (y + 0.5) / h;
    for (let x = 0; x < w; x++) {
      const u = (x + 0.5) / w;
      const z = m[6]! * u + m[7]! * v + 1;
      const sx = (m[0]! * u + m[1]! * v + m[2]!) / z - 0.5;
      const sy = (m[3]! * u + m[4]! * v + m[5]!) / z - 0.5;
      const x0 = Math.max(0, Math.min(rgb.w - 2, Math.floor(sx)));
      const y0 = Math.max(0, Math.min(rgb.h - 2, Math.floor(sy)));
      const fx = Math.max(0, Math.min(1, sx - x0));
      const fy = Math.max(0, Math.min(1, sy - y0));
      const o = (y * w + x) * 3;
      for (let c = 0; c < 3; c++) {
        const i00 = (y0 * rgb.w + x0) * 3 + c;
        const top = src[i00]! * (1 - fx) + src[i00 + 3]! * fx;
        const bottom = src[i00 + rgb.w * 3]! * (1 - fx) + src[i00 + rgb.w * 3 + 3]! * fx;
        out[o + c] = top * (1 - fy) + bottom * fy;
      }
    }
  }
  return out;
}
