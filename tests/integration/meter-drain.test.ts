import { afterAll, describe, expect, it } from "vitest";
import { drainMeter } from "@/lib/meter/drain";
import { makeAccount, type TestAccount } from "../helpers/accounts";
import { query } from "../helpers/db";
import { as } from "../helpers/meter";
import { startLeanServer, type Proc } from "../helpers/servers";

// A call's ledger row is written once its settle is answered, and settles wait up to 100 ms
// for the account's next request. Before the process exits, drainMeter sends them and writes
// the ledger: every credit an answer charged is in PostgreSQL.

async function ledgerCredits(account: TestAccount): Promise<number> {
  const [row] = await query<{ credits: number }>("select coalesce(sum(credits), 0)::int as credits from usage_ledger where account_id = $1", [account.id]);
  return row!.credits;
}

// A refund is settled before its answer goes out, and takes the account's queued settles along:
// the last call is a served one, whose settle is still queued when the calls end.
const PATHS = ["/v1/cards/no-such-card", "/v1/cards?limit=100&select=id", "/v1/sets?limit=1"];

describe("drainMeter", () => {
  it("writes every answered call to the ledger at once, the settles still waiting included", async () => {
    const account = await makeAccount({ confirmed: true });
    let charged = 0;
    for (const path of PATHS) {
      const a = await as(account.key, "GET", path);
      if (a.status < 300) charged += Number(a.h("x-credits-cost"));
    }
    expect(charged).toBe(3);
    // No wait: the last settle is still queued and the ledger's batch is 2 s away.
    await drainMeter();
    expect(await ledgerCredits(account)).toBe(charged);
  });
});

// The server's side: on SIGTERM server/lean.ts awaits the meter's drain before it exits
// (drainMeter(), or flushLedger(), which drains the same way). A shutdown that only wrote the
// ledger's buffer would lose the last call, whose settle is still queued.
// Ctrl-C signals the whole process group, tsx's esbuild service included: whatever the
// shutdown would import then can no longer be compiled, so it must all be loaded already.
// tsx's disk cache would hide that once a file was compiled before, so it is off here.
describe.each([
  { how: "with SIGTERM", group: false },
  { how: "with SIGINT to its process group (Ctrl-C)", group: true },
])("a lean server stopped $how", ({ group }) => {
  let app: Proc | undefined;
  afterAll(async () => {
    await app?.stop();
  });

  it("loses no ledger row and no request-log row", async () => {
    app = await startLeanServer({ DATABASE_URL: process.env.DATABASE_URL!, REDIS_URL: "", TSX_DISABLE_CACHE: "1" }, { group });
    const account = await makeAccount({ confirmed: true });
    let charged = 0;
    for (let i = 0; i < 6; i++) {
      const res = await fetch(app.url + PATHS[i % PATHS.length], { headers: { "x-api-key": account.key } });
      if (res.status < 300) charged += Number(res.headers.get("x-credits-cost"));
      await res.arrayBuffer();
    }
    expect(charged).toBe(6);
    await app.stop();
    app = undefined;
    expect(await ledgerCredits(account)).toBe(charged);
    const [log] = await query<{ n: number }>("select count(*)::int as n from request_log where account_id = $1", [account.id]);
    expect(log!.n).toBe(6);
  }, 60_000);
});
