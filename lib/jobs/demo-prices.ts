import path from "node:path";
import { env } from "@/lib/env";
import { runDemoMarket } from "@/lib/prices/demo-market";

// demo-prices [--days 365] [--out DIR]: the demo market, then today's feeds applied and indexed.
export async function run(args: Map<string, string>): Promise<number> {
  const days = Number(args.get("days") ?? 365);
  if (!Number.isInteger(days) || days < 2 || days > 3660) {
    console.error("--days must be a whole number from 2 to 3660");
    return 2;
  }
  const { demo: r, prices: f, index: i } = await runDemoMarket({ days, feedsDir: path.resolve(args.get("out") ?? env().PRICE_FEEDS_DIR) });
  console.log(`[demo-prices] ${r.products} products, ${r.series} series, ${r.points} history points over ${r.days} days, ${r.feed_lines} feed lines for today, in ${r.seconds.toFixed(1)} s`);
  console.log(`[refresh-prices] ${f.observations} observations applied; rejected ${f.files.reduce((n, x) => n + x.rejected, 0)} lines`);
  console.log(`[refresh-index] ${i.indexed} products indexed, ${i.changed} changed, in ${i.seconds.toFixed(1)} s`);
  return 0;
}
