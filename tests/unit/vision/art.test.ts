import { describe, expect, it } from "vitest";
import { printings, sharedArtStats, type ArtSource } from "@/lib/vision/art";

// The shared-artwork rule (lib/vision/art.ts) on hand-made catalogue rows.

const card = (o: Partial<ArtSource> & { id: string }): ArtSource => ({
  set_id: o.id.replace(/-[^-]+$/, ""), number: o.id.replace(/^.*-/, ""), name: "Charizard", names: { en: "Charizard" }, artist: "Mitsuhiro Arita",
  dex: [6], supertype: "Pokémon", release_date: "1999-01-09", block: "base", print_region: "WEST", languages: ["en"], printed_total: 102, code: "BS", ...o,
});

describe("printings: which cards share an illustration", () => {
  it("a reprint, and the Japanese card of the same era by the same artist, share the art; the text differs", () => {
    const p = printings([
      card({ id: "base1-4" }),
      card({ id: "base4-4", printed_total: 130, code: "B2" }),
      card({ id: "jp1-006", name: "リザードン", names: { ja: "リザードン" }, block: "asia-PMCG", print_region: "JP", languages: ["ja"], printed_total: null, code: "PMCG1", release_date: "1996-10-20" }),
    ]);
    const [a, b, c] = [p.get("base1-4")!, p.get("base4-4")!, p.get("jp1-006")!];
    expect(a.art).toBe(b.art);
    expect(a.art).toBe(c.art);
    expect([a.code, b.code, c.code]).toEqual(["BS", "B2", "PMCG1"]);
    expect([a.total, b.total, c.total]).toEqual([102, 130, null]);
    expect([a.lang, c.lang]).toEqual(["EN", "JA"]);
    expect(sharedArtStats(p)).toEqual({ groups: 1, cards: 3, largest: 3 });
  });

  it("another era, another artist, another mechanic or form, or no artist: art of its own", () => {
    const p = printings([
      card({ id: "base1-4" }),
      card({ id: "hgss1-4", block: "hgss", release_date: "2010-02-10" }),
      card({ id: "base2-4", artist: "Ken Sugimori" }),
      card({ id: "base3-4", name: "Charizard ex", names: { en: "Charizard ex" } }),
      card({ id: "base5-4", name: "Dark Charizard", names: { en: "Dark Charizard" } }),
      card({ id: "base6-4", artist: null }),
    ]);
    expect(new Set([...p.values()].map((v) => v.art)).size).toBe(6);
    expect(sharedArtStats(p).groups).toBe(0);
  });

  it("one set never prints one illustration twice: several cards of a key pair with another set's by their order", () => {
    const p = printings([
      card({ id: "en-6", name: "Charizard ex", names: { en: "Charizard ex" }, block: "sv", release_date: "2023-09-22" }),
      card({ id: "en-183", name: "Charizard ex", names: { en: "Charizard ex" }, block: "sv", release_date: "2023-09-22" }),
      card({ id: "jp-006", name: "リザードンex", names: { ja: "リザードンex" }, block: "asia-SV", print_region: "JP", languages: ["ja"], release_date: "2023-06-16" }),
      card({ id: "jp-185", name: "リザードンex", names: { ja: "リザードンex" }, block: "asia-SV", print_region: "JP", languages: ["ja"], release_date: "2023-06-16" }),
    ]);
    expect(p.get("en-6")!.art).toBe(p.get("jp-006")!.art);
    expect(p.get("en-183")!.art).toBe(p.get("jp-185")!.art);
    expect(p.get("en-6")!.art).not.toBe(p.get("en-183")!.art);
  });

  it("Trainers share art by their English name", () => {
    const t = { supertype: "Trainer", dex: [], artist: "Keiji Kinebuchi", block: "ex", release_date: "2003-06-18" };
    const p = printings([
      card({ id: "ex1-91", name: "Potion", names: { en: "Potion", fr: "Potion" }, ...t }),
      card({ id: "ex6-101", name: "Potion", names: { en: "Potion" }, ...t }),
      card({ id: "ex6-102", name: "Switch", names: { en: "Switch" }, ...t }),
    ]);
    expect(p.get("ex1-91")!.art).toBe(p.get("ex6-101")!.art);
    expect(p.get("ex6-102")!.art).not.toBe(p.get("ex1-91")!.art);
  });
});
