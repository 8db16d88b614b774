import { dbTimeouts, migrationsFolder } from "./client";
import type { Db } from "./client";

// Several app instances may start together against one PostgreSQL: a session advisory
// lock, held on one dedicated connection, lets exactly one apply the migrations.
const LOCK_KEY = 7_402_113;

export async function migratePostgres(url: string): Promise<void> {
  const { Client } = (await import("pg")).default;
  const { drizzle } = await import("drizzle-orm/node-postgres");
  const { migrate } = await import("drizzle-orm/node-postgres/migrator");
  const client = new Client({ connectionString: url, connectionTimeoutMillis: dbTimeouts("app").connectMs });
  // A connection the server ends between statements (a dropped database, a restart) is reported
  // on the client; unheard, it would end the process. The next statement fails with it instead.
  client.on("error", (err) => console.error("[db] migration connection lost:", err.message));
  await client.connect();
  try {
    // Notices about existing schemas and tables are expected on every start.
    await client.query("set client_min_messages = warning");
    await client.query("select pg_advisory_lock($1)", [LOCK_KEY]);
    await migrate(drizzle(client), { migrationsFolder: migrationsFolder() });
  } finally {
    await client.query("select pg_advisory_unlock($1)", [LOCK_KEY]).catch(() => undefined);
    await client.end();
  }
}

export async function migratePglite(db: Db): Promise<void> {
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  await migrate(db as never, { migrationsFolder: migrationsFolder() });
}
