// Next's start-up hook (once per server process). The identification index is loaded (built
// first when there is none); on the embedded default's first start the demo prices are
// generated in the background. With SMTP_URL set, the outbox is delivered
// in the background every 5 s; without it, mail stays in the outbox for /dev/outbox. Only in
// the Node.js runtime, never during `next build`, and never throwing: a failed start-up only
// logs, and the server serves on.

export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs" || process.env.NEXT_PHASE === "phase-production-build") return;
  // The identification index (lib/vision/on-start.ts), then the demo market of the embedded
  // default's first start (lib/prices/demo-on-start.ts): one after the other, the index being
  // the shorter job, so that neither halves the other's share of the cores.
  void (async () => {
    try {
      await (await import("./lib/vision/on-start")).visionIndexOnStart();
    } catch (err) {
      console.error(`[vision-index] failed: ${err instanceof Error ? err.message : String(err)}`);
    }
    try {
      await (await import("./lib/prices/demo-on-start")).demoPricesOnFirstStart();
    } catch (err) {
      console.error(`[demo-prices] failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  })();
  if (!process.env.SMTP_URL) return;
  try {
    const { startMailLoop } = await import("./lib/mail/sender");
    startMailLoop(5_000);
  } catch (err) {
    console.error(`[mail] background sender did not start: ${err instanceof Error ? err.message : String(err)}`);
  }
}
