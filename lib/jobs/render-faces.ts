import { renderFaces } from "@/lib/images/jobs";
import { progress } from "./progress";

// render-faces [--limit N]: a synthetic face for every card without an image of its own.
export async function run(args: Map<string, string>): Promise<number> {
  const p = progress("render-faces");
  const r = await renderFaces(p, { limit: args.has("limit") ? Number(args.get("limit")) : undefined });
  p.done(`ok: ${r.rendered} faces rendered in ${r.seconds.toFixed(1)} s (${r.rendered ? ((r.seconds * 1000) / r.rendered).toFixed(0) : 0} ms each)`);
  return 0;
}
