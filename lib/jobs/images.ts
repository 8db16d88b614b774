import path from "node:path";
import { refreshImages } from "@/lib/images/jobs";
import { progress } from "./progress";

// images [--source DIR] [--limit N]: downloads card images into storage, or loads a folder of
// scans named by card id. Failed downloads are reported and retried by a later run.
export async function run(args: Map<string, string>): Promise<number> {
  const p = progress("images");
  const source = args.get("source");
  const r = await refreshImages(p, { source: source ? path.resolve(source) : undefined, limit: args.has("limit") ? Number(args.get("limit")) : undefined });
  for (const e of r.errors) p.note(`failed ${e}`);
  p.done(`ok: ${r.stored} cards stored, ${r.failed} failed (retried by a later run) in ${r.seconds.toFixed(1)} s`);
  return 0;
}
