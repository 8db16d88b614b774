import { createServer, type Server, type Socket } from "node:net";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { toApiError } from "@/lib/api/pipeline";
import { asJob, closeDb, poolConfig, rows, setDbRole } from "@/lib/db/client";
import { resetEnvForTests } from "@/lib/env";
import { get } from "../helpers/api";
import { forgetRoomyKeys } from "../helpers/accounts";
import { dbUrl, ensureDatabase } from "../helpers/db";

// The pool's limits: an app's statements are cut off after PG_STATEMENT_TIMEOUT_MS and its
// connections given up after PG_CONNECT_TIMEOUT_MS; a job's statements run as long as they
// need. On a database of its own, since a test holds a lock on its cards table.

const DB = "pokeprice_timeouts_test";
const VARS = ["PG_STATEMENT_TIMEOUT_MS", "PG_JOB_STATEMENT_TIMEOUT_MS", "PG_CONNECT_TIMEOUT_MS"] as const;
let previousUrl: string | undefined;
const saved = Object.fromEntries(VARS.map((v) => [v, process.env[v]]));

const statementTimeout = async () => (await rows<{ statement_timeout: string }>(sql`show statement_timeout`))[0]!.statement_timeout;

async function reopen(vars: Partial<Record<(typeof VARS)[number], string>> = {}) {
  await closeDb();
  for (const v of VARS) {
    if (vars[v] === undefined) delete process.env[v];
    else process.env[v] = vars[v];
  }
}

beforeAll(async () => {
  previousUrl = process.env.DATABASE_URL;
  await closeDb();
  process.env.DATABASE_URL = await ensureDatabase(DB, { fresh: true });
  resetEnvForTests();
  forgetRoomyKeys();
});

afterEach(async () => {
  await closeDb();
  setDbRole("app");
});

afterAll(async () => {
  for (const v of VARS) {
    if (saved[v] === undefined) delete process.env[v];
    else process.env[v] = saved[v];
  }
  if (previousUrl === undefined) delete process.env.DATABASE_URL;
  else process.env.DATABASE_URL = previousUrl;
  resetEnvForTests();
  forgetRoomyKeys();
});

describe("statement limits", () => {
  it("the app's connections: 30 s by default, PG_STATEMENT_TIMEOUT_MS otherwise", async () => {
    await reopen();
    expect(await statementTimeout()).toBe("30s");
    await reopen({ PG_STATEMENT_TIMEOUT_MS: "1500" });
    expect(await statementTimeout()).toBe("1500ms");
  });

  it("a job process has none by default (PG_JOB_STATEMENT_TIMEOUT_MS sets one), whatever the app's is", async () => {
    await reopen({ PG_STATEMENT_TIMEOUT_MS: "1500" });
    setDbRole("job");
    expect(await statementTimeout()).toBe("0");
    await reopen({ PG_JOB_STATEMENT_TIMEOUT_MS: "600000" });
    expect(await statementTimeout()).toBe("10min");
  });

  it("job work inside an app process runs on the job pool", async () => {
    await reopen({ PG_STATEMENT_TIMEOUT_MS: "1500" });
    expect(await statementTimeout()).toBe("1500ms");
    expect(await asJob(() => statementTimeout())).toBe("0");
    expect(await statementTimeout()).toBe("1500ms");
  });

  it("a malformed value is refused when the pool opens", async () => {
    await reopen({ PG_STATEMENT_TIMEOUT_MS: "soon" });
    await expect(statementTimeout()).rejects.toThrow(/PG_STATEMENT_TIMEOUT_MS/);
  });

  it("a request whose query outlasts the limit answers in the error envelope, without SQL, at once", async () => {
    await reopen({ PG_STATEMENT_TIMEOUT_MS: "500" });
    expect((await get("/v1/health")).status).toBe(200);
    // Another session holds the cards table: the card's query waits until the limit cuts it off.
    const locker = new pg.Client({ connectionString: dbUrl(DB) });
    await locker.connect();
    await locker.query("begin; lock table cards in access exclusive mode");
    // Without a limit the request would wait for ever: the lock goes after 8 s whatever happens.
    const release = setTimeout(() => void locker.query("rollback"), 8_000);
    try {
      const started = Date.now();
      const res = await get("/v1/cards/base1-4");
      const text = await res.text();
      expect(Date.now() - started).toBeLessThan(5_000);
      expect([500, 503]).toContain(res.status);
      const body = JSON.parse(text);
      expect(["INTERNAL_ERROR", "SERVICE_UNAVAILABLE"]).toContain(body.error.code);
      expect(body.error.request_id).toBe(res.headers.get("x-request-id"));
      expect(text).not.toMatch(/select|from |statement|cancel|\$1/i);
    } finally {
      clearTimeout(release);
      await locker.query("rollback").catch(() => undefined);
      await locker.end();
    }
  });
});

describe("connect limit", () => {
  let server: Server;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    // Accepts connections and never says a word: a server that hangs, or a black-holed route.
    server = createServer((s) => sockets.push(s));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await new Promise((r) => server.close(r));
  });

  it("5 s by default; a server that does not answer within PG_CONNECT_TIMEOUT_MS is a 503, not a hung request", async () => {
    delete process.env.PG_CONNECT_TIMEOUT_MS;
    expect(poolConfig("postgres://x@127.0.0.1/x", "app").connectionTimeoutMillis).toBe(5_000);
    expect(poolConfig("postgres://x@127.0.0.1/x", "job").connectionTimeoutMillis).toBe(5_000);
    process.env.PG_CONNECT_TIMEOUT_MS = "300";
    try {
      const port = (server.address() as { port: number }).port;
      const pool = new pg.Pool(poolConfig(`postgres://postgres@127.0.0.1:${port}/none`, "app"));
      const started = Date.now();
      const err = await pool.query("select 1").then(() => undefined, (e: unknown) => e);
      await pool.end().catch(() => undefined);
      expect(err).toBeInstanceOf(Error);
      expect(Date.now() - started).toBeLessThan(3_000);
      const api = toApiError(err, "req_connect_test");
      expect(api.code).toBe("SERVICE_UNAVAILABLE");
      expect(api.headers?.["retry-after"]).toBeDefined();
    } finally {
      delete process.env.PG_CONNECT_TIMEOUT_MS;
    }
  });
});
