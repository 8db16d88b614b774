import { sql } from "drizzle-orm";
import { rows } from "@/lib/db/client";
import { env } from "@/lib/env";

// The embedded default's first start: no licensed feed exists here, so the demo market is
// generated in the background while the server already answers (catalogue routes at once,
// prices as they land). DEMO_PRICES=0 turns it off; DEMO_PRICES=1 turns it on for PostgreSQL.

export async function demoPricesOnFirstStart(): Promise<void> {
  const wanted = process.env.DEMO_PRICES ?? (process.env.DATABASE_URL ? "0" : "1");
  if (wanted !== "1") return;
  const [state] = await rows<{ catalog: boolean; prices: boolean }>(sql`select
    exists (select 1 from job_runs where job = 'refresh-catalog' and last_success_at is not null) as catalog,
    exists (select 1 from job_runs where job = 'refresh-prices' and last_success_at is not null) as prices`);
  if (!state?.catalog || state.prices) return;
  const days = Number(process.env.DEMO_PRICES_DAYS ?? 365);
  const { runDemoMarket } = await import("./demo-market");
  const started = Date.now();
  console.log(`[demo-prices] first start: generating ${days} days of demo prices in the background`);
  const { demo, prices } = await runDemoMarket({ days, feedsDir: env().PRICE_FEEDS_DIR });
  // PGlite runs no background checkpointer: without this the year's WAL (about 3 GB) stays on disk.
  await rows(sql`checkpoint`).catch((err) => console.error(`[demo-prices] checkpoint: ${(err as Error).message}`));
  console.log(`[demo-prices] ${(demo.points + prices.observations).toLocaleString("en")} points for ${demo.products} products in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}
