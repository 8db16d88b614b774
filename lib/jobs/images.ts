import path from "node:path";
import { refreshImages } from "@/lib/images/jobs";
import { buildVisionIndex } from "@/lib/vision/index-build";
import { progress } from "./progress";

// images [--source DIR] [--limit N]: downloads card images into storage, or loads a folder of
// scans named by card id. Failed downloads are reported and retried by a later run. New real
// images then replace the rendered faces in the identification index (only those cards are
// described again).
export async function run(args: Map<string, string>): Promise<number> {
  const p = progress("images");
  const source = args.get("source");
  const r = await refreshImages(p, { source: source ? path.resolve(source) : undefined, limit: args.has("limit") ? Number(args.get("limit")) : undefined });
  for (const e of r.errors) p.note(`failed ${e}`);
  p.done(`ok: ${r.stored} cards stored, ${r.failed} failed (retried by a later run) in ${r.seconds.toFixed(1)} s`);
  if (r.stored) {
    const v = await buildVisionIndex(progress("vision-index"));
    p.done(`identification index: ${v.described} cards described again, ${v.kept} kept, in ${v.seconds.toFixed(1)} s`);
  }
  return 0;
}
