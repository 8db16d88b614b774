import sharp from "sharp";
import { seeded } from "./render";
import { squareToQuad, type Quad } from "./outline";

// Photos made from card faces for the evaluation and the tests: the face in random
// perspective and rotation, filling 25-90 % of the frame, on a cluttered background, with
// blur, noise, a colour cast, glare, a small occlusion and JPEG loss. Seeded: the same seed
// makes the same photo.

export type SynthOptions = { seed: string; width?: number; height?: number };

function invert3(m: number[]): number[] {
  const [a, b, c, d, e, f, g, h, i] = m as [number, number, number, number, number, number, number, number, number];
  const A = e * i - f * h, B = -(d * i - f * g), C = d * h - e * g;
  const det = a * A + b * B + c * C;
  return [A / det, -(b * i - c * h) / det, (b * f - c * e) / det, B / det, (a * i - c * g) / det, -(a * f - c * d) / det, C / det, -(a * h - b * g) / det, (a * e - b * d) / det];
}

async function clutter(r: () => number, w: number, h: number): Promise<Buffer> {
  const shapes: string[] = [];
  for (let i = 0; i < 40; i++) {
    const hue = Math.floor(r() * 360);
    const fill = `hsl(${hue},${20 + Math.floor(r() * 60)}%,${20 + Math.floor(r() * 60)}%)`;
    if (r() < 0.5) shapes.push(`<rect x="${r() * w}" y="${r() * h}" width="${20 + r() * w * 0.4}" height="${20 + r() * h * 0.3}" fill="${fill}" transform="rotate(${r() * 360} ${w / 2} ${h / 2})"/>`);
    else shapes.push(`<circle cx="${r() * w}" cy="${r() * h}" r="${10 + r() * w * 0.15}" fill="${fill}"/>`);
  }
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><rect width="${w}" height="${h}" fill="hsl(${Math.floor(r() * 360)},25%,${30 + Math.floor(r() * 40)}%)"/>${shapes.join("")}</svg>`;
  return sharp(Buffer.from(svg)).blur(1 + r() * 3).removeAlpha().raw().toBuffer();
}

/** A photo of `face` (any image) and the quad where the card lies in it. */
export async function synthPhoto(face: Buffer, o: SynthOptions): Promise<{ photo: Buffer; quad: Quad }> {
  const r = seeded(`photo:${o.seed}`);
  const W = o.width ?? 800;
  const H = o.height ?? 800;
  const card = await sharp(face).resize({ width: 420, height: 586, fit: "fill" }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const bg = await clutter(r, W, H);
  // The card's size by the share of the frame it covers, then rotation and perspective jitter.
  const share = 0.25 + r() * 0.65;
  const ch = Math.sqrt((share * W * H) / 0.716);
  const cw = ch * 0.716;
  const scale = Math.min(1, (0.95 * Math.min(W, H)) / Math.hypot(cw, ch));
  const [w2, h2] = [(cw * scale) / 2, (ch * scale) / 2];
  const angle = (r() - 0.5) * 2 * (Math.PI / 6) + (r() < 0.1 ? Math.PI / 2 : 0);
  const cx = W / 2 + (r() - 0.5) * (W - 2 * Math.max(w2, h2)) * 0.8;
  const cy = H / 2 + (r() - 0.5) * (H - 2 * Math.max(w2, h2)) * 0.8;
  const jitter = () => (r() - 0.5) * 0.16 * Math.min(w2, h2) * 2;
  let corners = [[-w2, -h2], [w2, -h2], [w2, h2], [-w2, h2]].map(([x, y]) => ({
    x: cx + x! * Math.cos(angle) - y! * Math.sin(angle) + jitter(),
    y: cy + x! * Math.sin(angle) + y! * Math.cos(angle) + jitter(),
  })) as Quad;
  // Whole card in the frame: shrink about its centre until every corner is inside.
  const inside = (q: Quad) => q.every((p) => p.x >= 4 && p.y >= 4 && p.x <= W - 5 && p.y <= H - 5);
  for (let k = 0; k < 20 && !inside(corners); k++) {
    const mx = corners.reduce((n, p) => n + p.x, 0) / 4;
    const my = corners.reduce((n, p) => n + p.y, 0) / 4;
    corners = corners.map((p) => ({ x: W / 2 + (mx - W / 2) * 0.9 + (p.x - mx) * 0.93, y: H / 2 + (my - H / 2) * 0.9 + (p.y - my) * 0.93 })) as Quad;
  }
  const inv = invert3(squareToQuad(corners));
  const out = Buffer.from(bg);
  const cast = [1 + (r() - 0.5) * 0.3, 1 + (r() - 0.5) * 0.3, 1 + (r() - 0.5) * 0.3];
  const glare = { x: cx + (r() - 0.5) * w2 * 2, y: cy + (r() - 0.5) * h2 * 2, r: Math.min(w2, h2) * (0.3 + r() * 0.5), k: r() * 0.6 };
  const occ = r() < 0.5 ? { x: cx + (r() - 0.5) * w2 * 2, y: cy + (r() - 0.5) * h2 * 2, s: Math.min(w2, h2) * (0.1 + r() * 0.15) } : null;
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const z = inv[6]! * x + inv[7]! * y + inv[8]!;
      const u = (inv[0]! * x + inv[1]! * y + inv[2]!) / z;
      const v = (inv[3]! * x + inv[4]! * y + inv[5]!) / z;
      if (u < 0 || u >= 1 || v < 0 || v >= 1) continue;
      const si = (Math.floor(v * card.info.height) * card.info.width + Math.floor(u * card.info.width)) * 3;
      const o = (y * W + x) * 3;
      const g = Math.max(0, 1 - Math.hypot(x - glare.x, y - glare.y) / glare.r) * glare.k;
      for (let c = 0; c < 3; c++) out[o + c] = Math.min(255, card.data[si + c]! * cast[c]! * (1 - g) + 255 * g);
      if (occ && Math.abs(x - occ.x) < occ.s && Math.abs(y - occ.y) < occ.s * 0.6) out[o] = out[o + 1] = out[o + 2] = 40;
    }
  }
  for (let i = 0; i < out.length; i++) out[i] = Math.max(0, Math.min(255, out[i]! + (r() - 0.5) * 18));
  const photo = await sharp(out, { raw: { width: W, height: H, channels: 3 } }).blur(0.3 + r() * 1.2).jpeg({ quality: 50 + Math.floor(r() * 41) }).toBuffer();
  return { photo, quad: corners };
}

/** The card's border colour (render.ts): a table that colour would hide the card's edge. */
const BORDER_RGB = [241, 207, 59];

/** A plain table with a faint, soft texture, far enough in colour from the card's border. */
async function table(r: () => number, w: number, h: number): Promise<Buffer> {
  let base: number[];
  do base = [r() * 255, r() * 255, r() * 255].map((v) => 30 + v * 0.8);
  while (Math.hypot(...base.map((v, c) => v - BORDER_RGB[c]!)) < 90);
  const blobs = Array.from({ length: 12 }, () => {
    const k = 1 + (r() - 0.5) * 0.12;
    return `<ellipse cx="${r() * w}" cy="${r() * h}" rx="${w * (0.1 + r() * 0.3)}" ry="${h * (0.05 + r() * 0.2)}" fill="rgb(${base.map((v) => Math.round(Math.min(255, v * k))).join(",")})"/>`;
  });
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><rect width="${w}" height="${h}" fill="rgb(${base.map(Math.round).join(",")})"/>${blobs.join("")}</svg>`;
  return sharp(Buffer.from(svg)).blur(15).removeAlpha().raw().toBuffer();
}

