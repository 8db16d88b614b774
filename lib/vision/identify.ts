import sharp from "sharp";
import { describe, fineDistance, sampleRegion, type Descriptor, type Rgb } from "./describe";
import { catalogueFace, FACE_MATCH, faceDistance, photoFace } from "./face";
import { findCard, grayOf, sameQuad, wholeQuad, type Point, type Quad } from "./outline";
import type { OpenIndex } from "./index-file";
import { lineParts, readPrinting, type Reading as PrintingReading } from "./read";
import { codeLines, rankLines, readCells } from "./read-line";
import { lerp } from "./refine";
import { FACE } from "./render";
import { cardsFromArt, otherCards } from "./window";
import { nearest, visionIndex } from "./search";

// A photo to ranked catalogue cards: decode (EXIF orientation honoured), find the card's
// outline, square it up, describe its artwork, scan the in-memory index with the coarse
// vectors, re-rank the best few with the fine grids, and say no_match when even the best is
// not credible. Both upright readings of the outline (0° and 180°) are tried, and so is the
// whole frame, for a photo cropped to the card. When none is credible, the outline is searched
// deeper, then the artwork's window and the photo's next card-shaped quads are tried. When no
// artwork is credible, the outline's printed line is read on its own and the few cards it names
// are measured by their artwork (read-line.ts): glare over the art does not reach the line.
// When the line names none either, the nearest artworks' cards are compared by their whole
// faces (face.ts).
//
// Cards that share their artwork (reprints, translations: art.ts) have one descriptor between
// them: the search ranks artwork groups, and credibility compares the best group with the next
// one. The best group's cards are then told apart by reading their printing's line (read.ts:
// set code, number / total, language mark) off the squared-up card; when it cannot be read
// well enough, they are all answered, ranked by how well each explains the line, and
// `printing.ambiguous` says so.

/** Longest side the photo is worked at: the descriptor needs far less, the outline a little more. */
const WORK = 1000;
/** Smallest photo side worth reading: the artwork alone needs 24 × 15 cells. */
const MIN_SIDE = 64;
/**
 * The most pixels an uploaded photo may have, checked on its header before anything is decoded:
 * a 10 MB upload can hold a PNG of hundreds of megapixels of one colour (a decompression bomb).
 * 50 × 2^20 lets every phone's full-size photo in, 48 MP (8064 × 6048) and 50 MP (8192 × 6144)
 * sensors included; the routes work at 1000 and 1800 pixels a side, so nothing needs more.
 */
export const MAX_INPUT_PIXELS = 50 * 1024 * 1024;

/** What a caller is told when sharp refused a photo over MAX_INPUT_PIXELS; undefined for any other error. */
export function pixelLimitMessage(err: unknown): string | undefined {
  if (!(err instanceof Error) || !/exceeds pixel limit/i.test(err.message)) return undefined;
  return `The image has more than ${MAX_INPUT_PIXELS} pixels: send a photo of at most 50 megapixels (8192 × 6400).`;
}

/**
 * Straight lines the outline's quads are closed from (findCard's default is 18, which centering
 * keeps): a cluttered table's long edges (planks, stripes, a hand's fingers) took a card's
 * shorter sides out of the first 18 on hard photos. On eval:vision's tuning photos (hard level)
 * 26 found and identified 31 of 60 instead of 25, no non-card more taken for a card.
 */
const OUTLINE_LINES = 26;
/**
 * Lines tried when OUTLINE_LINES close no card: a small card's sides fall behind the long edges
 * of fingers, planks and stripes. Not always: more lines close more quads that are not the card
 * (with 40 from the start, hard tuning photos found 68-69 of 100 instead of 70); only when the
 * first try found nothing, 72 (p95 +9 ms); and when its outline held no credible artwork, 83
 * instead of 82 (eval:vision's hard photos, with the smaller cards of coarse.ts: 72 → 78 %).
 */
