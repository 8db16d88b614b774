import { deleteLogBefore, insertLogRows, type LogRow } from "./queries/write";

// The request log: every call an account's key made, one row each, buffered here and written in
// batches (every FLUSH_MS, or at MAX_ROWS) so the request path pays a push onto an array. A
// row waits for its settle (what it finally cost, the cards it added) up to SETTLE_WAIT_MS; the
// process's drain writes everything.

const FLUSH_MS = 2_000;
const MAX_ROWS = 2_000;
const SETTLE_WAIT_MS = 10_000;
/** While the database refuses writes the buffer keeps this many rows, the newest. */
const MAX_KEPT = 200_000;
export const RETENTION_DAYS = 30;

export type Entry = LogRow & { settled: boolean };
type State = { rows: Entry[]; timer?: NodeJS.Timeout; flushing?: Promise<void>; lastPurge: number };
// On globalThis: the custom server loads the dispatcher's and Next's module graphs apart.
const slot = globalThis as unknown as { __requestLog?: State };
const state = (): State => (slot.__requestLog ??= { rows: [], lastPurge: 0 });

/**
 * Outside production a benchmark may switch the log off to measure its cost on the path; in
 * production only a server the benchmark started (BENCH_ROUTES=1, bench/run.ts) honours it.
 * Read once a second, not per call: every process.env read crosses into C++ (about a microsecond).
 */
let switchedOff = { at: -Infinity, off: false };
function disabled(now: number): boolean {
  if (now - switchedOff.at > 1_000) {
    const env = process.env;
    switchedOff = { at: now, off: env.REQUEST_LOG === "off" && (env.NODE_ENV !== "production" || env.BENCH_ROUTES === "1") };
  }
  return switchedOff.off;
}

/** Adds a call's row; `settled: false` while its meter settle has not answered yet. */
export function logCall(e: Entry): void {
  if (disabled(e.at)) return;
  const s = state();
  s.rows.push(e);
  if (s.rows.length >= MAX_ROWS) void flushRequestLog(false);
  else if (!s.timer) {
    s.timer = setTimeout(() => {
      s.timer = undefined;
      void flushRequestLog(false);
    }, FLUSH_MS);
    s.timer.unref?.();
  }
}

/**
 * Writes the buffered rows: all of them with `all`, else those settled or waited for long
 * enough. A failed write keeps its rows for the next attempt.
 */
export async function flushRequestLog(all = true, now = Date.now()): Promise<void> {
  const s = state();
  while (s.flushing) await s.flushing;
  const ready: Entry[] = [];
  const waiting: Entry[] = [];
  for (const r of s.rows) (all || r.settled || now - r.at > SETTLE_WAIT_MS ? ready : waiting).push(r);
  s.rows = waiting;
  if (waiting.length && !s.timer) {
    s.timer = setTimeout(() => {
      s.timer = undefined;
      void flushRequestLog(false);
    }, FLUSH_MS);
    s.timer.unref?.();
  }
  if (!ready.length) return;
  s.flushing = (async () => {
    try {
      // Entries are rows with a `settled` flag, which the write ignores: no copy of each.
      await insertLogRows(ready);
    } catch (err) {
      console.error("[request-log] write failed, retrying later:", (err as Error).message);
      s.rows = [...ready, ...s.rows];
      if (s.rows.length > MAX_KEPT) {
        console.error(`[request-log] ${s.rows.length - MAX_KEPT} oldest rows dropped: the database has refused writes for too long`);
        s.rows = s.rows.slice(-MAX_KEPT);
      }
    }
  })();
  try {
    await s.flushing;
  } finally {
    s.flushing = undefined;
  }
  await purgeHourly(now);
}

/** Rows past the retention go at most once an hour, by the instance that happens to flush. */
async function purgeHourly(now: number): Promise<void> {
  const s = state();
  if (now - s.lastPurge < 3_600_000) return;
  s.lastPurge = now;
  try {
    await deleteLogBefore(new Date(now - RETENTION_DAYS * 86_400_000).toISOString());
  } catch (err) {
    console.error("[request-log] purge failed:", (err as Error).message);
  }
}

/** How many rows wait to be written (the drain's check that nothing is left). */
export function unwrittenLog(): number {
  return state().rows.length;
}

/** Buffered rows of an account (tests, and readers that want this instance's latest calls). */
export function pendingLog(accountId: string): Entry[] {
  return state().rows.filter((r) => r.accountId === accountId);
}