/**
 * A photo of `face` taken to check its centering: the card upright give or take 20°, in
 * moderate perspective, filling 40-90 % of a portrait frame (900 × 1200 by default), on a
 * plain or faintly textured table, evenly lit (a mild gradient and cast, no glare on the
 * border, nothing over it), a little blur and noise, JPEG 85-95. Anti-aliased (4 bilinear
 * samples a pixel), so the border widths are as drawn. Seeded.
 */
export async function synthCenteringPhoto(face: Buffer, o: SynthOptions): Promise<{ photo: Buffer; quad: Quad }> {
  const r = seeded(`centering:${o.seed}`);
  const W = o.width ?? 900;
  const H = o.height ?? 1200;
  const share = 0.4 + r() * 0.5;
  let ch = Math.sqrt((share * W * H) / 0.716);
  const angle = ((r() - 0.5) * 2 * 20 * Math.PI) / 180;
  // The rotated card's bounding box must fit the frame with a little room.
  const fit = Math.min(1, (0.94 * W) / (ch * 0.716 * Math.abs(Math.cos(angle)) + ch * Math.abs(Math.sin(angle))), (0.94 * H) / (ch * 0.716 * Math.abs(Math.sin(angle)) + ch * Math.abs(Math.cos(angle))));
  ch *= fit;
  const cw = ch * 0.716;
  const room = (span: number, size: number) => Math.max(0, (size - span) / 2 - 0.04 * size);
  const cx = W / 2 + (r() - 0.5) * 2 * room(cw * Math.abs(Math.cos(angle)) + ch * Math.abs(Math.sin(angle)), W);
  const cy = H / 2 + (r() - 0.5) * 2 * room(cw * Math.abs(Math.sin(angle)) + ch * Math.abs(Math.cos(angle)), H);
  const jitter = () => (r() - 0.5) * 0.12 * cw;
  let corners = [[-cw / 2, -ch / 2], [cw / 2, -ch / 2], [cw / 2, ch / 2], [-cw / 2, ch / 2]].map(([x, y]) => ({
    x: cx + x! * Math.cos(angle) - y! * Math.sin(angle) + jitter(),
    y: cy + x! * Math.sin(angle) + y! * Math.cos(angle) + jitter(),
  })) as Quad;
  const inside = (q: Quad) => q.every((p) => p.x >= 6 && p.y >= 6 && p.x <= W - 7 && p.y <= H - 7);
  for (let k = 0; k < 20 && !inside(corners); k++) corners = corners.map((p) => ({ x: cx + (p.x - cx) * 0.95, y: cy + (p.y - cy) * 0.95 })) as Quad;

  // The face as drawn, not resized: a resize would shift its content by a fraction of a pixel.
  const tex = await sharp(face).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const [tW, tH] = [tex.info.width, tex.info.height];
  const out = await table(r, W, H);
  const inv = invert3(squareToQuad(corners));
  const cast = [0, 1, 2].map(() => 1 + (r() - 0.5) * 0.08);
  const light = { dx: (r() - 0.5) * 0.12 / W, dy: (r() - 0.5) * 0.12 / H };
  const sample = new Float64Array(4);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const o = (y * W + x) * 3;
      sample.fill(0);
      let cover = 0;
      // Four samples inside the pixel (its centre is the point (x, y)), each bilinear on the face.
      for (const [sx, sy] of [[-0.25, -0.25], [0.25, -0.25], [-0.25, 0.25], [0.25, 0.25]] as const) {
        const px = x + sx;
        const py = y + sy;
        const z = inv[6]! * px + inv[7]! * py + inv[8]!;
        const u = (inv[0]! * px + inv[1]! * py + inv[2]!) / z;
        const v = (inv[3]! * px + inv[4]! * py + inv[5]!) / z;
        if (u < 0 || u >= 1 || v < 0 || v >= 1) continue;
        const fx = Math.min(tW - 1.001, Math.max(0, u * tW - 0.5));
        const fy = Math.min(tH - 1.001, Math.max(0, v * tH - 0.5));
        const x0 = Math.floor(fx);
        const y0 = Math.floor(fy);
        const ax = fx - x0;
        const ay = fy - y0;
        const i = (y0 * tW + x0) * 4;
        const j = i + tW * 4;
        for (let c = 0; c < 4; c++) {
          const top = tex.data[i + c]! * (1 - ax) + tex.data[i + 4 + c]! * ax;
          const bottom = tex.data[j + c]! * (1 - ax) + tex.data[j + 4 + c]! * ax;
          sample[c]! += (top * (1 - ay) + bottom * ay) * (c < 3 ? 1 : 0.25 / 255);
        }
        cover += 0.25;
      }
      const alpha = sample[3]!;
      const shade = 1 + light.dx * (x - W / 2) + light.dy * (y - H / 2);
      for (let c = 0; c < 3; c++) {
        // The card's mean colour over the samples on it, over the table by their summed alpha: an edge pixel is part of each.
        const card = cover ? (sample[c]! / (cover * 4)) * cast[c]! : 0;
        const v = (card * alpha + out[o + c]! * (1 - alpha)) * shade + (r() - 0.5) * 10;
        out[o + c] = Math.max(0, Math.min(255, Math.round(v)));
      }
    }
  }
  const photo = await sharp(out, { raw: { width: W, height: H, channels: 3 } }).blur(0.3 + r() * 0.6).jpeg({ quality: 85 + Math.floor(r() * 11) }).toBuffer();
  return { photo, quad: corners };
}
