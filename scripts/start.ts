import path from "node:path";
import { sql } from "drizzle-orm";
import { buildIfStale } from "./build-if-stale";
import { runServer } from "./serve";

// `npm start`: the zero-setup path. Builds when the sources are newer than the build,
// imports the real catalogue on the first start (later starts reuse the data folder), then
// runs the app's server (server/app.ts compiled to dist/app.mjs: /v1 through the API's
// dispatcher, pages through Next).
// Without DATABASE_URL everything runs on embedded PGlite.

const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };

async function importOnFirstStart(): Promise<void> {
  const { getDb, closeDb, rows, dbKind } = await import("@/lib/db/client");
  const { env: appEnv } = await import("@/lib/env");
  await getDb();
  const kind = await dbKind();
  console.log(kind === "pglite"
    ? `[start] embedded PGlite database in ${path.resolve(appEnv().PGLITE_DIR)}`
    : "[start] PostgreSQL from DATABASE_URL");
  const [done] = await rows<{ ok: boolean }>(sql`select exists (select 1 from job_runs where job = 'refresh-catalog' and last_success_at is not null) as ok`);
  if (!done?.ok) {
    const { refreshCatalog } = await import("@/lib/catalog/import");
    const { progress } = await import("@/lib/jobs/progress");
    const source = path.resolve(appEnv().CATALOG_DIR);
    console.log(`[start] first start: importing the catalogue from ${source}`);
    const res = await refreshCatalog(source, progress("refresh-catalog"));
    if (!res.ok) {
      console.error(`[start] import failed: ${res.error}`);
      process.exit(1);
    }
    console.log(`[start] catalogue imported in ${res.seconds.toFixed(1)} s`);
  }
  // The embedded database admits one process at a time: release it for the server.
  await closeDb();
}

async function main(): Promise<void> {
  buildIfStale(env);
  await importOnFirstStart();
  runServer(env);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
