// `npx tsx bench/eval-centering.ts [--level easy|medium|hard|all] [--cells N] [--old N] [--seeds S] [--verbose]`:
// centering alone (no database, no index), on the independent generator and, with --old N, on
// synth.ts's photos too. eval:vision prints the same figures after identification.
import { CENTERING_LEVELS, evalCentering, evalCenteringPhotos, formatPhotoReport } from "@/lib/vision/eval-centering";

const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1]! : dflt;
};

async function main() {
  const level = arg("level", "all");
  const cells = Number(arg("cells", "2"));
  const old = Number(arg("old", "0"));
  const seeds = arg("seeds", "eval");
  const verbose = process.argv.includes("--verbose");
  if (old > 0) {
    const c = await evalCentering(old, seeds === "eval" ? "eval-centering" : seeds, verbose ? (s) => console.log(`    ${s}`) : undefined);
    for (const [k, t] of Object.entries({ scans: c.scans, photos: c.photos })) {
      console.log(`old generator ${k}: p50 ${t.all.p50} p90 ${t.all.p90} max ${t.all.max} within1 ${t.all.within1} % flips ${t.all.flips} refused ${t.refused}`);
    }
  }
  for (const l of CENTERING_LEVELS) {
    if (level !== "all" && level !== l) continue;
    const rep = await evalCenteringPhotos(l, cells, seeds, verbose ? (s) => console.log(`    ${s}`) : undefined);
    for (const line of formatPhotoReport(rep)) console.log(line);
  }
}

main().then(() => process.exit(0), (err) => {
  console.error(err);
  process.exit(1);
});
