import { HOUSES, STANDARDS, type Band, type House } from "./standards";

// Grade ceilings from centering alone: the best band of each house whose thresholds the card's
// ratios meet. A ratio is the share of one border on an axis (53.5 for 53.5/46.5); only its
// larger side counts, so 46.5 and 53.5 are the same centering.

export type Axes = { left_right: number; top_bottom: number };
type BandRef = { grade: string; label: string } | null;

export type Ceiling = {
  house: House;
  /** The best grade centering allows, front and back together; null below the house's last band. */
  max_grade: string | null;
  label: string | null;
  status: Band["status"] | null;
  front: BandRef;
  back: BandRef;
  /** The face whose worse axis holds the ceiling down; null at the house's best band. */
  limited_by: "front" | "back" | null;
  next_grade: string | null;
  /** Percentage points the limiting axis must move toward 50 to reach the next better band. */
  to_next_band: number | null;
};

const worse = (share: number) => Math.max(share, 100 - share);
const round = (n: number) => Math.round(n * 100) / 100;
const frontAxes = (a: Axes) => [worse(a.left_right), worse(a.top_bottom)].sort((x, y) => y - x) as [number, number];

/** Points the front must gain to meet `b` (0 when it does). */
function frontGap(b: Band, front: Axes): number {
  const [w, better] = frontAxes(front);
  return Math.max(0, w - b.front, b.front_better_axis !== undefined ? better - b.front_better_axis : 0);
}

function backGap(b: Band, back: Axes): number {
  return Math.max(0, Math.max(worse(back.left_right), worse(back.top_bottom)) - b.back);
}

const ref = (b: Band | undefined): BandRef => (b ? { grade: b.grade, label: b.label } : null);

export function ceilingFor(house: House, front: Axes, back?: Axes): Ceiling {
  const bands = STANDARDS.find((s) => s.house === house)!.bands;
  const frontBand = bands.find((b) => frontGap(b, front) === 0);
  const backBand = back ? bands.find((b) => backGap(b, back) === 0) : undefined;
  const i = bands.findIndex((b) => frontGap(b, front) === 0 && (!back || backGap(b, back) === 0));
  const band = i >= 0 ? bands[i] : undefined;
  const better = i === 0 ? undefined : bands[i > 0 ? i - 1 : bands.length - 1];
  let limited: "front" | "back" | null = null;
  let points: number | null = null;
  if (better) {
    const f = frontGap(better, front);
    const bk = back ? backGap(better, back) : 0;
    limited = bk > f ? "back" : "front";
    points = round(Math.max(f, bk));
  }
  return {
    house, max_grade: band?.grade ?? null, label: band?.label ?? null, status: band?.status ?? null,
    front: ref(frontBand), back: back ? ref(backBand) : null,
    limited_by: limited, next_grade: better?.grade ?? null, to_next_band: points,
  };
}

export function ceilings(front: Axes, back?: Axes): Ceiling[] {
  return HOUSES.map((h) => ceilingFor(h, front, back));
}
