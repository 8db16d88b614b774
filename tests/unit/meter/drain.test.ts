import { afterEach, describe, expect, it, vi } from "vitest";

// The drain's last writes (lib/meter/drain.ts): a process about to exit has no next flush, so a
// write the database refused once (a deadlock, a failover) is tried again, and what is still
// refused after the last try is said, not dropped in silence.

const writes = vi.hoisted(() => ({ ledger: [] as number[], log: [] as number[], refuse: { ledger: 0, log: 0 } }));
vi.mock("@/lib/meter/queries/ledger", () => ({
  addLedgerRows: async (rows: unknown[]) => {
    if (writes.refuse.ledger-- > 0) throw new Error("deadlock detected");
    writes.ledger.push(rows.length);
  },
  addAccountCards: async () => {},
  periodCards: async () => [],
  periodRoutes: async () => [],
}));
vi.mock("@/lib/usage/queries/write", () => ({
  insertLogRows: async (rows: unknown[]) => {
    if (writes.refuse.log-- > 0) throw new Error("terminating connection due to administrator command");
    writes.log.push(rows.length);
  },
  deleteLogBefore: async () => 0,
}));
vi.mock("@/lib/usage/alerts", () => ({ afterLedgerWrite: async () => {} }));

const { drainMeter, FINAL_WRITES } = await import("@/lib/meter/drain");
const { record, unwrittenLedger } = await import("@/lib/meter/ledger");
const { logCall, unwrittenLog } = await import("@/lib/usage/log");

const call = (i: number) => {
  record({ accountId: `acct_drain_${i}`, period: "2026-11", day: "2026-11-26", route: "GET /v1/cards/{id}", credits: 1, refunds: 0, newCards: 0 });
  logCall({
    accountId: `acct_drain_${i}`, at: Date.now(), keyId: "key_drain", method: "GET", route: "/v1/cards/{id}", status: 200, errorCode: null,
    credits: 1, cardsAdded: 0, refunded: false, latency: 10, requestId: `req_drain_${i}`, settled: true,
  });
};

describe("drainMeter", () => {
  afterEach(() => {
    writes.ledger = [];
    writes.log = [];
    writes.refuse = { ledger: 0, log: 0 };
    vi.restoreAllMocks();
  });

  it("writes again what the database refused once, and leaves nothing behind", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    for (let i = 0; i < 3; i++) call(i);
    writes.refuse = { ledger: 1, log: 2 };
    await drainMeter({ pauseMs: 1 });
    expect(writes.ledger).toEqual([3]);
    expect(writes.log).toEqual([3]);
    expect(unwrittenLedger()).toBe(0);
    expect(unwrittenLog()).toBe(0);
  });

  it("stops after its last try, keeping the rows and saying how many were not written", async () => {
    const said = vi.spyOn(console, "error").mockImplementation(() => {});
    for (let i = 0; i < 2; i++) call(i);
    writes.refuse = { ledger: 99, log: 99 };
    await drainMeter({ pauseMs: 1 });
    expect(writes.ledger).toEqual([]);
    expect(unwrittenLedger()).toBe(2);
    expect(unwrittenLog()).toBe(2);
    expect(said.mock.calls.map((c) => String(c[0])).filter((m) => m.startsWith("[drain]"))).toEqual([
      `[drain] 2 ledger rows and 2 request-log rows not written after ${FINAL_WRITES.tries} tries: the database refused them`,
    ]);
    writes.refuse = { ledger: 0, log: 0 };
    await drainMeter({ pauseMs: 1 });
    expect(unwrittenLedger() + unwrittenLog()).toBe(0);
  });
});
