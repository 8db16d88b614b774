import { artQuads, coarseQuads } from "./coarse";
import { copiesOf, onSquare, orderCorners, squareToQuad, type Gray, type Quad } from "./outline";
import { cornersOf, refineSides, scaleLines, snapSides } from "./refine";
import { ART_BOX, FACE } from "./render";

// Where a card is when its outline is not to be seen (a side out of the frame, fingers or glare
// over its border): the artwork's printed window is a strong rectangle well inside the card, and
// the face's proportions take its corners to the card's, perspective and all. identify.ts tries
// these when neither an outline nor the whole frame gave a credible card.

/** The artwork's window on the face: its height over its width. */
const ART_ASPECT = ((ART_BOX.y1 - ART_BOX.y0) * FACE.height) / ((ART_BOX.x1 - ART_BOX.x0) * FACE.width);

/**
 * Cards around the `max` best artwork-shaped rectangles (coarse.ts artQuads) of the photo `g`
 * (grayOf's, which keeps its colour), each both ways up (the window is off the card's middle):
 * the card's corners are the window's homography at the face's proportions, so they hold under
 * perspective and may lie outside the photo.
 */
export function cardsFromArt(g: Gray, max: number, lines = 26): Quad[] {
  // findCard's copies of the photo: their lines were found already.
  const copies = copiesOf(g);
  const span = { u: ART_BOX.x1 - ART_BOX.x0, v: ART_BOX.y1 - ART_BOX.y0 };
  const corners = [[0, 0], [1, 0], [1, 1], [0, 1]].map(([u, v]) => [(u! - ART_BOX.x0) / span.u, (v! - ART_BOX.y0) / span.v] as const);
  return artQuads(copies.small, max, lines, ART_ASPECT).flatMap((q0) => {
    // The rough lines onto the window's edges (the outermost near them: its printed frame), then
    // to a fraction of a pixel on the full image: the card's corners are far out from the window,
    // where an error in its corners grows three times over.
    // orderCorners sets the long sides upright; the window's long sides run across the card.
    const a = onFull(copies, q0, { in: 0.05, out: 0.01 });
    return [[a[3], a[0], a[1], a[2]], [a[1], a[2], a[3], a[0]]].map((w) => {
      const m = squareToQuad(w as Quad);
      return corners.map(([u, v]) => onSquare(m, u, v)) as Quad;
    });
  });
}

/**
 * Card-shaped quads of the photo other than the one findCard chose, best supported first, each
 * snapped onto the edges near it on the small copy (refined on the full image where it can be):
 * on a cluttered table the best supported quad is often a finger's or a plank's, while the
 * card's own is among the next few. identify.ts judges each by its artwork, strictly.
 */
export function otherCards(g: Gray, max: number, lines: number): Quad[] {
  const copies = copiesOf(g);
  return coarseQuads(copies.small, max, lines).map((q0) => onFull(copies, q0));
}

/**
 * A rough quad of the small copy on the full image, corners ordered: its sides snapped onto the
 * outermost edges within `reach`, then refined to a fraction of a pixel, as far as each step finds
 * its edges.
 */
function onFull({ k, planes, small }: ReturnType<typeof copiesOf>, q0: Quad, reach?: { in: number; out: number }): Quad {
  const snapped = snapSides(small, q0, reach);
  const fine = snapped && refineSides(planes, scaleLines(snapped.lines, k), k + 1.5);
  const rough = q0.map((p) => ({ x: p.x * k + (k - 1) / 2, y: p.y * k + (k - 1) / 2 })) as Quad;
  return orderCorners(fine?.quad ?? (snapped && cornersOf(scaleLines(snapped.lines, k))) ?? rough);
}
