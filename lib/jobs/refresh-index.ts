import { refreshIndex } from "@/lib/prices/refresh-index";
import { progress } from "./progress";

export async function run(): Promise<number> {
  const p = progress("refresh-index");
  const r = await refreshIndex(p);
  p.done(`ok: ${r.products} products read, ${r.indexed} indexed, ${r.changed} changed, ${r.missing_rates} figures without an exchange rate, in ${r.seconds.toFixed(1)} s`);
  return 0;
}
