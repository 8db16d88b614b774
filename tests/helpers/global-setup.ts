import path from "node:path";
import { CATALOG_DB, ensureDatabase } from "./db";

// Imports the full real catalogue into the shared test database once per run. The import is
// idempotent: on a database that already holds it, it only reads and compares (a few seconds).
export default async function setup(): Promise<void> {
  const url = await ensureDatabase(CATALOG_DB);
  process.env.DATABASE_URL = url;
  const { refreshCatalog } = await import("@/lib/catalog/import");
  const { closeDb } = await import("@/lib/db/client");
  const source = path.resolve(process.env.CATALOG_DIR ?? "../shared/data/catalog");
  const res = await refreshCatalog(source);
  await closeDb();
  if (!res.ok) throw new Error(`catalogue import for the tests failed: ${res.error}`);
}
