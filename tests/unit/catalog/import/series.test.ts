import { describe, expect, it } from "vitest";
import { seriesLabels } from "@/lib/catalog/import/series";
import type { UpstreamSet } from "@/lib/catalog/import/upstream";

const set = (s: Partial<UpstreamSet> & Pick<UpstreamSet, "id" | "series_id">): UpstreamSet => ({
  source: "tcgdex", region: "international", name: s.id, ...s,
});

describe("seriesLabels", () => {
  const sets = [
    set({ id: "sm1", series_id: "sm", series: "Sun & Moon", release_date: "2017-02-03" }),
    set({ id: "swsh1", series_id: "swsh", series: "Sword & Shield", release_date: "2020-02-07" }),
    set({ id: "cel25", series_id: "swsh", series: "Other", release_date: "2021-10-08" }),
    set({ id: "np", series_id: "pop", series: "NP", release_date: "2003-10-01" }),
    // Unlabelled international sets join the era running at their release date…
    set({ id: "tk-sm", series_id: "tk", release_date: "2017-04-21" }),
    set({ id: "tk-late", series_id: "tk", release_date: "2021-11-01" }),
    // …before the first era there is none: Other.
    set({ id: "early", series_id: "base", release_date: "1999-01-01" }),
    // McDonald's collections are Other whatever their date.
    set({ id: "mc2019", series_id: "mc", release_date: "2019-10-30" }),
    // Japanese blocks map onto the Western era they printed in, even before it began in the West.
    set({ id: "jp-s1", series_id: "asia-S", tcgdex_series_id: "S", region: "asia", release_date: "2019-12-06" }),
    set({ id: "jp-vs", series_id: "asia-VS", tcgdex_series_id: "VS", region: "asia", release_date: "2001-07-19" }),
  ];
  const labels = seriesLabels({ sets });

  it("keeps the upstream label of labelled sets", () => {
    expect(labels.get("sm1")).toEqual({ id: "sun-moon", name: "Sun & Moon" });
    expect(labels.get("cel25")).toEqual({ id: "other", name: "Other" });
    expect(labels.get("np")).toEqual({ id: "np", name: "NP" });
  });

  it("places unlabelled international sets in the era of their release date", () => {
    expect(labels.get("tk-sm")!.name).toBe("Sun & Moon");
    // Other, NP and POP are labels, not eras: a date after cel25 is still Sword & Shield.
    expect(labels.get("tk-late")!.name).toBe("Sword & Shield");
    expect(labels.get("early")!.name).toBe("Other");
    expect(labels.get("mc2019")!.name).toBe("Other");
  });

  it("maps Japanese blocks onto Western eras", () => {
    // Sword & Shield started in Japan two months before the West (2019-12 vs 2020-02).
    expect(labels.get("jp-s1")!.name).toBe("Sword & Shield");
    expect(labels.get("jp-vs")!.name).toBe("Other");
  });
});
