// Ratios from edge positions: pure, so the dashboard's centering tool computes the same figures
// in the browser as the API does on the server while a person moves the lines.

export type Edges = { left: number; right: number; top: number; bottom: number };

export class MeasureError extends Error {}

export const round2 = (n: number) => Math.round(n * 100) / 100;

/** The left and top borders' shares, in percent, from edge positions (as measured or as a person moved them). */
export function ratiosOf(outer: Edges, inner: Edges): { left_right: number; top_bottom: number } {
  const lw = inner.left - outer.left;
  const rw = outer.right - inner.right;
  const tw = inner.top - outer.top;
  const bw = outer.bottom - inner.bottom;
  if (lw <= 0 || rw <= 0 || tw <= 0 || bw <= 0) throw new MeasureError("The frame lines must lie inside the card's edges.");
  // Crossed lines still lie inside the edges, and a frame of no size would grade 50/50.
  if (inner.right <= inner.left || inner.bottom <= inner.top) throw new MeasureError("The frame's right line must lie right of its left line, and its bottom line below its top line.");
  return { left_right: round2((100 * lw) / (lw + rw)), top_bottom: round2((100 * tw) / (tw + bw)) };
}
