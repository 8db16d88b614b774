import type { Rgb } from "./describe";
import type { Quad } from "./outline";
import { CH, CW, GLYPHS, LANG_GLYPHS as LANG_CHARS, N, alignLine, expectedBlur, gaussian, isLang, layLine, lineParts, sampleLine, template } from "./read";

// Reads the printing's line with no candidates given: each character cell is compared with every
// glyph of the font on its own, and any printed line's fit is then the sum of its cells' (a
// lookup a cell), so the whole index's lines are ranked in a few milliseconds. identify.ts uses
// it when the artwork alone is not credible (glare over it, a coarse scan that missed it): the
// line finds the few cards it could be, and their artwork confirms one.

// Locals, not the imported bindings: tsx's getters for those cost more than the loops' arithmetic.
const [cw, ch, n] = [CW, CH, N];
const CELL = cw * ch;
/** The first of the language mark's cells. */
const LANG_FROM = Array.from({ length: n }, (_, i) => i).find((i) => isLang(i)) ?? n;
/** Glyphs a text cell may show, and a language cell (inverted, boxed). */
const TEXT_GLYPHS = [...GLYPHS];
const LANG_GLYPHS = [...LANG_CHARS];

const TEXT_INDEX = new Map(TEXT_GLYPHS.map((g, i) => [g, i]));
const LANG_INDEX = new Map(LANG_GLYPHS.map((g, i) => [g, i]));
/** Text glyphs the alignment is searched with (the full banks only at the shift found): most lines' characters. */
const ALIGN_GLYPHS = [..."0123456789/ SMBEPJ"].map((g) => TEXT_INDEX.get(g)!);
/** A character the font's banks lack. */
const UNKNOWN = 255;

type Banks = [Float32Array[], Float32Array[]];
let banks: Promise<Banks> | undefined;
const loadBanks = () => (banks ??= Promise.all([
  Promise.all(TEXT_GLYPHS.map((g) => template(g, false))), Promise.all(LANG_GLYPHS.map((g) => template(g, true))),
]));

/** A cell's template blurred by σ samples (clamped at the cell's edges). */
function blurCell(src: Float32Array, sigma: number): Float32Array {
  if (sigma < 0.3) return src;
  const { r, k, ks } = gaussian(sigma);
  const tmp = new Float32Array(CELL);
  const out = new Float32Array(CELL);
  for (let y = 0; y < ch; y++) for (let x = 0; x < cw; x++) {
    let s = 0;
    for (let j = -r; j <= r; j++) s += k[j + r]! * src[y * cw + Math.min(cw - 1, Math.max(0, x + j))]!;
    tmp[y * cw + x] = s / ks;
  }
  for (let y = 0; y < ch; y++) for (let x = 0; x < cw; x++) {
    let s = 0;
    for (let j = -r; j <= r; j++) s += k[j + r]! * tmp[Math.min(ch - 1, Math.max(0, y + j)) * cw + x]!;
    out[y * cw + x] = s / ks;
  }
  return out;
}

/** The luminance below which `share` of the samples lie, to the unit (a histogram: no sort). */
function percentile(hist: Uint32Array, total: number, share: number): number {
  const want = total * share;
  let seen = 0;
  for (let v = 0; v < hist.length; v++) if ((seen += hist[v]!) > want) return v;
  return hist.length - 1;
}

/** The photo's line on the templates' scale: its paper 1, its ink 0.1 (levels from percentiles, any exposure or cast). */
function normalise(obs: Float32Array): Float32Array {
  const hist = new Uint32Array(256);
  for (let k = 0; k < obs.length; k++) hist[Math.min(255, Math.max(0, Math.round(obs[k]!)))]!++;
  const ink = percentile(hist, obs.length, 0.03);
  const paper = percentile(hist, obs.length, 0.9);
  const gain = 0.9 / Math.max(1, paper - ink);
  const out = new Float32Array(obs.length);
  for (let k = 0; k < obs.length; k++) out[k] = 0.1 + (obs[k]! - ink) * gain;
  return out;
}

/** Squared residual of every cell against every glyph of its bank (text cells: `textGlyphs` of it): cost[i][g]. */
function cellCosts(obs: Float32Array, blurred: Banks, textGlyphs: number[] | null): Float64Array[] {
  const out: Float64Array[] = [];
  for (let i = 0; i < n; i++) {
    const lang = i >= LANG_FROM;
    const ts = blurred[lang ? 1 : 0];
    const use = lang || !textGlyphs ? undefined : textGlyphs;
    const c = new Float64Array(ts.length).fill(Number.POSITIVE_INFINITY);
    const base = i * CELL;
    for (let u = 0, count = use ? use.length : ts.length; u < count; u++) {
      const g = use ? use[u]! : u;
      const t = ts[g]!;
      let s = 0;
      for (let k = 0; k < CELL; k++) {
        const d = obs[base + k]! - t[k]!;
        s += d * d;
      }
      c[g] = s;
    }
    out.push(c);
  }
  return out;
}

