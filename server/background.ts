import { closeAccountBus } from "@/lib/accounts/invalidate";
import { asJob, closeDb } from "@/lib/db/client";
import { drainMeter } from "@/lib/meter/drain";
import { meterDriver } from "@/lib/meter/driver";
import { startUsageAlerts, stopUsageAlerts } from "@/lib/usage/alerts";

// What an app instance does besides answering: load (or first build) the identification
// index, then on the embedded default's first start generate the demo prices and build the
// bulk files once; deliver mail every 5 s when SMTP_URL is set. Never throws: a failed
// start-up task only logs.
//
// What the shutdown runs is loaded before it: Ctrl-C signals the whole process group, and under
// tsx its compiler stops with it, so a module first imported at exit could not load and the
// meter's last calls would be lost (tests/integration/meter-drain.test.ts).

/** The mail loop, once started: only then is there one to stop. */
let mailLoop: Promise<typeof import("@/lib/mail/sender")> | undefined;

/**
 * The meter opened at start rather than on the first metered call: an empty store's age then
 * starts before the first signup, whose account waits for no rebuild (lib/meter/rebuild.ts).
 */
export function openMeterAtStart(): void {
  meterDriver().catch((err) => console.error(`[meter] did not open: ${err instanceof Error ? err.message : String(err)}`));
}

export function startBackgroundWork(): void {
  openMeterAtStart();
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
    try {
      const { bulkOnFirstStart } = await import("@/lib/bulk/on-start");
      await asJob(bulkOnFirstStart);
    } catch (err) {
      console.error(`[build-bulk] failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  })();
  startUsageAlerts();
  if (!process.env.SMTP_URL) return;
  mailLoop = import("@/lib/mail/sender");
  mailLoop.then((m) => m.startMailLoop(5_000)).catch((err) => {
    console.error(`[mail] background sender did not start: ${err instanceof Error ? err.message : String(err)}`);
  });
}

/** Before exit: no new mail passes, every metered call written down, the database closed. */
export async function stopBackgroundWork(): Promise<void> {
  (await mailLoop?.catch(() => undefined))?.stopMailLoop();
  await drainMeter();
  await stopUsageAlerts();
  await closeAccountBus();
  await closeDb();
}
