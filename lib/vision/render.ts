import sharp from "sharp";
import type { Region } from "./describe";

// Synthetic card faces. No real card image can be had here, so every card gets a face drawn
// from its own data: the frame's colour from its type, its name, HP and attacks as text, a
// procedural artwork seeded by its illustration (art.ts: cards that would share an
// illustration, reprints and translations, share their art), and at the foot the printing's
// line: the set's printed code, number / printed total and a language mark, in a fixed-pitch
// font at known places (ID_LINE), which identify.ts reads to tell apart cards that share art.
// Every face says RENDERED on it and is stored with origin "rendered": never mistaken for a
// photograph.

export type FaceCard = {
  id: string; name: string; hp: number | null; number: string; set_code: string; supertype: string | null; types: string[];
  rarity: string | null; attacks: string[];
  /** The illustration's seed (art.ts); the card's id when not given: art of its own. */
  art?: string;
  /** The set's printed code (MEW, BS, SV2a); the set id upper-cased when not given. */
  code?: string;
  /** The set's printed total (the "/165"). */
  total?: number | null;
  /** Language mark: EN, JA, ZH, KO, TH, ID. */
  lang?: string;
};

/** Card proportions (63 × 88 mm). */
export const FACE = { width: 630, height: 880 } as const;
/** The yellow border's width as a share of the card's width (each side, perfectly centred). */
export const BORDER = 0.055;

const TYPE_COLOURS: Record<string, [string, string]> = {
  Fire: ["#e4572e", "#f7c6a3"], Water: ["#2f80c1", "#b9dcf3"], Grass: ["#4d9a3a", "#cde8b5"], Lightning: ["#e8c31c", "#fbf0a8"],
  Psychic: ["#8a4fb0", "#e2c8f0"], Fighting: ["#b0652c", "#ecc9a5"], Darkness: ["#3a3f4b", "#a9adb8"], Metal: ["#8c96a0", "#dde2e7"],
  Fairy: ["#e07bb5", "#f8d3e8"], Dragon: ["#b08d1c", "#eadca0"], Colorless: ["#b8b2a6", "#efece6"],
};
const SUPERTYPE_COLOURS: Record<string, [string, string]> = { Trainer: ["#6f7f8f", "#e6ebef"], Energy: ["#9a9a9a", "#f1f1f1"] };

/** xorshift32 seeded from a string: the same card always draws the same art. */
export function seeded(seed: string): () => number {
  let h = 2166136261;
  for (let i = 0; i < seed.length; i++) h = Math.imul(h ^ seed.charCodeAt(i), 16777619);
  let x = h >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 4294967296;
  };
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const hsl = (r: () => number, l: [number, number] = [35, 70]) =>
  `hsl(${Math.floor(r() * 360)},${40 + Math.floor(r() * 50)}%,${l[0] + Math.floor(r() * (l[1] - l[0]))}%)`;

function artwork(seed: string, x: number, y: number, w: number, h: number): string {
  const r = seeded(`art:${seed}`);
  const parts = [`<defs><linearGradient id="bg" x1="0" y1="0" x2="${r().toFixed(2)}" y2="1"><stop offset="0" stop-color="${hsl(r, [55, 85])}"/><stop offset="1" stop-color="${hsl(r, [20, 50])}"/></linearGradient></defs>`,
    `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="url(#bg)"/>`];
  const shapes = 9 + Math.floor(r() * 6);
  for (let i = 0; i < shapes; i++) {
    const cx = x + r() * w;
    const cy = y + r() * h;
    const size = (0.08 + r() * 0.3) * w;
    const fill = hsl(r, [15, 85]);
    const kind = r();
    if (kind < 0.4) parts.push(`<ellipse cx="${cx.toFixed(1)}" cy="${cy.toFixed(1)}" rx="${size.toFixed(1)}" ry="${(size * (0.4 + r())).toFixed(1)}" fill="${fill}" opacity="0.85"/>`);
    else if (kind < 0.75) {
      const pts = Array.from({ length: 3 + Math.floor(r() * 4) }, () => `${(cx + (r() - 0.5) * 2 * size).toFixed(1)},${(cy + (r() - 0.5) * 2 * size).toFixed(1)}`);
      parts.push(`<polygon points="${pts.join(" ")}" fill="${fill}" opacity="0.9"/>`);
    } else parts.push(`<rect x="${(cx - size / 2).toFixed(1)}" y="${(cy - size / 4).toFixed(1)}" width="${size.toFixed(1)}" height="${(size / 2).toFixed(1)}" fill="${fill}" transform="rotate(${Math.floor(r() * 90)} ${cx.toFixed(1)} ${cy.toFixed(1)})"/>`);
  }
  return `<svg x="${x}" y="${y}" width="${w}" height="${h}" viewBox="${x} ${y} ${w} ${h}">${parts.join("")}</svg>`;
}

