import path from "node:path";
import { CATALOG_DB, ensureDatabase } from "./db";
import { TEST_VISION_DIR } from "./paths";

// Imports the full real catalogue into the shared test database once per run. The import is
// idempotent: on a database that already holds it, it only reads and compares (a few seconds).
// Then the identification index of that catalogue: about a minute the first time, then
// incremental (every descriptor kept) on later runs.
export default async function setup(): Promise<void> {
  const url = await ensureDatabase(CATALOG_DB);
  process.env.DATABASE_URL = url;
  process.env.VISION_INDEX_DIR = TEST_VISION_DIR;
  const { refreshCatalog } = await import("@/lib/catalog/import");
  const { closeDb } = await import("@/lib/db/client");
  const source = path.resolve(process.env.CATALOG_DIR ?? "../shared/data/catalog");
  const res = await refreshCatalog(source);
  if (!res.ok) {
    await closeDb();
    throw new Error(`catalogue import for the tests failed: ${res.error}`);
  }
  const { buildVisionIndex } = await import("@/lib/vision/index-build");
  const { progress } = await import("@/lib/jobs/progress");
  await buildVisionIndex(progress("vision-index", { quiet: true }));
  await closeDb();
}
