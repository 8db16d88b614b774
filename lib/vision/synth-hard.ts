import sharp from "sharp";
import { mulberry32 } from "@/lib/random";
import type { Quad } from "./outline";

// A second photo generator for the evaluation, written apart from synth.ts (its own random
// source, geometry, sampling and defects) so that identification is not measured only on the
// photos it was tuned with. Three levels:
//   easy    the card fills 30-70 % of the frame, mild tilt, soft light, sharp, JPEG 80-95;
//   medium  15-55 %, any rotation, up to 25° of camera tilt, a glare spot, a fingertip on an
//           edge half the time, blur σ 0.8-1.6, JPEG 60-85;
//   hard    6-40 %, up to 35° of tilt, strong glare, one or two fingers over the border and
//           art, blur σ 1.5-3 or motion blur, low resolution, a corner or side out of the
//           frame a quarter of the time, JPEG 35-70.
// The frame is 800 × 800, 1000 × 750 or 720 × 960.

export type Level = "easy" | "medium" | "hard";
export const LEVELS: Level[] = ["easy", "medium", "hard"];

/** mulberry32 over a string hash (not synth.ts's xorshift). */
export function rng(seed: string): () => number {
  let h = 1779033703 ^ seed.length;
  for (let i = 0; i < seed.length; i++) {
    h = Math.imul(h ^ seed.charCodeAt(i), 3432918353);
    h = (h << 13) | (h >>> 19);
  }
  return mulberry32(h);
}

type M3 = number[];
const mul = (a: M3, b: M3): M3 => [0, 1, 2].flatMap((i) => [0, 1, 2].map((j) => a[i * 3]! * b[j]! + a[i * 3 + 1]! * b[3 + j]! + a[i * 3 + 2]! * b[6 + j]!));
const apply = (m: M3, x: number, y: number) => {
  const z = m[6]! * x + m[7]! * y + m[8]!;
  return { x: (m[0]! * x + m[1]! * y + m[2]!) / z, y: (m[3]! * x + m[4]! * y + m[5]!) / z };
};
function inverse(m: M3): M3 {
  const [a, b, c, d, e, f, g, h, i] = m as [number, number, number, number, number, number, number, number, number];
  const A = e * i - f * h, B = f * g - d * i, C = d * h - e * g;
  const det = a * A + b * B + c * C;
  return [A, c * h - b * i, b * f - c * e, B, a * i - c * g, c * d - a * f, C, b * g - a * h, a * e - b * d].map((v) => v / det);
}

