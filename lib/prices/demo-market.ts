import { progress as terminal, type Progress } from "@/lib/jobs/progress";
import { trackJob } from "@/lib/jobs/running";
import { generateDemo, type DemoResult } from "./demo";
import { refreshPrices, type RefreshPricesResult } from "./refresh";
import { refreshIndex, type RefreshIndexResult } from "./refresh-index";

// The demo market end to end, as the job, the embedded first start and the benchmarks run it:
// the feed files (a year's history per source and today's daily files) and the index's past
// days, then refresh-prices applying the files, then refresh-index for today.

export type DemoMarket = {
  demo: DemoResult;
  prices: RefreshPricesResult & { seconds: number };
  index: RefreshIndexResult;
};

/**
 * The stages' weights in the whole, as measured on the embedded first start (seconds for a year,
 * paced, on two cores): what /v1/status reports as the demo's share done.
 */
export const DEMO_STAGES = { "demo-prices": 150, "refresh-prices": 290, "refresh-index": 90 };

/**
 * `paced`: the embedded first start, beside a server on the same thread: every step in small
 * pieces that hand the event loop back (lib/jobs/pace.ts). The data is the same either way.
 * While it runs, /v1/status lists the job `demo-prices` with its stage and share done.
 */
export async function runDemoMarket(o: { days: number; feedsDir: string; progress?: (job: string) => Progress; paced?: boolean }): Promise<DemoMarket> {
  const p = o.progress ?? ((job: string) => terminal(job));
  const job = trackJob("demo-prices", DEMO_STAGES);
  try {
    job.stage("demo-prices");
    const demo = await generateDemo({ days: o.days, feedsDir: o.feedsDir, paced: o.paced, share: job.share }, p("demo-prices"));
    const started = Date.now();
    job.stage("refresh-prices");
    // refresh-index follows at once and rebuilds every quote document: written once, not twice.
    const applied = await refreshPrices(o.feedsDir, p("refresh-prices"), { docs: false, paced: o.paced, share: job.share });
    const prices = { ...applied, seconds: (Date.now() - started) / 1000 };
    job.stage("refresh-index");
    const index = await refreshIndex(p("refresh-index"), { paced: o.paced, share: job.share });
    return { demo, prices, index };
  } finally {
    job.end();
  }
}
