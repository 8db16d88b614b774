import path from "node:path";
import { env } from "@/lib/env";
import { refreshPrices } from "@/lib/prices/refresh";
import { progress } from "./progress";

export async function run(args: Map<string, string>): Promise<number> {
  const dir = path.resolve(args.get("source") ?? env().PRICE_FEEDS_DIR);
  const p = progress("refresh-prices");
  p.note(`feeds ${dir}`);
  const r = await refreshPrices(dir, p, { force: args.has("force") });
  for (const f of r.files.filter((x) => !x.skipped)) {
    p.note(`${f.file}: ${f.applied} lines applied, ${f.rejected} rejected${f.errors.length ? `\n    ${f.errors.join("\n    ")}` : ""}`);
  }
  const skipped = r.files.filter((x) => x.skipped).length;
  p.done(`ok: ${r.observations} observations in ${r.series} series; ${r.products_changed} products changed; ${skipped} files applied before`);
  return 0;
}
