import { readFileSync } from "node:fs";
import { parseEcbCsv, storeRates } from "@/lib/prices/fx";

// import-fx --file eurofxref-hist.csv: the ECB's euro reference rates.
export async function run(args: Map<string, string>): Promise<number> {
  const file = args.get("file");
  if (!file) {
    console.error("usage: npm run job -- import-fx --file eurofxref-hist.csv");
    return 2;
  }
  const { rates, errors } = parseEcbCsv(readFileSync(file, "utf8"));
  for (const e of errors.slice(0, 20)) console.error(`  ${e}`);
  if (!rates.length) {
    console.error("no rates in the file");
    return 1;
  }
  console.log(`[import-fx] ${await storeRates(rates)} rates stored, ${errors.length} bad cells skipped`);
  return 0;
}
