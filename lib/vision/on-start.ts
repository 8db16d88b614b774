import { INDEX_VERSION, indexMtime, openIndex } from "./index-file";
import { visionIndex } from "./search";

// At server start: load the identification index, so the first photo does not wait for it,
// and build it in the background when there is none yet (the embedded default's first start,
// or a fresh deployment) — about a minute on two cores. VISION_INDEX_ON_START=0 leaves that to
// the vision-index job.

/** Whether the index file is missing or of an older layout (built before its faces changed). */
async function stale(): Promise<boolean> {
  if (!(await indexMtime())) return true;
  const idx = await openIndex().catch(() => null);
  await idx?.close();
  return !idx || idx.meta.version !== INDEX_VERSION;
}

export async function visionIndexOnStart(): Promise<void> {
  if (process.env.VISION_INDEX_ON_START !== "0" && (await stale())) {
    const { sql } = await import("drizzle-orm");
    const { rows } = await import("@/lib/db/client");
    const [state] = await rows<{ catalog: boolean }>(sql`select exists (select 1 from cards limit 1) as catalog`);
    if (!state?.catalog) return;
    const { buildVisionIndex } = await import("./index-build");
    const { progress } = await import("@/lib/jobs/progress");
    const { trackJob } = await import("@/lib/jobs/running");
    console.log("[vision-index] no identification index of this version yet: building it in the background");
    // Listed on /v1/status while it runs.
    const job = trackJob("vision-index");
    const r = await buildVisionIndex(progress("vision-index", { quiet: true }), { share: job.share }).finally(job.end);
    console.log(`[vision-index] ${r.cards} cards indexed in ${r.seconds.toFixed(0)} s`);
  }
  await visionIndex();
  // The printed line's glyph templates, drawn once ahead of the first photo.
  const { warmTemplates } = await import("./read");
  await warmTemplates();
}
