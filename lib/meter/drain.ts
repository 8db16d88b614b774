import { flushRequestLog, unwrittenLog } from "@/lib/usage/log";
import { unwrittenLedger, writeLedger } from "./ledger";
import { drainSettles } from "./settle-queue";

/**
 * Tries at the last writes, and the pause before each next one: a write refused once (a
 * deadlock, a connection dropped in a failover) keeps its rows, and in a running server the
 * next flush writes them; a process about to exit has no next flush.
 */
export const FINAL_WRITES = { tries: 4, pauseMs: 250 } as const;

/**
 * Before the process exits (the servers await it on SIGTERM and SIGINT, after the requests in
 * flight): every pending settle sent and answered, which records its ledger row, then the
 * ledger and the request log written to the database, tried again while rows are left.
 * flushLedger() is the same.
 */
export async function drainMeter(o: { pauseMs?: number } = {}): Promise<void> {
  await drainSettles();
  for (let i = 1; ; i++) {
    await writeLedger();
    await flushRequestLog();
    const left = { ledger: unwrittenLedger(), log: unwrittenLog() };
    if (!left.ledger && !left.log) return;
    if (i >= FINAL_WRITES.tries) {
      console.error(`[drain] ${left.ledger} ledger rows and ${left.log} request-log rows not written after ${i} tries: the database refused them`);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, (o.pauseMs ?? FINAL_WRITES.pauseMs) * i));
  }
}
