import { slugify } from "@/lib/util/text";
import type { Upstream, UpstreamSet } from "./upstream";

// Series are the 17 labels the Pokémon TCG API gives its sets (Base, Gym, Neo, E-Card, EX,
// NP, POP, Diamond & Pearl, Platinum, HeartGold & SoulSilver, Black & White, XY, Sun & Moon,
// Sword & Shield, Scarlet & Violet, Mega Evolution, Other). Sets that label does not cover
// join one by era:
//  - Asian sets by their Japanese block, which maps onto the Western era it printed in
//    (Japanese blocks start months earlier, so a release date would place them wrongly);
//  - other international sets by the era running at their release date, except the
//    McDonald's and miscellaneous collections, which are Other as the labelled ones are.
// The upstream's finer series (tcgdex, 38 including Asian blocks) stay on each set as `block`.

const ASIAN_BLOCK_ERA: Record<string, string> = {
  PMCG: "Base", neo: "Neo", VS: "Other", web: "Other", e: "E-Card", ADV: "EX", PCG: "EX", DP: "Diamond & Pearl",
  DPt: "Platinum", L: "HeartGold & SoulSilver", BW: "Black & White", XY: "XY", XYb: "XY", SM: "Sun & Moon",
  S: "Sword & Shield", SV: "Scarlet & Violet", M: "Mega Evolution", misc: "Other",
};
const OTHER_BLOCKS = new Set(["mc", "misc"]);
const NOT_ERAS = new Set(["Other", "NP", "POP"]);

export type SeriesLabel = { id: string; name: string };

/** The series label of every set, by set id. */
export function seriesLabels(up: Pick<Upstream, "sets">): Map<string, SeriesLabel> {
  // An era begins with the first set that the labelled data files under it.
  const eraStart = new Map<string, string>();
  for (const s of up.sets) {
    if (!s.series || NOT_ERAS.has(s.series) || !s.release_date) continue;
    const cur = eraStart.get(s.series);
    if (!cur || s.release_date < cur) eraStart.set(s.series, s.release_date);
  }
  const eras = [...eraStart].sort((a, b) => a[1].localeCompare(b[1]));
  const eraAt = (date: string | undefined) => {
    let name = "Other";
    for (const [era, start] of eras) if (date && start <= date) name = era;
    return name;
  };
  const label = (s: UpstreamSet): string => {
    if (s.series) return s.series;
    const block = s.tcgdex_series_id ?? s.series_id.replace(/^asia-/, "");
    if (s.region === "asia") return ASIAN_BLOCK_ERA[block] ?? eraAt(s.release_date);
    if (OTHER_BLOCKS.has(block)) return "Other";
    return eraAt(s.release_date);
  };
  return new Map(up.sets.map((s) => {
    const name = label(s);
    return [s.id, { id: slugify(name), name }];
  }));
}
