// Shapes shared by the price explorer's server side, its route handler and its client chart.

export const RANGES = ["7d", "30d", "90d", "1y", "all"] as const;
export type Range = (typeof RANGES)[number];

export type ChartLine = {
  /** INDEX or the source's code: the key of the line's values in `rows`. */
  key: string; source: string; label: string; provenance: string; demo: boolean;
  currency: string; printing: string | null; variant: string;
};

export type ChartData = {
  range: Range; from: string; to: string; interval: "day" | "week";
  /** The printing of the source lines; chosenPrinting: the one the reader picked (null: the headline's). */
  printing: string | null; chosenPrinting: string | null;
  lines: ChartLine[];
  /** One row per date: {date, INDEX?: eur, CARDMARKET?: eur, …}, every value in EUR. */
  rows: Record<string, number | string>[];
  /** The composite index over the range (low, high, change), as the stats route computes it. */
  index: { low: number | null; high: number | null; change_pct: number | null; points: number; demo: boolean };
  summary: { key: string; first: number | null; last: number | null; low: number | null; high: number | null; change_pct: number | null; first_date: string | null; last_date: string | null }[];
};
