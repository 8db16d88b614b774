import { demoPriceDays } from "@/lib/env";
import { runningJob } from "@/lib/jobs/running";
import { seriesOfProducts, type SeriesRead } from "@/lib/prices/queries/read";

// CONTRACT.md §1: a figure a demo generator made says so, never passing as a real observation.
// A feed labels its figures in `provenance` ("Cardmarket (demo data)"); refresh-index labels an
// index computed over any such figure "Composite index (demo data)". The pages read that
// label and print DEMO_LABEL next to every figure it covers.

export const DEMO_LABEL = "(demo data)";

export const isDemoProvenance = (provenance: string) => /\bdemo data\b/i.test(provenance);

/** The headline composite index: the series that names neither locale nor printing. */
export const isHeadlineIndex = (s: Pick<SeriesRead, "source" | "locale" | "printing">) =>
  s.source === "INDEX" && s.locale === null && s.printing === null;

/**
 * While this server generates the demo prices (the embedded default's first start, several
 * minutes): how far it is, so that a page says prices are coming instead of printing dashes.
 */
export function demoPreparing(): { percent: number } | null {
  const job = runningJob("demo-prices");
  return job ? { percent: Math.floor(job.share_done * 100) } : null;
}

export const preparingText = (p: { percent: number }) => `Prices are being prepared (demo data, about ${p.percent} % done)`;

/** How much demo history the first start generates, as the pages say it (DEMO_PRICES_DAYS, 365 by default). */
export function demoSpan(days = demoPriceDays()): string {
  return days === 365 ? "a year" : `${days} days`;
}

/** The cards among `ids` whose composite index (index_eur, the chart) was computed over demo figures. */
export async function demoIndexed(ids: string[]): Promise<Set<string>> {
  const series = await seriesOfProducts("card", ids);
  return new Set(series.filter((s) => isHeadlineIndex(s) && isDemoProvenance(s.provenance)).map((s) => s.product_id));
}