type Centering = { left_right: number; top_bottom: number };

/** Where the face's parts lie: the frame, its padding and the artwork's box, in face pixels. */
function layout(centering: Centering = { left_right: 50, top_bottom: 50 }) {
  const { width: W, height: H } = FACE;
  const side = 2 * BORDER * W;
  const left = (side * centering.left_right) / 100;
  const top = (side * centering.top_bottom) / 100;
  const iw = W - side;
  const ih = H - side;
  const pad = iw * 0.05;
  return { left, top, iw, ih, pad, art: { x: left + pad, y: top + ih * 0.11, w: iw - 2 * pad, h: ih * 0.38 } };
}

/**
 * The printing's line at the card's foot, on a centred face: characters in DejaVu Sans Mono
 * Bold, each centred in a cell of its own (`pitch` face pixels wide, from `x0`), the text's
 * baseline at `baseline`; the language mark in the last `LANG_CELLS` cells, boxed.
 */
export const ID_LINE = (() => {
  const { left, top, iw, ih, pad } = layout();
  const size = iw * 0.05;
  return { x0: left + pad, baseline: top + ih * 0.962, size, pitch: size * 0.64, cells: 18, langCells: 2 };
})();

/** The printing's text as the line prints it: code, number / total (the language mark apart). */
export function idText(card: Pick<FaceCard, "code" | "set_code" | "number" | "total">): string {
  const code = (card.code ?? card.set_code.toUpperCase()).slice(0, 10);
  const text = `${code} ${card.number}${card.total ? `/${card.total}` : ""}`;
  return text.slice(0, ID_LINE.cells - ID_LINE.langCells - 1);
}

/** The language mark printed: two letters. */
export const langMark = (card: Pick<FaceCard, "lang">) => (card.lang ?? "EN").slice(0, 2).toUpperCase();

/** One character of the ID line, centred in its cell. */
export const glyphSvg = (ch: string, cx: number, baseline: number, fill = "#1a1a1a") =>
  `<text x="${cx.toFixed(2)}" y="${baseline.toFixed(2)}" text-anchor="middle" font-family="DejaVu Sans Mono" font-weight="bold" font-size="${ID_LINE.size.toFixed(2)}" fill="${fill}">${esc(ch)}</text>`;

function idLine(card: FaceCard, dx: number, dy: number): string {
  const { x0, baseline, pitch, cells, langCells, size } = ID_LINE;
  const text = idText(card);
  const chars = [...text].map((ch, i) => (ch === " " ? "" : glyphSvg(ch, dx + x0 + (i + 0.5) * pitch, dy + baseline)));
  const lx = dx + x0 + (cells - langCells) * pitch;
  const box = `<rect x="${(lx - pitch * 0.15).toFixed(2)}" y="${(dy + baseline - size * 0.9).toFixed(2)}" width="${(pitch * (langCells + 0.3)).toFixed(2)}" height="${(size * 1.15).toFixed(2)}" rx="${(size * 0.15).toFixed(2)}" fill="#1a1a1a"/>`;
  const mark = [...langMark(card)].map((ch, i) => glyphSvg(ch, lx + (i + 0.5) * pitch, dy + baseline, "#fafafa"));
  return [...chars, box, ...mark].join("");
}

/** The artwork's box as shares of the face (0-1), for a centred face. */
export const ART_BOX = (() => {
  const { art } = layout();
  return { x0: art.x / FACE.width, y0: art.y / FACE.height, x1: (art.x + art.w) / FACE.width, y1: (art.y + art.h) / FACE.height };
})();

