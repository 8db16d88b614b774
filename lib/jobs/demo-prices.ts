import path from "node:path";
import { env } from "@/lib/env";
import { runDemoMarket } from "@/lib/prices/demo-market";

// demo-prices [--days 365] [--out DIR]: the demo market's feed files (a history file per source
// for the days before today, today's daily files), applied by refresh-prices, then indexed.
export async function run(args: Map<string, string>): Promise<number> {
  const days = Number(args.get("days") ?? 365);
  if (!Number.isInteger(days) || days < 2 || days > 3660) {
    console.error("--days must be a whole number from 2 to 3660");
    return 2;
  }
  const { demo: r, prices: f, index: i } = await runDemoMarket({ days, feedsDir: path.resolve(args.get("out") ?? env().PRICE_FEEDS_DIR) });
  console.log(`[demo-prices] ${r.products} products, ${r.series} series over ${r.days} days: ${r.history_lines} history lines (${(r.history_bytes / 1e6).toFixed(0)} MB gzip) and ${r.feed_lines} feed lines for today, ${r.points} index history points, in ${r.seconds.toFixed(1)} s`);
  console.log(`[refresh-prices] ${f.observations} observations applied; rejected ${f.files.reduce((n, x) => n + x.rejected, 0)} lines`);
  console.log(`[refresh-index] ${i.indexed} products indexed, ${i.changed} changed, in ${i.seconds.toFixed(1)} s`);
  return 0;
}
