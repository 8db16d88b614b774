// Next's start-up hook (once per server process). With SMTP_URL set, the outbox is delivered
// in the background every 5 s; without it, mail stays in the outbox for /dev/outbox. Only in
// the Node.js runtime, never during `next build`, and never throwing: a failed start-up only
// logs, and the server serves on.

export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    if (!process.env.SMTP_URL || process.env.NEXT_PHASE === "phase-production-build") return;
    try {
      const { startMailLoop } = await import("./lib/mail/sender");
      startMailLoop(5_000);
    } catch (err) {
      console.error(`[mail] background sender did not start: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}
