import { buildVisionIndex } from "@/lib/vision/index-build";
import { progress } from "./progress";

// vision-index [--full]: builds the photo identification index from the stored and rendered
// faces. Incremental unless --full: unchanged cards keep their descriptors.
export async function run(args: Map<string, string>): Promise<number> {
  const p = progress("vision-index");
  const r = await buildVisionIndex(p, { full: args.has("full") });
  p.done(`ok: ${r.cards} cards (${r.described} described, ${r.kept} kept, ${r.real} from real images, ${r.failed} unreadable) in ${r.seconds.toFixed(1)} s, ${(r.bytes / 1e6).toFixed(1)} MB on disk`);
  return 0;
}
