// Next's start-up hook (once per server process). On the embedded default's first start the
// demo prices are generated in the background. With SMTP_URL set, the outbox is delivered
// in the background every 5 s; without it, mail stays in the outbox for /dev/outbox. Only in
// the Node.js runtime, never during `next build`, and never throwing: a failed start-up only
// logs, and the server serves on.

export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs" || process.env.NEXT_PHASE === "phase-production-build") return;
  // The demo market of the embedded default's first start (lib/prices/demo-on-start.ts).
  void import("./lib/prices/demo-on-start")
    .then((m) => m.demoPricesOnFirstStart())
    .catch((err) => console.error(`[demo-prices] failed: ${err instanceof Error ? err.message : String(err)}`));
  if (!process.env.SMTP_URL) return;
  try {
    const { startMailLoop } = await import("./lib/mail/sender");
    startMailLoop(5_000);
  } catch (err) {
    console.error(`[mail] background sender did not start: ${err instanceof Error ? err.message : String(err)}`);
  }
}
