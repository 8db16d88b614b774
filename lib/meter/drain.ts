import { flushRequestLog } from "@/lib/usage/log";
import { writeLedger } from "./ledger";
import { drainSettles } from "./settle-queue";

/**
 * Before the process exits (the servers await it on SIGTERM and SIGINT, after the requests in
 * flight): every pending settle sent and answered, which records its ledger row, then the
 * ledger and the request log written to the database. flushLedger() is the same.
 */
export async function drainMeter(): Promise<void> {
  await drainSettles();
  await writeLedger();
  await flushRequestLog();
}
