import { faceRow } from "@/lib/images/queries/images";
import { PromiseLru } from "@/lib/util/promise-lru";
import { withPrinting } from "./art";
import { describe, FINE_LEN, fineDistance, sampleRegion, type Descriptor, type Rgb } from "./describe";
import { wholeQuad, type Quad } from "./outline";
import { renderFacePixels, type FaceCard } from "./render";

// The whole face, for photos whose artwork alone decides nothing (a glare or fingers over it:
// the right artwork among the nearest, but not standing out from the next one). The rest of the
// face differs between those artworks' cards: the frame's and panel's colours, the name, the HP,
// the attacks' lines. Each candidate's face is drawn as the image route draws it, and compared
// with the photo through the same outline in three bands (top, middle, foot) of the artwork's
// fine grid, with the fine distance's photometric fit and glare model; the bands' mean is the
// face's distance. Drawn on demand for a few candidates, and kept for the cards asked again:
// whole faces in the index would add about 160 s of drawing to a build of 27 s.

/** The face in three horizontal bands, each a 24 × 15 grid like the artwork's. */
const BANDS = [0, 1, 2].map((k) => ({ x0: 0, y0: k / 3, x1: 1, y1: (k + 1) / 3 }));
/** Wide enough for the grids' cells (a band's cell is 26 × 20 face pixels at 630). */
const DRAWN_WIDTH = 240;

/** A card's face: its bands' fine grids end to end (only the photo's side needs the rest of a descriptor). */
export type FaceRef = Int8Array;

/** A card's face as its bands' fine grids. */
export async function faceReference(card: FaceCard): Promise<FaceRef> {
  const rgb = await renderFacePixels(card, DRAWN_WIDTH);
  const whole = wholeQuad(rgb.w, rgb.h);
  const ref = new Int8Array(BANDS.length * FINE_LEN);
  BANDS.forEach((b, k) => ref.set(describe(sampleRegion(rgb, whole, b)).fine, k * FINE_LEN));
  return ref;
}

/** The photo's face through an upright outline, band by band: read once however many faces it is compared with. */
export function photoFace(rgb: Rgb, oriented: Quad): Descriptor[] {
  return BANDS.map((band) => describe(sampleRegion(rgb, oriented, band)));
}

/** The photo's face against a card's: 0 identical, about 1 unrelated. */
export function faceDistance(photo: Descriptor[], ref: FaceRef): number {
  let sum = 0;
  photo.forEach((d, k) => {
    sum += fineDistance(d.fine, ref, k * FINE_LEN, d.white);
  });
  return sum / photo.length;
}

const CACHED = 2000;
const refs = new PromiseLru<FaceRef | null, string>(CACHED);

/**
 * A catalogue card's face reference for the index built at `built`, drawn once and kept (the
 * most recent CACHED, about 4 KB each; a failed drawing is not kept); null for a card gone since
 * the index. A rebuilt index (an import changed a card's name, number or attacks) draws it again.
 */
export function catalogueFace(id: string, built: string): Promise<FaceRef | null> {
  return refs.get(id, async () => {
    const row = await faceRow(id);
    return row ? faceReference(await withPrinting(row)) : null;
  }, built, (kept) => kept === built);
}

/**
 * The rule a face must pass to be answered (identify.ts `credible`): near, and standing out from
 * the next artwork's face. Set on the tuning photos (seeds "tune", hard): the right card's face
 * 0.14 to 0.17 at a ratio of 0.48 to 0.50 where it decided; every non-card's best 0.27 or more,
 * at 0.74 or more. `groups`: how many of the nearest artworks' faces are drawn.
 */
export const FACE_MATCH = { groups: 12, maxDistance: 0.22, sureDistance: 0, maxRatio: 0.62 } as const;
