import { buildBulk } from "@/lib/bulk/build";
import { BULK_TYPES, type BulkType } from "@/lib/bulk/export";
import { progress } from "./progress";

// build-bulk [--types cards,prices]: the daily files, to STORAGE_DIR or S3.
export async function run(args: Map<string, string>): Promise<number> {
  const types = (args.get("types")?.split(",") ?? [...BULK_TYPES]) as BulkType[];
  const bad = types.find((t) => !(BULK_TYPES as readonly string[]).includes(t));
  if (bad) {
    console.error(`unknown type ${bad}; types: ${BULK_TYPES.join(", ")}`);
    return 2;
  }
  const p = progress("build-bulk");
  const files = await buildBulk(p, types);
  p.done(files.map((f) => `${f.name}: ${f.rows} rows, ${(f.size / 1e6).toFixed(1)} MB`).join("; "));
  return 0;
}
