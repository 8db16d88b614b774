import { describe, expect, it } from "vitest";
import { cardSeries, feedLine, sealedSeries, type Def } from "@/lib/prices/demo";
import { rng, type DemoCard } from "@/lib/prices/demo-model";
import { ADAPTERS } from "@/lib/prices/feed";

// The demo market stores a year of each series' history, then sends today's figure as its
// provider's feed line. Read back through the feed adapters, that line must land in the same
// series (its locale, condition and printing), or today begins a second series beside the
// year's: every sealed product had two of each source, one of them stopped a day ago.

type Observation = { variant: string; locale: string | null; condition: string | null; printing: string | null; grading: { score: string } | null };

function readBack(kind: string, d: Def): Observation | undefined {
  const line = feedLine({ kind, id: kind === "card" ? "base1-4" : "some-booster-box", r: rng("t") }, d, 12.5, "2026-11-27");
  if (!line) return undefined;
  const adapter = ADAPTERS[d.source as keyof typeof ADAPTERS];
  const obs = adapter.toObservations(adapter.line.parse(line)) as Observation[];
  return obs.find((o) => o.variant === d.variant && (o.grading?.score ?? null) === (d.grade?.split(" ")[1] ?? null));
}

const CARDS: DemoCard[] = [
  { id: "base1-4", rarity: "Rare Holo", printRegion: "WEST", releaseDate: "1999-01-09", variants: { holo: true, first_edition: true } },
  { id: "sv3pt5-6", rarity: "Double Rare", printRegion: "WEST", releaseDate: "2023-09-22", variants: { normal: true, reverse: true } },
  { id: "tcgdex-asia-SV2a-006", rarity: "RR", printRegion: "JP", releaseDate: "2023-06-16", variants: null },
  { id: "tcgdex-x-1", rarity: null, printRegion: null, releaseDate: null, variants: null },
];

describe("the demo market's feed lines", () => {
  const cases: [string, Def][] = [
    ...sealedSeries().map((d) => ["sealed", d] as [string, Def]),
    ...CARDS.flatMap((c) => [0, 1, 2, 3].flatMap((seed) => cardSeries(c, rng(`${c.id}:${seed}`)).map((d) => ["card", d] as [string, Def]))),
  ];

  it("covers sealed products and every provider", () => {
    expect(new Set(cases.map(([, d]) => d.source))).toEqual(new Set(["CARDMARKET", "TCGPLAYER", "EBAY", "PRICECHARTING", "SNKRDUNK", "COMMUNITY"]));
  });

  it.each(cases.map(([kind, d]) => [`${kind} ${d.source} ${d.variant} ${d.locale} ${d.printing} ${d.grade ?? ""}`, kind, d] as const))("%s reads back into its own series", (_name, kind, d) => {
    const o = readBack(kind, d);
    if (d.source === "SNKRDUNK" && d.variant === "LOW") return expect(o).toBeUndefined();
    expect(o, "no observation of the series' variant").toBeDefined();
    expect({ locale: o!.locale, condition: o!.condition, printing: o!.printing }).toEqual({ locale: d.locale, condition: d.condition, printing: d.printing });
  });
});

describe("the demo market's rows", () => {
  it("hold one series per source, variant, printing and grade on each product (SPEC.md current prices rule 1)", () => {
    const products: Def[][] = [sealedSeries()];
    for (const c of CARDS) for (let seed = 0; seed < 200; seed++) products.push(cardSeries(c, rng(`${c.id}:${seed}`)));
    for (const defs of products) {
      const keys = defs.map((d) => `${d.source}|${d.variant}|${d.printing ?? ""}|${d.grade ?? ""}`);
      expect(new Set(keys).size, keys.join(" ")).toBe(keys.length);
    }
  });
});
