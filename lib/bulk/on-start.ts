import { everSucceeded } from "@/lib/catalog/queries/jobs";
import { onFirstStart } from "@/lib/env";
import { progress } from "@/lib/jobs/progress";
import { buildBulk } from "./build";
import { BULK_TYPES } from "./export";
import { bulkFiles } from "./service";

// The embedded default's first start: after the demo prices (so that the prices file holds
// them), the bulk files are built once, and GET /v1/bulk lists them instead of nothing until
// someone runs the build-bulk job. Only the types never built (a first start stopped halfway
// builds the rest on the next): a deployment's daily job keeps them current. BULK_ON_START=0
// turns it off; BULK_ON_START=1 turns it on for PostgreSQL.

export async function bulkOnFirstStart(): Promise<void> {
  if (!onFirstStart("BULK_ON_START")) return;
  if (!(await everSucceeded("refresh-catalog"))) return;
  const built = new Set((await bulkFiles()).map((f) => f.type));
  const missing = BULK_TYPES.filter((t) => !built.has(t));
  if (!missing.length) return;
  const started = Date.now();
  const files = await buildBulk(progress("build-bulk", { quiet: true }), missing);
  const summary = files.map((f) => `${f.type} ${f.rows.toLocaleString("en")} rows`).join(", ");
  console.log(`[build-bulk] first start: ${summary} in ${((Date.now() - started) / 1000).toFixed(0)} s (GET /v1/bulk)`);
}
