import { PgDialect, type PgDatabase, type PgQueryResultHKT } from "drizzle-orm/pg-core";
import type { SQL } from "drizzle-orm";
import { createHash } from "node:crypto";
import path from "node:path";
import type { Pool, PoolConfig } from "pg";
import { env } from "@/lib/env";
import { scope } from "@/lib/scope";
import * as schema from "./schema";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

type Handle = { db: Db; kind: "postgres" | "pglite"; pool?: Pool; close: () => Promise<void> };

/**
 * Who the connections serve. An app answers requests: a statement that runs for half a minute
 * is a fault, and it must not hold a connection for ever. A job (refresh-prices, refresh-index,
 * demo-prices, refresh-catalog) legitimately runs statements of minutes.
 */
export type DbRole = "app" | "job";

// One handle per process (and one more for job work inside an app process). Kept on
// globalThis so Next's dev reloads and test files share them.
const slot = globalThis as unknown as {
  __pokedb?: Promise<Handle>; __pokejobdb?: Promise<Handle>; __pokerole?: DbRole; __pokelocks?: Map<number, Promise<void>>;
};
// Enabled only while job work runs: afterwards the app's requests pay no promise hooks (lib/scope.ts).
const jobScope = scope<true>();

export function migrationsFolder(): string {
  return path.join(process.cwd(), "drizzle");
}

function millis(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === "") return fallback;
  const ms = Number(raw);
  if (!Number.isInteger(ms) || ms < 0) throw new Error(`${name} must be a whole number of milliseconds (0: no limit), not ${raw}`);
  return ms;
}

/** The limits a role's connections get; 0 means none. */
export function dbTimeouts(role: DbRole): { statementMs: number; connectMs: number } {
  return {
    statementMs: role === "app" ? millis("PG_STATEMENT_TIMEOUT_MS", 30_000) : millis("PG_JOB_STATEMENT_TIMEOUT_MS", 0),
    connectMs: millis("PG_CONNECT_TIMEOUT_MS", 5_000),
  };
}

export function poolConfig(url: string, role: DbRole): PoolConfig {
  const t = dbTimeouts(role);
  return {
    connectionString: url,
    max: Number(process.env.PG_POOL_MAX ?? 10),
    // A server that does not answer, or a pool whose connections are all busy for this long,
    // fails the query (a 503 to API callers) instead of queueing it without end.
    connectionTimeoutMillis: t.connectMs,
    // Timestamps leave the database as RFC 3339 in UTC whatever the server's zone. The statement
    // limit is a session setting, explicit even when 0, so a server-wide default cannot cut a job short.
    options: `-c TimeZone=UTC -c statement_timeout=${t.statementMs}`,
  };
}

/** Before the first query: this process runs jobs, whose connections get the job limits. */
export function setDbRole(role: DbRole): void {
  if (slot.__pokedb && (slot.__pokerole ?? "app") !== role) throw new Error("setDbRole after the database was opened");
  slot.__pokerole = role;
}

/**
 * Job work inside an app process (the first start's demo prices, the identification index):
 * the queries `fn` makes run on a pool of their own with the job limits.
 */
export function asJob<T>(fn: () => Promise<T>): Promise<T> {
  // A job process has the job limits everywhere. Entering the scope there would switch on
  // Node 20's promise hooks for the whole run, a cost on every await of a feed file's lines.
  if ((slot.__pokerole ?? "app") === "job") return fn();
  return jobScope.run(true, fn);
}

async function openPostgres(url: string, role: DbRole): Promise<Handle> {
  const { Pool } = (await import("pg")).default;
  const { drizzle } = await import("drizzle-orm/node-postgres");
  const pool = new Pool(poolConfig(url, role));
  // An idle connection the server ends (a restart, a dropped database) is an event, not a
  // crash: the pool replaces it, and the next query reports any real problem.
  pool.on("error", (err) => console.error("[db] idle connection lost:", err.message));
  // A checked-out client (a transaction between statements) reports the loss on itself, where
  // an unheard 'error' event would end the process. Its query in flight, or its next one,
  // rejects with the error, and the pool drops the client when it is released.
  pool.on("connect", (client) => client.on("error", (err) => console.error("[db] connection lost:", err.message)));
  const db = drizzle(pool, { schema }) as unknown as Db;
  return { db, kind: "postgres", pool, close: () => pool.end() };
}