const MORE_LINES = 40;
/** Rows each reading takes from the coarse scan into the fine re-rank. */
const SHORTLIST = 24;
/**
 * When the nearest card is credible. Unrelated artworks measure about 1 apart, but among 39k
 * of them the nearest to any picture is much closer (a non-card's nearest: 0.11 to 0.51, median
 * 0.26, with the glare model of describe.ts), so distance alone cannot tell a card from a thing
 * that is not one. What does: the right card stands out from the runner-up (best / second: median
 * 0.2), while a non-card's nearest is one of many equally near (median 0.94). Set on
 * bench/tune-identify.ts's photos (seeds "tune", medium and hard, 600 non-cards), which the
 * evaluation does not use: 0.2 / 0.05 / 0.65 kept 592 of 600 non-cards out (98.7 %: the 95 %
 * floor with a margin; 0.7 kept 582) and found 64 hard photos of 100, 96 medium. Set again on
 * the pipeline of 2026-11-26 (the outline's second look, the printed line, the side moves),
 * which had left the right card just over 0.2 on photos where it stood far out (0.204 against
 * 0.408 next): 0.22 / 0.05 / 0.6 found 87 hard tuning photos of 100 instead of 85 and kept 395
 * non-cards of 400 out instead of 390; on seeds "tune2", not used to choose it, 124 hard of 150
 * both, all 100 legacy, and 395 non-cards of 400 instead of 392. 0.25 / 0.05 / 0.55 kept 396
 * out but found 85.
 */
export const MATCH = { maxDistance: 0.22, sureDistance: 0.05, maxRatio: 0.6 } as const;

/**
 * A card found from its artwork's window (no outline) is trusted only when it stands out far from
 * the next artwork: windows are tried on photos of anything. On tuning photos of synth-hard.ts
 * (seeds apart from eval:vision's) the right card's ratio was at most 0.35 and every wrong one,
 * card or not, over 0.5.
 */
export const ART_MATCH = { maxDistance: 0.2, sureDistance: 0, maxRatio: 0.45 } as const;
/**
 * A card found by its printed line when its artwork alone is not credible (glare over the art, a
 * coarse scan that missed it): the outline's line read cell by cell ranks the index's lines, the
 * best `candidates` of them are measured by their artwork, and the nearest is trusted when the
 * line was read as printed text (`minQuality`), its artwork is near and it stands out from the
 * next artwork among them. Set on bench/tune-identify.ts's photos (seeds "tune", hard): the
 * right card's line read at quality 0.47-0.84, art 0.105-0.215, ratio 0.20-0.70; every non-card
 * read at 0.04 or less, and every wrong card over 0.25 or at a ratio of 0.85 or more.
 */
export const LINE_MATCH = { minQuality: 0.4, maxDistance: 0.25, maxRatio: 0.75, candidates: 40 } as const;
/**
 * Rows the outline's readings take from the coarse scan the second time, when the first
 * SHORTLIST held no credible card: blur and glare move a coarse vector further than the fine
 * grid, and the card ranked 100th to 200th on 3 of 200 hard photos (seeds "fresh1", not the
 * evaluation's) whose outline was right. 100: 169 → 172 of those 200, non-cards unchanged
 * (394 of 400 kept out), p95 +30 ms; 200: 173, p95 +70 ms.
 */
const DEEP_SHORTLIST = 100;
/**
 * Card-shaped quads tried besides the outline chosen (window.ts otherCards), and the rule a card
 * found in one must pass: stricter than an outline's, since each is one more chance for a thing
 * that is not a card to look like one. On hard photos of seeds "fresh1" (not the evaluation's),
 * the card's own quad was among the next few on a third of the misses; the right cards found
 * this way stood at 0.05-0.16 and a ratio of 0.14-0.40, the non-cards taken at 0.33-0.50, most
 * of them from the 6th quad on. 6 quads and 0.42: 161 → 171 of 200 with the deeper shortlist
 * (seeds "tune2": 171 → 174), non-cards kept out 395 → 394 of 400 on either seed set.
 */
const ALT_OUTLINES = 6;
export const ALT_MATCH = { maxDistance: 0.2, sureDistance: 0, maxRatio: 0.42 } as const;
/** Artwork-shaped rectangles tried (each both ways up), and rows each takes from the coarse scan. */
const ART_WINDOWS = 2;
const ART_SHORTLIST = 8;

