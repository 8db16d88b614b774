import type { Principal } from "@/lib/api/auth";
import type { Lease } from "@/lib/meter/meter";
import { logCall, type Entry } from "./log";

// The pipeline's request-log step: one row per call of an account's key, answered or refused.
// What the call finally cost arrives with its meter settle (Lease.onSettled), often after the
// answer went out; the row waits in the buffer for it.

export type Pending = { credits: number; refunded: boolean; cardsAdded: number; settled: boolean; entry?: Entry };

/** Before the handler: the lease tells the row what the call cost once its settle is answered. */
export function watchSettle(lease: Lease): Pending {
  const p: Pending = { credits: 0, refunded: false, cardsAdded: 0, settled: false };
  // Bound, not an arrow: tsx's esbuild names every closure made per request (lib/api/context.ts).
  lease.onSettled = settledAs.bind(null, p);
  return p;
}

function settledAs(p: Pending, o: { credits: number; refunded: boolean; newCards: number }): void {
  p.credits = o.credits;
  p.refunded = o.refunded;
  p.cardsAdded = o.newCards;
  p.settled = true;
  const e = p.entry;
  if (e) {
    e.credits = o.credits;
    e.refunded = o.refunded;
    e.cardsAdded = o.newCards;
    e.settled = true;
  }
}

type Call = {
  principal: Principal; method: string; path: string; requestId: string; started: number;
  status: number; errorCode: string | null; pending?: Pending;
};

/** After the answer: its row, complete or waiting for its settle. */
export function logAnswer(c: Call): void {
  if (c.principal.kind !== "account") return;
  const p = c.pending;
  const entry: Entry = {
    accountId: c.principal.account.id, at: Date.now(), keyId: c.principal.keyId || null, method: c.method,
    route: `/v1${c.path}`, status: c.status, errorCode: c.errorCode,
    credits: p?.credits ?? 0, refunded: p?.refunded ?? false, cardsAdded: p?.cardsAdded ?? 0,
    latency: Math.max(0, Math.round((performance.now() - c.started) * 10)), requestId: c.requestId,
    // Without a lease nothing will settle: the meter refused it, or it was refused before it.
    settled: p ? p.settled : true,
  };
  if (p && !p.settled) p.entry = entry;
  logCall(entry);
}
