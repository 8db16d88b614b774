import { progress as terminal, type Progress } from "@/lib/jobs/progress";
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

export async function runDemoMarket(o: { days: number; feedsDir: string; progress?: (job: string) => Progress }): Promise<DemoMarket> {
  const p = o.progress ?? ((job: string) => terminal(job));
  const demo = await generateDemo({ days: o.days, feedsDir: o.feedsDir }, p("demo-prices"));
  const started = Date.now();
  // refresh-index follows at once and rebuilds every quote document: written once, not twice.
  const prices = { ...(await refreshPrices(o.feedsDir, p("refresh-prices"), { docs: false })), seconds: (Date.now() - started) / 1000 };
  const index = await refreshIndex(p("refresh-index"));
  return { demo, prices, index };
}