/** Whether the best distance stands out by `rule` (MATCH; ART_MATCH for a card found from its artwork's window). */
export function credible(best: number | undefined, second: number | undefined, rule: { maxDistance: number; sureDistance: number; maxRatio: number } = MATCH): boolean {
  if (best === undefined || best > rule.maxDistance) return false;
  if (best <= rule.sureDistance || second === undefined) return true;
  return best / second <= rule.maxRatio;
}

export class IdentifyError extends Error {
  constructor(readonly code: "INVALID_IMAGE" | "INDEX_UNAVAILABLE", message: string) {
    super(message);
  }
}

export type Candidate = { id: string; distance: number; /** Carries the same artwork as the first candidate. */ sharesArtwork: boolean };
export type Printing = {
  /** Cards in the index that carry the best candidate's artwork (1: art of its own; 0 for a no_match). */
  sharedArtwork: number;
  /** Several cards carry the artwork and the printed line did not tell which one this is. */
  ambiguous: boolean;
  /** The printed line read (the chosen card's), null when not read. */
  read: { line: string; language: string } | null;
};
export type Identified = {
  /** The nearest cards, nearest first, also when none is credible (the route then answers none). */
  candidates: Candidate[];
  noMatch: boolean;
  printing: Printing;
  /** The card's corners in the uploaded photo's pixels (EXIF rotation applied), null when none stood out. */
  outline: Quad | null;
  index: { cards: number; built_at: string };
};