const least = (c: Float64Array) => {
  let m = Number.POSITIVE_INFINITY;
  for (const v of c) if (v < m) m = v;
  return m;
};

/** The line read cell by cell: each cell's cost for every glyph, and the unconstrained best sum. */
export type CellReading = {
  costs: Float64Array[];
  /** The sum of each cell's least cost: the best any text could do. */
  floor: number;
  /** The best glyph of each cell, for a person reading logs. */
  text: string;
  /**
   * 1 − the best glyphs' residual over the line's variance: near 1 on printed text, at or under 0
   * on anything else. Under 0 the line was not aligned and `costs` hold only the glyphs most
   * lines print (the others infinite).
   */
  quality: number;
};

/**
 * Reads the cells of the line through `quad` (upright). `scale`: the card's width in the photo
 * over the face's, for the blur expected. The alignment and the blur (read.ts alignLine, with the
 * glyphs most lines print) are those under which the best glyph of each cell fits best.
 */
export async function readCells(rgb: Rgb, quad: Quad, scale: number): Promise<CellReading> {
  const bs = await loadBanks();
  const base = expectedBlur(scale);
  const blurs = new Map<number, Banks>();
  const blurredFor = (sigma: number) => {
    let b = blurs.get(sigma);
    if (!b) blurs.set(sigma, (b = [bs[0].map((t) => blurCell(t, sigma)), bs[1].map((t) => blurCell(t, sigma))]));
    return b;
  };
  const floorOf = (costs: Float64Array[]) => costs.reduce((s, c) => s + least(c), 0);
  const at = (dx: number, dy: number, sigma: number, glyphs: number[] | null = ALIGN_GLYPHS) => {
    const obs = normalise(sampleLine(rgb, quad, dx, dy));
    const costs = cellCosts(obs, blurredFor(sigma), glyphs);
    return { costs, floor: floorOf(costs), obs };
  };
  const qualityOf = (r: { floor: number; obs: Float32Array }) => {
    const mean = r.obs.reduce((a, v) => a + v, 0) / r.obs.length;
    const energy = r.obs.reduce((a, v) => a + (v - mean) ** 2, 0);
    return 1 - r.floor / Math.max(1e-9, energy);
  };
  const start = at(0, 0, base);
  // Where the outline puts the line, the best glyphs explain it no better than a blank would: no
  // printed text there (most non-cards, a card the other way up), and no shift is worth trying.
  // On the tuning photos the right line read at 0.04 or more here before alignment.
  const rough = qualityOf(start);
  if (rough < 0) return { costs: start.costs, floor: start.floor, text: "", quality: rough };
  const best = alignLine(base, (dx, dy, sigma) => (dx === 0 && dy === 0 && sigma === base ? start : at(dx, dy, sigma)).floor);
  const full = at(best.dx, best.dy, best.sigma, null);
  const text = full.costs.map((c, i) => (i >= LANG_FROM ? LANG_GLYPHS : TEXT_GLYPHS)[c.indexOf(least(c))]).join("");
  const quality = qualityOf(full);
  return { costs: full.costs, floor: full.floor, text, quality };
}

/**
 * Printed lines as the index records them ("MEW 6/165\tEN": read.ts lineParts) as glyph numbers,
 * N a line laid out as read.ts layLine lays it (UNKNOWN where the banks lack the character), for
 * rankLines. About 10 ms for the whole index.
 */
export function codeLines(lines: readonly string[]): Uint8Array {
  const out = new Uint8Array(lines.length * n);
  const blank = new Uint8Array(n).map((_, i) => (i >= LANG_FROM ? LANG_INDEX : TEXT_INDEX).get(" ")!);
  lines.forEach((record, row) => {
    const o = row * n;
    out.set(blank, o);
    const { text, lang } = lineParts(record);
    layLine(text, lang, (i, c) => (out[o + i] = (i >= LANG_FROM ? LANG_INDEX : TEXT_INDEX).get(c) ?? UNKNOWN));
  });
  return out;
}

/**
 * The `count` lines (rows of `coded`) that explain the reading best, best first, with how much
 * worse each does than the best glyph of every cell, over that floor (0: the line is what was
 * read). A character the banks lack costs its cell's worst glyph.
 */
export function rankLines(r: CellReading, coded: Uint8Array, count: number): { row: number; cost: number }[] {
  const worst = r.costs.map((c) => Math.max(...c));
  const top: { row: number; cost: number }[] = [];
  const rows = coded.length / n;
  for (let row = 0; row < rows; row++) {
    let s = 0;
    for (let i = 0, o = row * n; i < n; i++) {
      const g = coded[o + i]!;
      s += g === UNKNOWN ? worst[i]! : r.costs[i]![g]!;
    }
    if (top.length === count && s >= top[count - 1]!.cost) continue;
    let at = top.length;
    while (at > 0 && top[at - 1]!.cost > s) at--;
    top.splice(at, 0, { row, cost: s });
    if (top.length > count) top.pop();
  }
  return top.map((t) => ({ row: t.row, cost: (t.cost - r.floor) / Math.max(1e-9, r.floor) }));
}