/**
 * The face as an SVG document. `centering`: the left border's share of both side borders and
 * the top's of top and bottom, in percent (50/50 by default): the frame moves, the card does not.
 */
export function faceSvg(card: FaceCard, centering?: Centering): string {
  const { width: W, height: H } = FACE;
  const [frame, fill] = TYPE_COLOURS[card.types[0] ?? ""] ?? SUPERTYPE_COLOURS[card.supertype ?? ""] ?? TYPE_COLOURS.Colorless!;
  const { left, top, iw, ih, pad, art } = layout(centering);
  // The frame's stroke lies inside the frame: its outer edge is where the border ends.
  const sw = iw * 0.018;
  const lines = card.attacks.slice(0, 3).map((a, i) =>
    `<text x="${left + pad}" y="${top + ih * (0.6 + i * 0.09)}" font-family="DejaVu Sans" font-size="${iw * 0.05}" font-weight="bold" fill="#222">${esc(a)}</text>`);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">
<rect width="${W}" height="${H}" rx="${W * 0.035}" fill="#f1cf3b"/>
<rect x="${left + sw / 2}" y="${top + sw / 2}" width="${iw - sw}" height="${ih - sw}" fill="${fill}" stroke="${frame}" stroke-width="${sw}"/>
<text x="${left + pad}" y="${top + ih * 0.075}" font-family="DejaVu Sans" font-size="${iw * 0.065}" font-weight="bold" fill="#111">${esc(card.name.slice(0, 24))}</text>
<text x="${left + iw - pad}" y="${top + ih * 0.075}" text-anchor="end" font-family="DejaVu Sans" font-size="${iw * 0.055}" fill="${frame}" font-weight="bold">${card.hp ? `${card.hp} HP` : esc(card.supertype ?? "")}</text>
<rect x="${art.x - 3}" y="${art.y - 3}" width="${art.w + 6}" height="${art.h + 6}" fill="${frame}"/>
${artwork(card.art ?? card.id, art.x, art.y, art.w, art.h)}
${lines.join("\n")}
<text x="${left + iw - pad}" y="${top + ih * 0.885}" text-anchor="end" font-family="DejaVu Sans" font-size="${iw * 0.03}" fill="#666">RENDERED · ${esc(card.rarity ?? "")}</text>
${idLine(card, left - layout().left, top - layout().top)}
</svg>`;
}

/**
 * A region of a centred face (shares of the face, inside the artwork's box) as raw RGB, drawn
 * without the rest: the identification index needs only this much, at a fraction of the cost.
 */
export async function renderFaceRegion(artSeed: string, region: Region, width: number, height: number): Promise<Buffer> {
  const { art } = layout();
  const [x, y] = [region.x0 * FACE.width, region.y0 * FACE.height];
  const [w, h] = [(region.x1 - region.x0) * FACE.width, (region.y1 - region.y0) * FACE.height];
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="${x} ${y} ${w} ${h}" preserveAspectRatio="none">${artwork(artSeed, art.x, art.y, art.w, art.h)}</svg>`;
  return sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer();
}

/** The face as raw RGB `width` pixels wide, drawn at that size (the SVG's density) rather than drawn whole and shrunk. */
export async function renderFacePixels(card: FaceCard, width: number): Promise<{ data: Buffer; w: number; h: number }> {
  const { data, info } = await sharp(Buffer.from(faceSvg(card)), { density: (72 * width) / FACE.width }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, w: info.width, h: info.height };
}

/** The face as an image: PNG, or JPEG/WebP for stored sizes. */
export async function renderFace(card: FaceCard, o: { width?: number; format?: "png" | "jpeg" | "webp"; centering?: { left_right: number; top_bottom: number } } = {}): Promise<Buffer> {
  const img = sharp(Buffer.from(faceSvg(card, o.centering))).resize({ width: o.width ?? FACE.width });
  const format = o.format ?? "png";
  return format === "png" ? img.png().toBuffer() : format === "jpeg" ? img.jpeg({ quality: 88 }).toBuffer() : img.webp({ quality: 85 }).toBuffer();
}
