import pg from "pg";

// Test databases live next to the developer's own on the same PostgreSQL server.
export const PG_ADMIN_URL = process.env.TEST_PG_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

export function dbUrl(name: string): string {
  const u = new URL(PG_ADMIN_URL);
  u.pathname = `/${name}`;
  return u.toString();
}

/** Creates (or with fresh: true, recreates) a database and returns its URL. */
export async function ensureDatabase(name: string, opts: { fresh?: boolean } = {}): Promise<string> {
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query("set client_min_messages = warning");
    if (opts.fresh) await admin.query(`drop database if exists "${name}" with (force)`);
    const exists = await admin.query("select 1 from pg_database where datname = $1", [name]);
    if (!exists.rowCount) await admin.query(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  return dbUrl(name);
}

/** The shared catalogue database of the integration run (full catalogue imported once). */
export const CATALOG_DB = process.env.TEST_CATALOG_DB ?? "pokeprice_test";

/** One SQL query against a test database (the shared catalogue by default), for checking answers against the data. */
export async function query<T = Record<string, unknown>>(text: string, params: unknown[] = [], database = CATALOG_DB): Promise<T[]> {
  const client = new pg.Client({ connectionString: dbUrl(database) });
  await client.connect();
  try {
    return (await client.query(text, params)).rows as T[];
  } finally {
    await client.end();
  }
}

/** The single row a query must return. */
export async function queryOne<T = Record<string, unknown>>(text: string, params: unknown[] = [], database = CATALOG_DB): Promise<T> {
  const [row] = await query<T>(text, params, database);
  if (!row) throw new Error(`no row: ${text}`);
  return row;
}

/** The `n` of a `select count(*) as n …`. */
export async function count(text: string, params: unknown[] = [], database = CATALOG_DB): Promise<number> {
  return Number((await queryOne<{ n: number }>(text, params, database)).n);
}