async function openPglite(dir: string): Promise<Handle> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { mkdirSync } = await import("node:fs");
  mkdirSync(path.dirname(path.resolve(dir)), { recursive: true });
  const client = await PGlite.create(path.resolve(dir));
  await client.exec("SET TimeZone = 'UTC'");
  handBackAfterEachStatement(client);
  const db = drizzle(client, { schema }) as unknown as Db;
  return { db, kind: "pglite", close: () => client.close() };
}

type Queryable = { query: (...args: never[]) => Promise<unknown> };

/**
 * PGlite runs its statements in this thread and resolves them without real I/O: a job awaiting
 * one statement after another would chain promises for minutes while timers and sockets wait
 * (the server stopped answering during the first start's demo prices). Each statement, inside a
 * transaction too, hands the event loop a turn before its caller goes on (lib/jobs/pace.ts).
 */
function handBackAfterEachStatement(client: Queryable & { transaction: (fn: (tx: Queryable) => Promise<unknown>) => Promise<unknown> }): void {
  const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
  const wrap = (target: Queryable) => {
    const query = target.query.bind(target);
    target.query = (async (...args: never[]) => {
      try {
        return await query(...args);
      } finally {
        await turn();
      }
    }) as Queryable["query"];
  };
  wrap(client);
  const transaction = client.transaction.bind(client);
  client.transaction = (fn) => transaction((tx) => {
    wrap(tx);
    return fn(tx);
  });
}

async function open(): Promise<Handle> {
  const { DATABASE_URL, PGLITE_DIR } = env();
  const { migratePostgres, migratePglite } = await import("./migrate");
  if (DATABASE_URL) {
    await migratePostgres(DATABASE_URL);
    return openPostgres(DATABASE_URL, slot.__pokerole ?? "app");
  }
  const handle = await openPglite(PGLITE_DIR);
  await migratePglite(handle.db);
  return handle;
}

/** The job pool of an app process; PGlite has one connection and no limits, so it is the main handle. */
async function openJobPool(): Promise<Handle> {
  const main = await mainHandle();
  const url = env().DATABASE_URL;
  return main.kind === "postgres" && url ? openPostgres(url, "job") : main;
}

function mainHandle(): Promise<Handle> {
  if (!slot.__pokedb) {
    slot.__pokedb = open().catch((err) => {
      slot.__pokedb = undefined;
      throw err;
    });
  }
  return slot.__pokedb;
}

function handle(): Promise<Handle> {
  if (!jobScope.get() || (slot.__pokerole ?? "app") === "job") return mainHandle();
  if (!slot.__pokejobdb) {
    slot.__pokejobdb = openJobPool().catch((err) => {
      slot.__pokejobdb = undefined;
      throw err;
    });
  }
  return slot.__pokejobdb;
}

/**
 * Runs `fn` holding a session advisory lock: across processes on PostgreSQL, on a connection of
 * its own (a holder that dies frees the lock with its connection), and within this process,
 * where PGlite's single session would otherwise grant it to everyone. A caller that finds the
 * lock held waits for it, after `onWait` has said so.
 */
export async function withAdvisoryLock<T>(key: number, fn: () => Promise<T>, onWait: () => void = () => {}): Promise<T> {
  const held = (slot.__pokelocks ??= new Map());
  const before = held.get(key);
  let release!: () => void;
  const mine = new Promise<void>((r) => (release = r));
  // Queued synchronously: two calls made together are ordered before either awaits.
  const tail = before ? before.then(() => mine) : mine;
  held.set(key, tail);
  try {
    if (before) {
      onWait();
      await before;
    }
    return await withServerLock(key, fn, before ? () => {} : onWait);
  } finally {
    release();
    if (held.get(key) === tail) held.delete(key);
  }
}