async function decode(bytes: Buffer): Promise<{ rgb: Rgb & { data: Buffer }; scale: number }> {
  let rgb: Rgb & { data: Buffer };
  let scale: number;
  try {
    const img = sharp(bytes, { failOn: "error", limitInputPixels: MAX_INPUT_PIXELS }).rotate();
    const meta = await img.metadata();
    const { data, info } = await img.resize({ width: WORK, height: WORK, fit: "inside", withoutEnlargement: true }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const upright = meta.autoOrient?.width ?? meta.width ?? info.width;
    rgb = { data, w: info.width, h: info.height };
    scale = upright / info.width;
  } catch (err) {
    throw new IdentifyError("INVALID_IMAGE", pixelLimitMessage(err) ?? "The image could not be decoded: send a JPEG, PNG or WebP photo.");
  }
  if (Math.min(rgb.w, rgb.h) < MIN_SIDE) throw new IdentifyError("INVALID_IMAGE", `The image is ${rgb.w} × ${rgb.h} pixels: a card needs at least ${MIN_SIDE} on each side.`);
  return { rgb, scale };
}

/** Within this share of a card's width to height (63 × 88 mm), an upright photo may be cropped to the card. */
const CARD_SHAPED = 0.02;
const cardShaped = (rgb: Rgb) => Math.abs(rgb.w / rgb.h - FACE.width / FACE.height) <= CARD_SHAPED * (FACE.width / FACE.height);

/** The same outline read the other way up. */
export const turned = (q: Quad): Quad => [q[2], q[3], q[0], q[1]];

type Reading = Descriptor & { quad: Quad | null; oriented: Quad };

/** The artwork read through `oriented` (upright as given); `quad`: the outline it stands for, null for the whole frame. */
const readAt = (rgb: Rgb, oriented: Quad, quad: Quad | null = oriented): Reading => ({ ...describe(sampleRegion(rgb, oriented)), quad, oriented });

/** A quad read both ways up (a card may be photographed upside down); `quad` null: the whole frame. */
const bothWays = (rgb: Rgb, q: Quad, outline: Quad | null): Reading[] => [readAt(rgb, q, outline), readAt(rgb, turned(q), outline)];

type Hit = { row: number; distance: number; read: Reading };

/** A row's fine grid. */
type Fines = (row: number) => Promise<Int8Array>;

/**
 * The index's fine grids as one photo reads them: each read from the file once. The passes of a
 * photo (outline, frame, windows, printed line) measure many of the same rows again.
 */
function finesOf(idx: OpenIndex): Fines {
  const read = new Map<number, Promise<Int8Array>>();
  return (row) => {
    let grid = read.get(row);
    if (!grid) read.set(row, (grid = idx.fine(row)));
    return grid;
  };
}

type Groups = { of: (row: number) => number; members: (row: number) => number[] };
const groupCache = new WeakMap<OpenIndex, Groups>();

/** The index's artwork groups: each row's group's first row, and every row of a group. */
function groups(idx: OpenIndex): Groups {
  let g = groupCache.get(idx);
  if (g) return g;
  const art = idx.meta.art;
  if (!art) g = { of: (row) => row, members: (row) => [row] };
  else {
    const first = new Map<number, number>();
    const rows = new Map<number, number[]>();
    art.forEach((a, row) => {
      if (!first.has(a)) first.set(a, row);
      const m = rows.get(a);
      if (m) m.push(row);
      else rows.set(a, [row]);
    });
    g = { of: (row) => first.get(art[row]!)!, members: (row) => rows.get(art[row]!)! };
  }
  groupCache.set(idx, g);
  return g;
}

/**
 * Adds `reads` to a search: their coarse shortlists join the rows, and every row's distance
 * becomes its least over all readings so far (rows already ranked are measured again on the
 * photo's copies of their fine grids, finesOf: cheaper than a second scan of the coarse vectors).
 */
async function search(idx: OpenIndex, fine: Fines, hits: Map<number, Hit>, before: Reading[], reads: Reading[], topK: number, shortlist = SHORTLIST): Promise<Hit[]> {
  // One hit per artwork group (its first row): rows of a group share one descriptor.
  const g = groups(idx);
  for (const r of reads) {
    for (const h of nearest(idx.coarse, r.coarse, Math.max(shortlist, topK) * 2)) {
      const row = g.of(h.row);
      if (!hits.has(row)) hits.set(row, { row, distance: Number.POSITIVE_INFINITY, read: r });
    }
  }
  await Promise.all([...hits.values()].map(async (hit) => {
    const grid = await fine(hit.row);
    // Rows new to this pass are measured against the earlier readings too.
    for (const read of hit.distance === Number.POSITIVE_INFINITY ? [...before, ...reads] : reads) {
      const distance = fineDistance(read.fine, grid, 0, read.white);
      if (distance < hit.distance) Object.assign(hit, { distance, read });
    }
  }));
  return [...hits.values()].sort((a, b) => a.distance - b.distance);
}

export async function identifyPhoto(bytes: Buffer, topK: number): Promise<Identified> {
  const idx = await visionIndex();
  if (!idx) throw new IdentifyError("INDEX_UNAVAILABLE", "Photo identification is starting: its index of card faces is still being built. Retry in a minute.");
  const { rgb, scale } = await decode(bytes);
  const fine = finesOf(idx);
  const gray = grayOf(rgb);
  const few = findCard(gray, { lines: OUTLINE_LINES });
  let found = few ?? findCard(gray, { lines: MORE_LINES });
  let hits = new Map<number, Hit>();
  let first = found ? bothWays(rgb, found.quad, found.quad) : [];
  let ranked = first.length ? await search(idx, fine, hits, [], first, topK) : [];
  // A blurred or glared artwork's coarse vector may rank the card far down while its fine grid
  // still singles it out: the outline's readings once more, deeper.
  if (first.length && !credible(ranked[0]?.distance, ranked[1]?.distance)) ranked = await search(idx, fine, hits, [], first, topK, DEEP_SHORTLIST);
  // An outline closed by clutter's lines (a low score, no credible artwork inside) may have kept
  // the card's own out of OUTLINE_LINES: MORE_LINES's outline is taken when its artwork is credible.
  if (few && !credible(ranked[0]?.distance, ranked[1]?.distance)) {
    const more = findCard(gray, { lines: MORE_LINES });
    // Corners within a few pixels: the same card found twice.
    if (more && !sameQuad(more.quad, few.quad, 4)) {
      const [again, moreHits] = [bothWays(rgb, more.quad, more.quad), new Map<number, Hit>()];
      const own = await search(idx, fine, moreHits, [], again, topK);
      if (credible(own[0]?.distance, own[1]?.distance)) [ranked, found, first, hits] = [own, more, again, moreHits];
    }
  }
  // No credible card inside the outline (or none found): the photo may be cropped to the card.
  // So may an upright photo with a card's proportions (a scan, a face cropped to the card), even
  // with a credible outline: that outline is then the printed frame, the only rectangle with
  // edges inside, and squares the artwork up well enough but not the printed line below it.
  // Each artwork keeps its nearest reading, so the frame is used only where it fits better.
  if (!credible(ranked[0]?.distance, ranked[1]?.distance) || cardShaped(rgb)) {
    const frame = bothWays(rgb, wholeQuad(rgb.w, rgb.h), null);
    ranked = await search(idx, fine, hits, first, frame, topK);
  }
  // Still none: the card's outline may be hidden (a side out of the frame, fingers over it,
  // glare). The artwork's window, a rectangle inside the card, gives the card by the face's
  // proportions; each window is judged on its own, as an outline is, and more strictly.
  if (!credible(ranked[0]?.distance, ranked[1]?.distance)) {
    const cards = cardsFromArt(gray, ART_WINDOWS, OUTLINE_LINES);
    for (let i = 0; i < cards.length; i += 2) {
      const reads = cards.slice(i, i + 2).map((q) => readAt(rgb, q));
      const own = await search(idx, fine, new Map(), [], reads, topK, ART_SHORTLIST);
      if (credible(own[0]?.distance, own[1]?.distance, ART_MATCH)) {
        ranked = own;
        break;
      }
    }
  }
  // Still none: the outline chosen may be clutter's (a finger, a plank) and the card's own one
  // of the next card-shaped quads, each judged on its own, strictly (ALT_MATCH).
  if (!credible(ranked[0]?.distance, ranked[1]?.distance)) {
    const tol = found ? 0.05 * Math.hypot(found.quad[1].x - found.quad[0].x, found.quad[1].y - found.quad[0].y) : 0;
    const tried: Quad[] = found ? [found.quad] : [];
    for (const q of otherCards(gray, ALT_OUTLINES, MORE_LINES)) {
      if (tried.some((t) => sameQuad(t, q, Math.max(tol, 4)))) continue;
      tried.push(q);
      const own = await search(idx, fine, new Map(), [], bothWays(rgb, q, q), topK, ART_SHORTLIST);
      if (credible(own[0]?.distance, own[1]?.distance, ALT_MATCH)) {
        ranked = own;
        break;
      }
    }
  }
  let byLine = false;
  if (!credible(ranked[0]?.distance, ranked[1]?.distance) && first.length) {
    // Should the line name no card, fromFace compares the faces of these nearest artworks: they
    // are drawn (sharp, off the main thread) while the line is read, and kept for it.
    void nearestFaces(idx, ranked);
    // The reading the artwork preferred first.
    const preferred = first.find((r) => r === ranked[0]?.read);
    const found = await fromLine(idx, fine, rgb, preferred ? [preferred, ...first.filter((r) => r !== preferred)] : first);
    if (found) [ranked, byLine] = [found, true];
  }
  let byFace = false;
  if (!byLine && !credible(ranked[0]?.distance, ranked[1]?.distance) && ranked.length) {
    const found = await fromFace(idx, rgb, ranked);
    if (found) [ranked, byFace] = [found, true];
  }
  const noMatch = !byLine && !byFace && !credible(ranked[0]?.distance, ranked[1]?.distance);
  // The outline the answer was read from: none when the whole frame matched best.
  const outline = ranked[0] ? ranked[0].read.quad : (found?.quad ?? null);
  // A no_match answer names no card, so it has no printing to read: the printed line (up to 70 ms
  // of the slowest photos, which are nearly all no_match) is read for a credible card only.
  const { candidates, printing } = await printings(idx, fine, rgb, ranked, topK, !noMatch);
  return {
    candidates,
    noMatch,
    printing,
    outline: outline ? (outline.map((p) => ({ x: Math.round(p.x * scale * 10) / 10, y: Math.round(p.y * scale * 10) / 10 })) as Quad) : null,
    index: { cards: idx.meta.ids.length, built_at: idx.meta.built_at },
  };
}

/** The card's width in the photo over the face's. */
const widthScale = (q: Quad) => (Math.hypot(q[1].x - q[0].x, q[1].y - q[0].y) + Math.hypot(q[2].x - q[3].x, q[2].y - q[3].y)) / 2 / FACE.width;

const codedCache = new WeakMap<OpenIndex, Uint8Array>();
const codedLines = (idx: OpenIndex) => {
  let c = codedCache.get(idx);
  if (!c) codedCache.set(idx, (c = codeLines(idx.meta.lines ?? [])));
  return c;
};

/**
 * The artwork groups the outline's printed line points to (LINE_MATCH), nearest artwork first,
 * or null when the line does not single one out, either way up.
 */
async function fromLine(idx: OpenIndex, fine: Fines, rgb: Rgb, readings: Reading[]): Promise<Hit[] | null> {
  if (!idx.meta.lines) return null;
  const g = groups(idx);
  for (const read of readings) {
    const cells = await readCells(rgb, read.oriented, widthScale(read.oriented));
    if (cells.quality < LINE_MATCH.minQuality) continue;
    const hits = new Map<number, Hit>();
    const rows = rankLines(cells, codedLines(idx), LINE_MATCH.candidates).map((r) => r.row);
    const fines = await Promise.all(rows.map(fine));
    rows.forEach((row, i) => {
      const distance = fineDistance(read.fine, fines[i]!, 0, read.white);
      const group = g.of(row);
      const had = hits.get(group);
      if (!had || distance < had.distance) hits.set(group, { row: group, distance, read });
    });
    const ranked = [...hits.values()].sort((a, b) => a.distance - b.distance);
    const [best, next] = ranked;
    if (best && best.distance <= LINE_MATCH.maxDistance && (!next || best.distance / next.distance <= LINE_MATCH.maxRatio)) return ranked;
  }
  return null;
}

/** The faces fromFace compares: the nearest FACE_MATCH.groups artworks' (drawn once, catalogueFace), null where a drawing failed. */
const nearestFaces = (idx: OpenIndex, ranked: Hit[]) => ranked.slice(0, FACE_MATCH.groups).map((h) => catalogueFace(idx.meta.ids[h.row]!, idx.meta.built_at).catch(() => null));

/**
 * The nearest artworks' cards judged by their whole faces through the outline each was read
 * through (face.ts): when the nearest face passes FACE_MATCH, the artworks judged, nearest face
 * first, each at its face's distance (the same scale as the artwork's), or null. A group's face
 * is its first card's; its printing is read after, as for any match.
 */
async function fromFace(idx: OpenIndex, rgb: Rgb, ranked: Hit[]): Promise<Hit[] | null> {
  const top = ranked.slice(0, FACE_MATCH.groups);
  const refs = await Promise.all(nearestFaces(idx, ranked));
  // Most hits share a reading (the outline either way up, the frame): its face is read once.
  const photo = new Map<Reading, ReturnType<typeof photoFace>>();
  const faceOf = (read: Reading) => photo.get(read) ?? photo.set(read, photoFace(rgb, read.oriented)).get(read)!;
  const faces = top.flatMap((hit, i) => (refs[i] ? [{ hit, distance: faceDistance(faceOf(hit.read), refs[i]!) }] : []));
  faces.sort((a, b) => a.distance - b.distance);
  if (!credible(faces[0]?.distance, faces[1]?.distance, FACE_MATCH)) return null;
  return faces.map((f) => ({ ...f.hit, distance: f.distance }));
}

/**
 * Each side of an upright quad moved by `t` of the card's size, along its neighbours: the other
 * three stay. An outline whose one side lies on a finger's edge or the frame's (the card's own
 * out of the photo) is off by a few hundredths of the card there, and reads no line.
 */
function sideMoves(q: Quad, t: number): Quad[] {
  const at = (from: Point, to: Point) => lerp(from, to, 1 + t);
  const [a, b, c, d] = q;
  return [
    [at(d, a), at(c, b), c, d], // top
    [a, at(a, b), at(d, c), d], // right
    [a, b, at(b, c), at(a, d)], // bottom
    [at(b, a), b, c, at(c, d)], // left
  ];
}

/** Side moves tried when the outline as found reads no printing (a share of the card's width or height). */
const SIDE_MOVES = [0.03, -0.03, 0.06, -0.06, 0.09, -0.09];

/** Outlines with a side moved that are read for the printing, the nearest by their artwork. */
const MOVES_READ = 2;

/**
 * The printing read through the outline, and when that cannot choose, through the outline with
 * one side moved (SIDE_MOVES): of those, the MOVES_READ whose artwork comes nearest the group's
 * (a reading costs about 9 ms, the artwork's distance a fraction of one) are read, and the one
 * that chooses with the least misfit is taken.
 */
async function readPrintingNear(fine: Fines, rgb: Rgb, top: Hit, lines: { text: string; lang: string }[]): Promise<PrintingReading> {
  const q = top.read.oriented;
  const first = await readPrinting(rgb, q, lines, widthScale(q));
  if (first.best >= 0) return first;
  const grid = await fine(top.row);
  const moves = SIDE_MOVES.flatMap((t) => sideMoves(q, t)).map((m) => {
    const d = readAt(rgb, m);
    return { quad: m, distance: fineDistance(d.fine, grid, 0, d.white) };
  });
  let chosen: PrintingReading | undefined;
  for (const m of moves.sort((a, b) => a.distance - b.distance).slice(0, MOVES_READ)) {
    const r = await readPrinting(rgb, m.quad, lines, widthScale(m.quad));
    if (r.best >= 0 && (!chosen || r.misfit < chosen.misfit)) chosen = r;
  }
  return chosen ?? first;
}

/** A row's printed line, in its parts. */
const lineOf = (idx: OpenIndex, row: number) => lineParts(idx.meta.lines?.[row] ?? "");

/**
 * The ranked artwork groups as cards: the best group's cards ordered by their printed line as
 * read off the photo, the other groups' after them at their distance. A card's distance is its
 * artwork's, plus half of how much worse its line explains the photo's than the best line does.
 * Without `match` (a no_match) nothing is read: the best group's cards keep its distance,
 * and the printing is none (no artwork, no ambiguity, no line).
 */
async function printings(idx: OpenIndex, fine: Fines, rgb: Rgb, ranked: Hit[], topK: number, match: boolean): Promise<{ candidates: Candidate[]; printing: Printing }> {
  const g = groups(idx);
  const round = (d: number) => Math.round(d * 1000) / 1000;
  const top = ranked[0];
  const printing: Printing = { sharedArtwork: top && match ? g.members(top.row).length : 0, ambiguous: false, read: null };
  const out: { row: number; distance: number; top: boolean }[] = [];
  if (top) {
    const members = g.members(top.row);
    if (match && members.length > 1 && idx.meta.lines) {
      const lines = members.map((row) => lineOf(idx, row));
      const r = await readPrintingNear(fine, rgb, top, lines);
      const best = Math.min(...r.misfits);
      members.forEach((row, i) => out.push({ row, distance: top.distance + (r.best === i ? 0 : 0.001 + 0.5 * (r.misfits[i]! - best)), top: true }));
      printing.ambiguous = r.best < 0;
      if (r.best >= 0) printing.read = { line: lines[r.best]!.text, language: lines[r.best]!.lang };
    } else {
      // Art of its own, or a no_match: nothing read, the group's cards at its distance.
      for (const row of members) out.push({ row, distance: top.distance, top: true });
    }
  }
  for (const h of ranked.slice(1)) {
    if (out.length >= topK * 2) break;
    for (const row of g.members(h.row)) out.push({ row, distance: h.distance, top: false });
  }
  out.sort((a, b) => a.distance - b.distance);
  return {
    candidates: out.slice(0, topK).map((c) => ({ id: idx.meta.ids[c.row]!, distance: round(c.distance), sharesArtwork: c.top })),
    printing,
  };
}
