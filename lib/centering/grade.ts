import { HOUSES, STANDARDS, type Band, type House } from "./standards";

// Grade ceilings from centering alone: the best band of each house whose thresholds the card's
// ratios meet. A ratio is given as the share of one border on an axis (53.5 for 53.5/46.5);
// only its larger side counts, so 46.5 and 53.5 are the same centering.

export type Axes = { left_right: number; top_bottom: number };
export type Ceiling = {
  house: House;
  grade: string | null;
  label: string | null;
  /** What holds the ceiling down: the front's or back's worse axis, or nothing (best band). */
  limited_by: "front" | "back" | null;
  /** Percentage points the limiting axis must gain to reach the next better band; null at the top. */
  to_next_band: number | null;
  next_grade: string | null;
  status: Band["status"] | null;
};

const worse = (share: number) => Math.max(share, 100 - share);
const round = (n: number) => Math.round(n * 100) / 100;

function meets(b: Band, front: Axes, back?: Axes): boolean {
  const f = [worse(front.left_right), worse(front.top_bottom)].sort((x, y) => y - x) as [number, number];
  if (f[0] > b.front) return false;
  if (b.front_better_axis !== undefined && f[1] > b.front_better_axis) return false;
  if (back && Math.max(worse(back.left_right), worse(back.top_bottom)) > b.back) return false;
  return true;
}

/** How far the card is from `b`: the largest gap on any axis the band constrains. */
function gap(b: Band, front: Axes, back?: Axes): { points: number; side: "front" | "back" } {
  const f = [worse(front.left_right), worse(front.top_bottom)].sort((x, y) => y - x) as [number, number];
  let points = Math.max(0, f[0] - b.front, b.front_better_axis !== undefined ? f[1] - b.front_better_axis : 0);
  let side: "front" | "back" = "front";
  if (back) {
    const bk = Math.max(worse(back.left_right), worse(back.top_bottom)) - b.back;
    if (bk > points) {
      points = bk;
      side = "back";
    }
  }
  return { points: round(points), side };
}

export function ceilingFor(house: House, front: Axes, back?: Axes): Ceiling {
  const bands = STANDARDS.find((s) => s.house === house)!.bands;
  const i = bands.findIndex((b) => meets(b, front, back));
  const band = i >= 0 ? bands[i]! : undefined;
  const better = i === 0 ? undefined : bands[i > 0 ? i - 1 : bands.length - 1];
  const next = better ? gap(better, front, back) : undefined;
  return {
    house, grade: band?.grade ?? null, label: band?.label ?? null,
    limited_by: next?.side ?? null, to_next_band: next?.points ?? null, next_grade: better?.grade ?? null,
    status: band?.status ?? null,
  };
}

export function ceilings(front: Axes, back?: Axes): Ceiling[] {
  return HOUSES.map((h) => ceilingFor(h, front, back));
}
