import path from "node:path";
import { env } from "@/lib/env";
import { refreshCatalog } from "@/lib/catalog/import";
import { progress } from "./progress";

export async function run(args: Map<string, string>): Promise<number> {
  const source = path.resolve(args.get("source") ?? env().CATALOG_DIR);
  const p = progress("refresh-catalog");
  p.note(`source ${source}`);
  const res = await refreshCatalog(source, p);
  if (!res.ok) {
    p.done(`FAILED: ${res.error}. The previous catalogue keeps serving.`);
    return 1;
  }
  const parts = Object.entries(res.counts).map(
    ([t, c]) => `${t} +${c.created} ~${c.updated} -${c.deleted} =${c.unchanged}`,
  );
  p.done(`ok: ${parts.join(", ")}; images ${res.images}; change rows ${res.changes}`);
  return 0;
}
