import path from "node:path";
import { env } from "@/lib/env";
import { refreshCatalog } from "@/lib/catalog/import";
import { progress } from "./progress";

// refresh-catalog [--source DIR] [--allow-shrink]: --allow-shrink applies an upstream that
// drops more than CATALOG_MAX_SHRINK of its cards, sets or sealed products (refused otherwise).
export async function run(args: Map<string, string>): Promise<number> {
  const source = path.resolve(args.get("source") ?? env().CATALOG_DIR);
  const p = progress("refresh-catalog");
  p.note(`source ${source}`);
  const res = await refreshCatalog(source, p, undefined, { allowShrink: args.has("allow-shrink") });
  if (!res.ok) {
    p.done(`FAILED: ${res.error}. The previous catalogue keeps serving.`);
    return 1;
  }
  for (const s of res.shrunk ?? []) p.note(`allowed: ${s.table} lost ${s.gone} of ${s.live} rows`);
  const parts = Object.entries(res.counts).map(
    ([t, c]) => `${t} +${c.created} ~${c.updated} -${c.deleted} =${c.unchanged}`,
  );
  p.done(`ok: ${parts.join(", ")}; images ${res.images}; change rows ${res.changes}`);
  return 0;
}
