import { PgDialect, type PgDatabase, type PgQueryResultHKT } from "drizzle-orm/pg-core";
import type { SQL } from "drizzle-orm";
import { createHash } from "node:crypto";
import path from "node:path";
import type { Pool } from "pg";
import { env } from "@/lib/env";
import * as schema from "./schema";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

type Handle = { db: Db; kind: "postgres" | "pglite"; pool?: Pool; close: () => Promise<void> };

// One handle per process. Kept on globalThis so Next's dev reloads and test files share it.
const slot = globalThis as unknown as { __pokedb?: Promise<Handle> };

export function migrationsFolder(): string {
  return path.join(process.cwd(), "drizzle");
}

async function openPostgres(url: string): Promise<Handle> {
  const { Pool } = (await import("pg")).default;
  const { drizzle } = await import("drizzle-orm/node-postgres");
  const pool = new Pool({
    connectionString: url,
    max: Number(process.env.PG_POOL_MAX ?? 10),
    // Timestamps leave the database as RFC 3339 in UTC whatever the server's zone.
    options: "-c TimeZone=UTC",
  });
  // An idle connection the server ends (a restart, a dropped database) is an event, not a
  // crash: the pool replaces it, and the next query reports any real problem.
  pool.on("error", (err) => console.error("[db] idle connection lost:", err.message));
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
  const db = drizzle(client, { schema }) as unknown as Db;
  return { db, kind: "pglite", close: () => client.close() };
}

async function open(): Promise<Handle> {
  const { DATABASE_URL, PGLITE_DIR } = env();
  const { migratePostgres, migratePglite } = await import("./migrate");
  if (DATABASE_URL) {
    await migratePostgres(DATABASE_URL);
    return openPostgres(DATABASE_URL);
  }
  const handle = await openPglite(PGLITE_DIR);
  await migratePglite(handle.db);
  return handle;
}

function handle(): Promise<Handle> {
  if (!slot.__pokedb) {
    slot.__pokedb = open().catch((err) => {
      slot.__pokedb = undefined;
      throw err;
    });
  }
  return slot.__pokedb;
}

export async function getDb(): Promise<Db> {
  return (await handle()).db;
}

export async function dbKind(): Promise<Handle["kind"]> {
  return (await handle()).kind;
}

export async function closeDb(): Promise<void> {
  const h = slot.__pokedb;
  slot.__pokedb = undefined;
  if (h) await (await h).close();
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
