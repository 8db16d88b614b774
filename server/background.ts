import { asJob, closeDb } from "@/lib/db/client";
import { drainMeter } from "@/lib/meter/drain";

// What an app instance does besides answering: load (or first build) the identification
// index, then on the embedded default's first start generate the demo prices; deliver mail
// every 5 s when SMTP_URL is set. Never throws: a failed start-up task only logs.

export function startBackgroundWork(): void {
  void (async () => {
    // One after the other, the index being the shorter job, so neither halves the other's cores.
    try {
      const { visionIndexOnStart } = await import("@/lib/vision/on-start");
      // Job work: its long statements run under the job limits, not the app's 30 s.
      await asJob(visionIndexOnStart);
    } catch (err) {
      console.error(`[vision-index] failed: ${err instanceof Error ? err.message : String(err)}`);
    }
    try {
      const { demoPricesOnFirstStart } = await import("@/lib/prices/demo-on-start");
      await asJob(demoPricesOnFirstStart);
    } catch (err) {
      console.error(`[demo-prices] failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  })();
  void import("@/lib/usage/alerts").then((m) => m.startUsageAlerts()).catch((err) => console.error(`[usage-alerts] sweep did not start: ${err instanceof Error ? err.message : String(err)}`));
  if (!process.env.SMTP_URL) return;
  void import("@/lib/mail/sender").then((m) => m.startMailLoop(5_000)).catch((err) => {
    console.error(`[mail] background sender did not start: ${err instanceof Error ? err.message : String(err)}`);
  });
}

/** Before exit: no new mail passes, every metered call written down, the database closed. */
export async function stopBackgroundWork(): Promise<void> {
  (await import("@/lib/mail/sender")).stopMailLoop();
  await drainMeter();
  await (await import("@/lib/usage/alerts")).stopUsageAlerts();
  await (await import("@/lib/accounts/invalidate")).closeAccountBus();
  await closeDb();
}