async function withServerLock<T>(key: number, fn: () => Promise<T>, onWait: () => void): Promise<T> {
  const url = env().DATABASE_URL;
  if (!url || (await mainHandle()).kind !== "postgres") return fn();
  const { Client } = (await import("pg")).default;
  // Not from the pool: the lock outlives any one query, and no query may cut the wait short.
  const client = new Client({ connectionString: url, connectionTimeoutMillis: dbTimeouts("job").connectMs, options: "-c statement_timeout=0" });
  client.on("error", (err) => console.error(`[db] advisory lock ${key}: connection lost:`, err.message));
  await client.connect();
  try {
    const [got] = (await client.query<{ ok: boolean }>("select pg_try_advisory_lock($1) as ok", [key])).rows;
    if (!got?.ok) {
      onWait();
      await client.query("select pg_advisory_lock($1)", [key]);
    }
    return await fn();
  } finally {
    await client.query("select pg_advisory_unlock($1)", [key]).catch(() => undefined);
    await client.end().catch(() => undefined);
  }
}

export async function getDb(): Promise<Db> {
  return (await handle()).db;
}

export async function dbKind(): Promise<Handle["kind"]> {
  return (await handle()).kind;
}

export async function closeDb(): Promise<void> {
  const [main, job] = [slot.__pokedb, slot.__pokejobdb];
  slot.__pokedb = undefined;
  slot.__pokejobdb = undefined;
  const jobHandle = job ? await job.catch(() => undefined) : undefined;
  // A handle whose opening failed (its database dropped meanwhile) has nothing to close.
  const mainH = main ? await main.catch(() => undefined) : undefined;
  if (jobHandle && jobHandle !== mainH) await jobHandle.close();
  if (mainH) await mainH.close();
}

const dialect = new PgDialect();

// Dates and timestamps stay PostgreSQL's text, as drizzle's own execute hands them back:
// a JS Date would round microseconds away and shift plain dates by the local zone.
const RAW_TYPES = new Set([1082, 1083, 1114, 1184, 1186, 1266, 1115, 1182, 1185, 1187, 1231]);
let pgTypes: { getTypeParser: (oid: number, format?: string) => unknown } | undefined;
async function rawTypes() {
  if (!pgTypes) {
    const { types } = (await import("pg")).default;
    pgTypes = {
      getTypeParser: (oid: number, format?: string) =>
        RAW_TYPES.has(oid) ? (v: string) => v : types.getTypeParser(oid, format as "text"),
    };
  }
  return pgTypes;
}

// Named statements are planned once per connection instead of on every request. Their
// number is capped per process, since every name lives on every pooled connection.
const MAX_PREPARED = 256;
const preparedNames = new Set<string>();

/**
 * Runs raw SQL built with drizzle's sql`` template and returns plain rows. With `prepare`,
 * PostgreSQL keeps the statement's plan; use it for the hot, fixed-shape queries.
 */
export async function rows<T = Record<string, unknown>>(query: SQL, db?: Db, opts: { prepare?: boolean } = {}): Promise<T[]> {
  const h = db ? undefined : await handle();
  if (opts.prepare && h?.pool) {
    const { sql: text, params } = dialect.sqlToQuery(query);
    const name = `q_${createHash("sha1").update(text).digest("base64url").slice(0, 20)}`;
    if (preparedNames.has(name) || preparedNames.size < MAX_PREPARED) {
      preparedNames.add(name);
      const result = await h.pool.query({ name, text, values: params as unknown[], types: (await rawTypes()) as never });
      return result.rows as T[];
    }
  }
  const d = db ?? h!.db;
  const result = (await d.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/** Postgres renders timestamptz as `2026-11-22 03:00:00.123456+00`; the API speaks RFC 3339. */
export function isoTimestamp(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  const s = String(value);
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(\.\d+)?([+-]\d{2})(?::?(\d{2}))?$/.exec(s);
  if (!m) return new Date(s).toISOString();
  const frac = m[3] ? m[3].slice(0, 4).padEnd(4, "0") : ".000";
  const offset = m[4] === "+00" && !m[5] ? "Z" : `${m[4]}:${m[5] ?? "00"}`;
  return new Date(`${m[1]}T${m[2]}${frac}${offset}`).toISOString();
}
