import { sql } from "drizzle-orm";
import { everSucceeded } from "@/lib/catalog/queries/jobs";
import { dbKind, rows } from "@/lib/db/client";
import { demoPriceDays, env, onFirstStart } from "@/lib/env";
import { progress } from "@/lib/jobs/progress";
import { runningJob } from "@/lib/jobs/running";

// The embedded default's first start: no licensed feed exists here, so the demo market is
// generated in the background while the server already answers (catalogue routes at once,
// prices as they land). DEMO_PRICES=0 turns it off; DEMO_PRICES=1 turns it on for PostgreSQL.
// On PGlite the work is paced (lib/jobs/pace.ts): the database runs in the server's thread, and
// the server keeps answering within a fraction of a second throughout.

export async function demoPricesOnFirstStart(): Promise<void> {
  if (!onFirstStart("DEMO_PRICES")) return;
  if (!(await everSucceeded("refresh-catalog")) || (await everSucceeded("refresh-prices"))) return;
  const days = demoPriceDays();
  const { runDemoMarket } = await import("./demo-market");
  const paced = (await dbKind()) === "pglite";
  const started = Date.now();
  console.log(`[demo-prices] first start: generating ${days} days of demo prices in the background (GET /v1/status shows how far)`);
  // A line a stage and every tenth done, not one a feed file: paced, the files number thousands.
  let shown = -1;
  const report = setInterval(() => {
    const j = runningJob("demo-prices");
    if (!j) return;
    const tenth = Math.floor(j.share_done * 10);
    if (tenth <= shown) return;
    shown = tenth;
    console.log(`[demo-prices] ${Math.round(j.share_done * 100)} % done (${j.phase}), ${((Date.now() - started) / 1000).toFixed(0)} s`);
  }, 1000);
  report.unref();
  try {
    const { demo, prices } = await runDemoMarket({ days, feedsDir: env().PRICE_FEEDS_DIR, paced, progress: (job) => progress(job, { quiet: paced }) });
    // PGlite runs no background checkpointer: without this the year's WAL (about 3 GB) stays on disk.
    await rows(sql`checkpoint`).catch((err) => console.error(`[demo-prices] checkpoint: ${(err as Error).message}`));
    console.log(`[demo-prices] ${(demo.points + prices.observations).toLocaleString("en")} points for ${demo.products} products in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  } finally {
    clearInterval(report);
  }
}
