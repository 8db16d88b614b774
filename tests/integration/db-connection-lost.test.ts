import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb, rows } from "@/lib/db/client";
import { query } from "../helpers/db";

// A connection the server ends while the app holds it (a dropped database, a failover, an
// operator's pg_terminate_backend) must fail the work on it, not the process: pg emits the
// loss on a checked-out client, and an 'error' event nobody listens to is an uncaught exception.
// Seen when import.test.ts dropped its database under the request log's batch writer.

describe("a connection the server ends", () => {
  it("while a transaction holds it between statements: that transaction fails, the process and the pool go on", async () => {
    const db = await getDb();
    const uncaught: unknown[] = [];
    const onUncaught = (err: unknown) => uncaught.push(err);
    process.on("uncaughtException", onUncaught);
    try {
      const tx = db.transaction(async (t) => {
        const [backend] = await rows<{ pid: number }>(sql`select pg_backend_pid() as pid`, t as never);
        await query("select pg_terminate_backend($1)", [backend!.pid]);
        // The loss arrives while the client is checked out and idle, as between a batch's statements.
        await new Promise((r) => setTimeout(r, 300));
        await rows(sql`select 1`, t as never);
      });
      await expect(tx).rejects.toThrow();
    } finally {
      process.off("uncaughtException", onUncaught);
    }
    expect(uncaught).toEqual([]);
    const [row] = await rows<{ one: number }>(sql`select 1 as one`);
    expect(row?.one).toBe(1);
  });
});