/** A table: a two-colour gradient, grain stripes and a few objects, softened. */
async function backdrop(r: () => number, W: number, H: number): Promise<Buffer> {
  const col = () => `rgb(${Math.floor(r() * 230)},${Math.floor(r() * 230)},${Math.floor(r() * 230)})`;
  const parts = [`<defs><linearGradient id="g" x1="0" y1="0" x2="${r().toFixed(2)}" y2="1"><stop offset="0" stop-color="${col()}"/><stop offset="1" stop-color="${col()}"/></linearGradient></defs><rect width="${W}" height="${H}" fill="url(#g)"/>`];
  const stripes = Math.floor(r() * 30);
  for (let i = 0; i < stripes; i++) parts.push(`<rect x="-50" y="${(r() * H).toFixed(0)}" width="${W + 100}" height="${(1 + r() * 6).toFixed(1)}" fill="${col()}" opacity="${(0.1 + r() * 0.3).toFixed(2)}" transform="rotate(${(r() * 10 - 5).toFixed(1)} ${W / 2} ${H / 2})"/>`);
  const things = 3 + Math.floor(r() * 8);
  for (let i = 0; i < things; i++) {
    const [x, y, w, h] = [r() * W, r() * H, 40 + r() * W * 0.35, 30 + r() * H * 0.3];
    parts.push(r() < 0.5
      ? `<rect x="${x.toFixed(0)}" y="${y.toFixed(0)}" width="${w.toFixed(0)}" height="${h.toFixed(0)}" rx="${(r() * 20).toFixed(0)}" fill="${col()}" transform="rotate(${(r() * 180).toFixed(0)} ${x.toFixed(0)} ${y.toFixed(0)})"/>`
      : `<ellipse cx="${x.toFixed(0)}" cy="${y.toFixed(0)}" rx="${(w / 2).toFixed(0)}" ry="${(h / 2).toFixed(0)}" fill="${col()}"/>`);
  }
  return sharp(Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">${parts.join("")}</svg>`)).blur(0.8 + r() * 2).removeAlpha().raw().toBuffer();
}

/** Fingers: skin-toned capsules reaching in from the frame's edge towards `to`. */
function fingers(r: () => number, W: number, H: number, to: { x: number; y: number }[], width: number): string {
  const tones = ["#f1c27d", "#e0ac69", "#c68642", "#8d5524", "#ffdbac", "#d19f7a"];
  return to.map((p) => {
    const tone = tones[Math.floor(r() * tones.length)]!;
    // From the nearest frame edge, past the point.
    const edges = [{ x: p.x, y: -60 }, { x: p.x, y: H + 60 }, { x: -60, y: p.y }, { x: W + 60, y: p.y }];
    const from = edges.sort((a, b) => Math.hypot(a.x - p.x, a.y - p.y) - Math.hypot(b.x - p.x, b.y - p.y))[Math.floor(r() * 2)]!;
    const ang = (Math.atan2(p.y - from.y, p.x - from.x) * 180) / Math.PI + (r() - 0.5) * 30;
    const len = Math.hypot(p.x - from.x, p.y - from.y) + width * (0.3 + r() * 0.8);
    const w = width * (0.8 + r() * 0.5);
    return `<g transform="translate(${from.x.toFixed(1)} ${from.y.toFixed(1)}) rotate(${ang.toFixed(1)})"><rect x="0" y="${(-w / 2).toFixed(1)}" width="${len.toFixed(1)}" height="${w.toFixed(1)}" rx="${(w / 2).toFixed(1)}" fill="${tone}"/><rect x="${(len - w * 0.9).toFixed(1)}" y="${(-w * 0.3).toFixed(1)}" width="${(w * 0.7).toFixed(1)}" height="${(w * 0.6).toFixed(1)}" rx="${(w * 0.25).toFixed(1)}" fill="#f4d6cf" opacity="0.6"/></g>`;
  }).join("");
}

/**
 * A photo of `face` at `level`, and where the card's corners are (some may lie outside the frame).
 * `without` leaves one defect out of the photo (its random draws still made, so the rest of the
 * photo is the same): how much that defect costs, for diagnosis (bench/tune-identify.ts).
 */
export async function hardPhoto(face: Buffer, seed: string, level: Level, without?: "glare" | "fingers"): Promise<{ photo: Buffer; quad: Quad }> {
  const r = rng(`hard-synth:${level}:${seed}`);
  const [W, H] = ([[800, 800], [1000, 750], [720, 960]] as const)[Math.floor(r() * 3)]!;
  const L = { easy: 0, medium: 1, hard: 2 }[level];
  const tex = await sharp(face).resize({ width: 504, height: 704, fit: "fill" }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const [tw, th] = [tex.info.width, tex.info.height];
  const bg = await backdrop(r, W, H);

  // Camera: the card (its centre at the origin, in card pixels) tilted in 3D, projected, then placed.
  const share = [[0.3, 0.7], [0.15, 0.55], [0.06, 0.4]][L]!;
  const area = (share[0]! + r() * (share[1]! - share[0]!)) * W * H;
  const s = Math.sqrt(area / (tw * th));
  const tilt = ([10, 25, 35][L]! * Math.PI) / 180;
  const [ax, ay] = [(r() - 0.5) * 2 * tilt, (r() - 0.5) * 2 * tilt];
  const spin = L === 0 ? (r() - 0.5) * 0.5 + (r() < 0.1 ? Math.PI : 0) : r() * 2 * Math.PI;
  const f = 1.6 * Math.max(tw, th);
  const [ca, sa, cb, sb, cs, ss] = [Math.cos(ax), Math.sin(ax), Math.cos(ay), Math.sin(ay), Math.cos(spin), Math.sin(spin)];
  // Rotation R = Rz(spin) · Ry(ay) · Rx(ax); a card point (X, Y, 0) goes to R·(X, Y, 0) + (0, 0, f).
  const R = mul(mul([cs, -ss, 0, ss, cs, 0, 0, 0, 1], [cb, 0, sb, 0, 1, 0, -sb, 0, cb]), [1, 0, 0, 0, ca, -sa, 0, sa, ca]);
  const cam: M3 = [f * R[0]!, f * R[1]!, 0, f * R[3]!, f * R[4]!, 0, R[6]!, R[7]!, f];
  const toCard: M3 = [1, 0, -tw / 2, 0, 1, -th / 2, 0, 0, 1];
  let H0 = mul(cam, toCard);
  const cornersAt = (m: M3) => [[0, 0], [tw, 0], [tw, th], [0, th]].map(([x, y]) => apply(m, x!, y!));
  // Scale the projection to the wanted area, then place it in the frame.
  const c0 = cornersAt(H0);
  const a0 = Math.abs(c0.reduce((acc, p, i) => acc + p.x * c0[(i + 1) % 4]!.y - c0[(i + 1) % 4]!.x * p.y, 0)) / 2;
  const k = Math.sqrt(area / a0) * (s > 0 ? 1 : 1);
  H0 = mul([k, 0, 0, 0, k, 0, 0, 0, 1], H0);
  const c1 = cornersAt(H0);
  const [minX, maxX] = [Math.min(...c1.map((p) => p.x)), Math.max(...c1.map((p) => p.x))];
  const [minY, maxY] = [Math.min(...c1.map((p) => p.y)), Math.max(...c1.map((p) => p.y))];
  const fit = Math.min(1, (0.96 * W) / (maxX - minX), (0.96 * H) / (maxY - minY));
  H0 = mul([fit, 0, 0, 0, fit, 0, 0, 0, 1], H0);
  const [bw, bh] = [(maxX - minX) * fit, (maxY - minY) * fit];
  let cx = W / 2 + (r() - 0.5) * Math.max(0, W - bw - 10);
  let cy = H / 2 + (r() - 0.5) * Math.max(0, H - bh - 10);
  // Hard: a side or corner pushed out of the frame, a quarter of the time (at most 12 % of the card).
  if (L === 2 && r() < 0.25) {
    const dir = Math.floor(r() * 4);
    const push = 0.04 + r() * 0.08;
    if (dir === 0) cx = bw / 2 - bw * push;
    else if (dir === 1) cx = W - bw / 2 + bw * push;
    else if (dir === 2) cy = bh / 2 - bh * push;
    else cy = H - bh / 2 + bh * push;
  }
  const mid = { x: (minX + maxX) / 2 * fit, y: (minY + maxY) / 2 * fit };
  H0 = mul([1, 0, cx - mid.x, 0, 1, cy - mid.y, 0, 0, 1], H0);
  const quad = cornersAt(H0) as Quad;
  const inv = inverse(H0);

  // Light: a gradient over the frame, a colour temperature.
  const warm = (r() - 0.5) * [0.1, 0.25, 0.35][L]!;
  const gain = [1 + warm, 1, 1 - warm].map((g) => g * (0.75 + r() * 0.45));
  const grad = { x: (r() - 0.5) * 0.6 / W, y: (r() - 0.5) * 0.6 / H };
  const out = Buffer.from(bg);
  const d = tex.data;
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const p = apply(inv, x + 0.5, y + 0.5);
      if (p.x < 0 || p.y < 0 || p.x >= tw || p.y >= th) continue;
      const fx = Math.min(tw - 1.001, Math.max(0, p.x - 0.5)), fy = Math.min(th - 1.001, Math.max(0, p.y - 0.5));
      const x0 = Math.floor(fx), y0 = Math.floor(fy);
      const wx = fx - x0, wy = fy - y0;
      const i = (y0 * tw + x0) * 3, j = i + tw * 3;
      const o = (y * W + x) * 3;
      for (let c = 0; c < 3; c++) {
        const v = (d[i + c]! * (1 - wx) + d[i + 3 + c]! * wx) * (1 - wy) + (d[j + c]! * (1 - wx) + d[j + 3 + c]! * wx) * wy;
        out[o + c] = v;
      }
    }
  }
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) {
    const shade = 1 + grad.x * (x - W / 2) + grad.y * (y - H / 2);
    const o = (y * W + x) * 3;
    for (let c = 0; c < 3; c++) out[o + c] = Math.max(0, Math.min(255, out[o + c]! * gain[c]! * shade));
  }

  // Overlays: glare and fingers.
  const cardW = Math.hypot(quad[1].x - quad[0].x, quad[1].y - quad[0].y);
  const onCard = (u: number, v: number) => apply(H0, u * tw, v * th);
  const overlay: string[] = [];
  if (L > 0 || r() < 0.3) {
    const g = onCard(0.15 + r() * 0.7, 0.15 + r() * 0.7);
    const rad = cardW * ([0.15, 0.3, 0.45][L]! * (0.5 + r()));
    const peak = [0.35, 0.6, 0.9][L]! * (0.5 + r() * 0.5);
    const glare = [`<defs><radialGradient id="gl"><stop offset="0" stop-color="#fff" stop-opacity="${peak.toFixed(2)}"/><stop offset="0.5" stop-color="#fff" stop-opacity="${(peak * 0.6).toFixed(2)}"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></radialGradient></defs>`,
      `<ellipse cx="${g.x.toFixed(1)}" cy="${g.y.toFixed(1)}" rx="${rad.toFixed(1)}" ry="${(rad * (0.4 + r() * 0.6)).toFixed(1)}" fill="url(#gl)" transform="rotate(${(r() * 180).toFixed(0)} ${g.x.toFixed(1)} ${g.y.toFixed(1)})"/>`];
    if (without !== "glare") overlay.push(...glare);
  }
  const nFingers = L === 2 ? 1 + (r() < 0.5 ? 1 : 0) : L === 1 && r() < 0.5 ? 1 : 0;
  if (nFingers) {
    // Fingertips on the border (a side or a corner) and a little way in.
    const tips = Array.from({ length: nFingers }, () => {
      const side = Math.floor(r() * 4);
      const t = 0.1 + r() * 0.8;
      const inset = r() * (L === 2 ? 0.12 : 0.06);
      const [u, v] = [[t, inset], [1 - inset, t], [t, 1 - inset], [inset, t]][side]!;
      return onCard(u!, v!);
    });
    const f = fingers(r, W, H, tips, cardW * (0.12 + r() * 0.06));
    if (without !== "fingers") overlay.push(f);
  }
  let img = sharp(out, { raw: { width: W, height: H, channels: 3 } });
  if (overlay.length) {
    const svg = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">${overlay.join("")}</svg>`);
    img = sharp(await img.composite([{ input: svg }]).removeAlpha().raw().toBuffer(), { raw: { width: W, height: H, channels: 3 } });
  }
  // Blur (motion blur on some hard photos), low resolution, noise, JPEG.
  let raw = await img.raw().toBuffer();
  const sigma = [0.3 + r() * 0.5, 0.8 + r() * 0.8, 1.5 + r() * 1.5][L]!;
  if (L === 2 && r() < 0.35) {
    const n = 5 + Math.floor(r() * 5);
    const horizontal = r() < 0.5;
    const kernel = Array.from({ length: n * n }, (_, i) => ((horizontal ? Math.floor(i / n) : i % n) === Math.floor(n / 2) ? 1 : 0));
    raw = await sharp(raw, { raw: { width: W, height: H, channels: 3 } }).convolve({ width: n, height: n, kernel }).raw().toBuffer();
  } else raw = await sharp(raw, { raw: { width: W, height: H, channels: 3 } }).blur(sigma).raw().toBuffer();
  if (L === 2 && r() < 0.3) {
    const small = await sharp(raw, { raw: { width: W, height: H, channels: 3 } }).resize(Math.round(W / 2), Math.round(H / 2)).raw().toBuffer();
    raw = await sharp(small, { raw: { width: Math.round(W / 2), height: Math.round(H / 2), channels: 3 } }).resize(W, H).raw().toBuffer();
  }
  const noise = [4, 10, 18][L]!;
  for (let i = 0; i < raw.length; i++) raw[i] = Math.max(0, Math.min(255, raw[i]! + (r() + r() - 1) * noise));
  const q = [[80, 95], [60, 85], [35, 70]][L]!;
  const photo = await sharp(raw, { raw: { width: W, height: H, channels: 3 } }).jpeg({ quality: q[0]! + Math.floor(r() * (q[1]! - q[0]!)) }).toBuffer();
  return { photo, quad };
}
