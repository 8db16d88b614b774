import { describe, expect, it } from "vitest";
import {
  altSetCode, artistSlug, contentHash, numberSort, printRegion, transform, type Catalog,
} from "@/lib/catalog/import/transform";
import type { Upstream, UpstreamCard, UpstreamSealed, UpstreamSet } from "@/lib/catalog/import/upstream";

describe("numberSort", () => {
  it.each([
    ["1", 1],
    ["1S", 1],
    ["TG05", 5],
    ["022", 22],
    ["SWSH001", 1],
    ["H10/H32", 10],
    ["105a", 105],
    ["0", 0],
    ["2147483647", 2147483647],
  ])("takes the numeric part of %s: %i", (n, expected) => {
    expect(numberSort(n)).toBe(expected);
  });

  it("is null without digits or beyond a PostgreSQL integer", () => {
    expect(numberSort("?")).toBeNull();
    expect(numberSort("A")).toBeNull();
    expect(numberSort("2147483648")).toBeNull();
    expect(numberSort("99999999999999999999")).toBeNull();
  });

  it("puts 1S next to 1 and 10 after 9", () => {
    const printed = ["10", "1S", "9", "1", "2"];
    const sorted = [...printed].sort((a, b) => numberSort(a)! - numberSort(b)! || a.localeCompare(b));
    expect(sorted).toEqual(["1", "1S", "2", "9", "10"]);
  });
});

describe("printRegion", () => {
  it("prints international sets in the West, whatever their languages", () => {
    expect(printRegion({ region: "international" })).toBe("WEST");
    expect(printRegion({ region: "international", names: { ja: "x" } })).toBe("WEST");
  });

  it("takes the first Asian language in the order Japanese, Chinese, Korean", () => {
    expect(printRegion({ region: "asia", names: { ja: "x" } })).toBe("JP");
    expect(printRegion({ region: "asia", names: { ko: "x", "zh-tw": "y", ja: "z" } })).toBe("JP");
    expect(printRegion({ region: "asia", names: { "zh-tw": "x" } })).toBe("CN");
    expect(printRegion({ region: "asia", card_languages: ["ko", "zh-cn"] })).toBe("CN");
    expect(printRegion({ region: "asia", names: { ko: "x" } })).toBe("KR");
    expect(printRegion({ region: "asia", names: { en: "x" }, card_languages: ["ja"] })).toBe("JP");
  });

  it("gives the Thai and Indonesian editions of Japanese sets JP: never a region outside the reference's four", () => {
    expect(printRegion({ region: "asia", names: { th: "x" } })).toBe("JP");
    expect(printRegion({ region: "asia", card_languages: ["id"] })).toBe("JP");
    expect(printRegion({ region: "asia" })).toBe("JP");
  });
});

describe("altSetCode", () => {
  it("is the tcgdex id, prefixed asia- for Asian sets", () => {
    expect(altSetCode({ region: "international", tcgdex_id: "sv03.5" })).toBe("sv03.5");
    expect(altSetCode({ region: "asia", tcgdex_id: "SV2a" })).toBe("asia-SV2a");
    expect(altSetCode({ region: "asia" })).toBeNull();
    expect(altSetCode({ region: "international" })).toBeNull();
  });
});

describe("contentHash", () => {
  it("ignores key order at every depth", () => {
    const a = { id: "x", names: { en: "A", fr: "B" }, attacks: [{ name: "Tackle", cost: ["C"] }] };
    const b = { attacks: [{ cost: ["C"], name: "Tackle" }], names: { fr: "B", en: "A" }, id: "x" };
    expect(contentHash(a)).toBe(contentHash(b));
  });

  it("ignores undefined fields but not nulls", () => {
    expect(contentHash({ a: 1, b: undefined })).toBe(contentHash({ a: 1 }));
    expect(contentHash({ a: 1, b: null })).not.toBe(contentHash({ a: 1 }));
  });

  it("changes with any value, with array order, and with types", () => {
    const base = contentHash({ a: 1, list: [1, 2] });
    expect(contentHash({ a: 2, list: [1, 2] })).not.toBe(base);
    expect(contentHash({ a: 1, list: [2, 1] })).not.toBe(base);
    expect(contentHash({ a: "1", list: [1, 2] })).not.toBe(base);
    expect(contentHash({ a: 1, list: [1, 2], c: 0 })).not.toBe(base);
  });

  it("does not confuse a key's content with the structure", () => {
    expect(contentHash({ "a,b": 1 })).not.toBe(contentHash({ a: undefined, b: 1 }));
    expect(contentHash({ a: "x", b: "y" })).not.toBe(contentHash({ a: 'x","b":"y' }));
  });
});

describe("artistSlug", () => {
  it("folds spellings of one name to one slug", () => {
    expect(artistSlug("Kouki Saitō")).toBe("kouki-saito");
    expect(artistSlug("Kouki  Saito")).toBe("kouki-saito");
    expect(artistSlug("5ban Graphics")).toBe("5ban-graphics");
  });

  it("gives names without Latin letters a stable hashed slug of their own", () => {
    const slug = artistSlug("杉森建");
    expect(slug).toMatch(/^artist-[0-9a-f]{8}$/);
    expect(artistSlug("杉森建")).toBe(slug);
    expect(artistSlug("有田満弘")).not.toBe(slug);
  });
});

// ── transform over a small hand-made upstream ───────────────────────────────

const set = (s: Partial<UpstreamSet> & Pick<UpstreamSet, "id" | "name" | "series_id">): UpstreamSet => ({
  source: "tcgdex", region: "international", ...s,
});
const card = (c: Partial<UpstreamCard> & Pick<UpstreamCard, "id" | "set_id" | "number" | "name">): UpstreamCard => ({
  source: "tcgdex", region: "international", series_id: "base", names: { en: c.name }, ...c,
});
const sealed = (p: Partial<UpstreamSealed> & Pick<UpstreamSealed, "id" | "name">): UpstreamSealed => ({
  product_type: "booster-box", ...p,
});

const UPSTREAM: Upstream = {
  series: [
    { id: "base", region: "international", name: "Base" },
    { id: "asia-SV", region: "asia", name: "スカーレット＆バイオレット", names: { ja: "スカーレット＆バイオレット" } },
    { id: "unused", region: "international", name: "Unused" },
  ],
  sets: [
    set({
      id: "base1", source: "pokemon-tcg-data+tcgdex", tcgdex_id: "base1", name: "Base", series_id: "base", series: "Base",
      printed_total: 102, total: 102, release_date: "1999-01-09", ptcgo_code: "bs",
      images: { logo: "https://img/base1/logo.png", symbol: "https://img/base1/symbol.png" },
    }),
    set({ id: "base2", tcgdex_id: "jungle", name: "Jungle", series_id: "base", series: "Base", printed_total: 64, release_date: "1999-06-16" }),
    // Its tcgdex id is another set's primary id (in another case): no alternate id.
    set({ id: "tcgdex-base2-reprint", tcgdex_id: "BASE2", name: "Jungle Reprint", series_id: "base" }),
    set({
      id: "tcgdex-asia-SV2a", region: "asia", tcgdex_id: "SV2a", name: "ポケモンカード151", names: { ja: "ポケモンカード151" },
      name_en_unofficial: "Pokémon Card 151", card_languages: ["ja"], series_id: "asia-SV", printed_total: 165,
      release_date: "2023-06-16",
    }),
    // Two Chinese sets that declare the same tcgdex id: neither gets it as an alternate id.
    set({ id: "tcgdex-asia-CS1a", region: "asia", tcgdex_id: "CS1", name: "朱", names: { "zh-tw": "朱" }, series_id: "asia-SV" }),
    set({ id: "tcgdex-asia-CS1b", region: "asia", tcgdex_id: "CS1", name: "紫", names: { "zh-cn": "紫" }, series_id: "asia-SV" }),
    set({ id: "tcgdex-asia-KR1", region: "asia", tcgdex_id: "KR1", name: "한국", names: { ko: "한국" }, series_id: "asia-SV" }),
    set({ id: "tcgdex-asia-TH1", region: "asia", name: "ไทย", names: { th: "ไทย" }, series_id: "asia-SV" }),
  ],
  cards: [
    card({
      id: "base1-4", source: "pokemon-tcg-data+tcgdex", set_id: "base1", number: "4", local_id: "4", name: "Charizard",
      names: { en: "Charizard", fr: "Dracaufeu", de: "Glurak" }, supertype: "Pokémon", subtypes: ["Stage 2"],
      hp: 120, types: ["Fire"], rarity: "Rare Holo", artist: "Mitsuhiro Arita", national_pokedex_numbers: [6],
      images: { small: "https://img/base1/4.png", large: "https://img/base1/4_hires.png" },
    }),
    card({
      id: "base1-58", set_id: "base1", number: "58", local_id: "58", name: "Pikachu", names: { en: "Pikachu", fr: "Pikachu" },
      rarity: "Common", artist: "Mitsuhiro Arita", types: ["Lightning"],
    }),
    card({
      id: "base2-60", set_id: "base2", number: "60", local_id: "60", name: "Pikachu", artist: "Kouki Saitō",
      release_date: "1999-06-16", printed_total: 64,
    }),
    card({ id: "tcgdex-base2-reprint-61", set_id: "tcgdex-base2-reprint", number: "61", local_id: "61", name: "Mew" }),
    card({
      id: "tcgdex-asia-SV2a-025", region: "asia", set_id: "tcgdex-asia-SV2a", series_id: "asia-SV", number: "025", local_id: "025",
      name: "ピカチュウ", names: { ja: "ピカチュウ" }, languages: ["ja"], artist: "Kouki Saito", rarity: "C",
    }),
    card({
      id: "tcgdex-asia-SV2a-201", region: "asia", set_id: "tcgdex-asia-SV2a", series_id: "asia-SV", number: "201", local_id: "201",
      name: "ピカチュウex", names: { ja: "ピカチュウex" }, artist: "Kouki Saitō",
    }),
    card({
      id: "tcgdex-asia-CS1a-001", region: "asia", set_id: "tcgdex-asia-CS1a", series_id: "asia-SV", number: "001", local_id: "001",
      name: "皮卡丘", names: { "zh-tw": "皮卡丘" },
    }),
    card({
      id: "tcgdex-asia-CS1b-001", region: "asia", set_id: "tcgdex-asia-CS1b", series_id: "asia-SV", number: "001", local_id: "001",
      name: "皮卡丘", names: { "zh-cn": "皮卡丘" },
    }),
    card({
      id: "tcgdex-asia-KR1-001", region: "asia", set_id: "tcgdex-asia-KR1", series_id: "asia-SV", number: "001", local_id: "001",
      name: "피카츄", names: { ko: "피카츄" },
    }),
  ],
  sealed: [
    sealed({ id: "base-booster-box", name: "Base Booster Box", tcgplayer_product_id: 100, set_id: "base1", set_release_date: "1999-01-09" }),
    // One TCGplayer product listed under two sets.
    sealed({ id: "jungle-bundle-a", name: "Bundle", product_type: "bundle", tcgplayer_product_id: 200, set_id: "base1" }),
    sealed({ id: "jungle-bundle-b", name: "Bundle", product_type: "bundle", tcgplayer_product_id: 200, set_id: "base2" }),
    // The same product under the same set twice: the pair is not unique, both fall back to the slug.
    sealed({ id: "dup-tin-1", name: "Tin", product_type: "tin", tcgplayer_product_id: 300, set_id: "base2" }),
    sealed({ id: "dup-tin-2", name: "Tin", product_type: "tin", tcgplayer_product_id: 300, set_id: "BASE2" }),
    sealed({ id: "no-tcgplayer-pack", name: "Pack", product_type: "booster-pack", set_id: "base1" }),
    sealed({ id: "loose-blister", name: "Blister", product_type: "blister", tcgplayer_product_id: 400 }),
    sealed({ id: "ghost-box", name: "Ghost Box", tcgplayer_product_id: 500, set_id: "no-such-set", names: { en: "Ghost Box", ja: "ゴースト" } }),
  ],
};

describe("transform", () => {
  const catalog: Catalog = transform(UPSTREAM);
  const byId = <T extends Record<string, unknown>>(rows: T[], key: keyof T = "id" as keyof T) =>
    new Map(rows.map((r) => [r[key] as string, r]));
  const sets = byId(catalog.sets);
  const cards = byId(catalog.cards);
  const series = byId(catalog.series);
  const sealedBySlug = byId(catalog.sealed, "slug");

  it("keeps one row per upstream record, and one series per label", () => {
    expect(catalog.series.map((r) => r.id).sort()).toEqual(["base", "other", "scarlet-violet"]);
    expect(catalog.sets).toHaveLength(UPSTREAM.sets.length);
    expect(catalog.cards).toHaveLength(UPSTREAM.cards.length);
    expect(catalog.sealed).toHaveLength(UPSTREAM.sealed.length);
  });

  it("counts cards per set and sets and cards per series, with their date span", () => {
    expect(sets.get("base1")!.cardCount).toBe(2);
    expect(sets.get("tcgdex-asia-SV2a")!.cardCount).toBe(2);
    expect(sets.get("tcgdex-asia-TH1")!.cardCount).toBe(0);
    expect(series.get("base")).toMatchObject({ setCount: 2, cardCount: 3, firstReleaseDate: "1999-01-09", lastReleaseDate: "1999-06-16" });
    // The Japanese block maps onto its Western era.
    expect(series.get("scarlet-violet")).toMatchObject({ setCount: 5, cardCount: 5, firstReleaseDate: "2023-06-16", lastReleaseDate: "2023-06-16" });
    // No label, no release date: no era to join.
    expect(series.get("other")).toMatchObject({ setCount: 1, cardCount: 1, firstReleaseDate: null, lastReleaseDate: null });
    expect(sets.get("tcgdex-asia-SV2a")!.seriesId).toBe("scarlet-violet");
    expect(sets.get("tcgdex-asia-SV2a")!.attrs).toMatchObject({ block_id: "asia-SV", block_name: "スカーレット＆バイオレット" });
    expect(cards.get("tcgdex-asia-SV2a-025")!.seriesId).toBe("scarlet-violet");
  });

  it("gives a series its name in English when it has no translations", () => {
    expect(series.get("base")!.names).toEqual({ en: "Base" });
    expect(series.get("scarlet-violet")!.name).toBe("Scarlet & Violet");
    expect(series.get("scarlet-violet")!.nameFolded).toBe("scarlet violet");
  });

  it("gives sets an alternate id only when it is unique and no primary id", () => {
    expect(sets.get("base1")!.altId).toBeNull(); // equal to its own id
    expect(sets.get("base2")!.altId).toBe("jungle");
    expect(sets.get("tcgdex-base2-reprint")!.altId).toBeNull(); // BASE2 is base2's primary id
    expect(sets.get("tcgdex-asia-SV2a")!.altId).toBe("asia-SV2a");
    expect(sets.get("tcgdex-asia-CS1a")!.altId).toBeNull(); // shared with CS1b
    expect(sets.get("tcgdex-asia-CS1b")!.altId).toBeNull();
    expect(sets.get("tcgdex-asia-TH1")!.altId).toBeNull(); // no tcgdex id
  });

  it("gives cards an alternate id <alt set code>-<local id> only when it is unique and differs from the id", () => {
    expect(cards.get("base1-4")!.altId).toBeNull();
    expect(cards.get("base2-60")!.altId).toBe("jungle-60");
    expect(cards.get("tcgdex-asia-SV2a-025")!.altId).toBe("asia-SV2a-025");
    expect(cards.get("tcgdex-asia-CS1a-001")!.altId).toBeNull();
    expect(cards.get("tcgdex-asia-CS1b-001")!.altId).toBeNull();
    expect(cards.get("tcgdex-asia-KR1-001")!.altId).toBe("asia-KR1-001");
    const alternates = catalog.cards.map((c) => c.altId?.toLowerCase()).filter(Boolean);
    const primaries = new Set(catalog.cards.map((c) => c.id.toLowerCase()));
    expect(new Set(alternates).size).toBe(alternates.length);
    for (const a of alternates) expect(primaries.has(a!)).toBe(false);
  });

  it("sets the print region of sets and their cards", () => {
    const region = (id: string) => [sets.get(id)!.printRegion, catalog.cards.filter((c) => c.setId === id).map((c) => c.printRegion)];
    expect(region("base1")).toEqual(["WEST", ["WEST", "WEST"]]);
    expect(region("tcgdex-asia-SV2a")).toEqual(["JP", ["JP", "JP"]]);
    expect(region("tcgdex-asia-CS1a")).toEqual(["CN", ["CN"]]);
    expect(region("tcgdex-asia-CS1b")).toEqual(["CN", ["CN"]]);
    expect(region("tcgdex-asia-KR1")).toEqual(["KR", ["KR"]]);
    expect(region("tcgdex-asia-TH1")).toEqual(["JP", []]);
  });

  it("builds the set rows", () => {
    expect(sets.get("base1")).toMatchObject({
      idLower: "base1", ptcgoCode: "BS", printedTotal: 102, total: 102, releaseDate: "1999-01-09", nameFolded: "base",
    });
    expect(sets.get("tcgdex-asia-SV2a")).toMatchObject({
      idLower: "tcgdex-asia-sv2a", ptcgoCode: null, languages: ["ja"], nameFolded: "ポケモンカード151 | pokemon card 151",
    });
    // Languages fall back to the keys of the names.
    expect(sets.get("tcgdex-asia-KR1")!.languages).toEqual(["ko"]);
  });

  it("builds the card rows: sort number, search columns, folded values, inherited set values", () => {
    expect(cards.get("base1-4")).toMatchObject({
      idLower: "base1-4", numberSort: 4, printRegion: "WEST", printedTotal: 102, releaseDate: "1999-01-09",
      nameTerms: ["charizard", "dracaufeu", "glurak"], nameKeys: ["charizard", "dracaufeu", "glurak"],
      supertypeLc: "pokemon", typesLc: ["fire"], subtypesLc: ["stage 2"], rarityLc: "rare holo",
      artistSlug: "mitsuhiro-arita", nationalDex: [6], languages: ["en", "fr", "de"],
    });
    expect(cards.get("base1-58")!.nameTerms).toEqual(["pikachu"]); // one word, once
    expect(cards.get("base2-60")).toMatchObject({ printedTotal: 64, releaseDate: "1999-06-16" });
    expect(cards.get("tcgdex-asia-SV2a-025")).toMatchObject({
      numberSort: 25, number: "025", localId: "025", printedTotal: 165, languages: ["ja"], hp: null, rarity: "C",
    });
    expect(cards.get("tcgdex-asia-SV2a-025")!.attrs.text_lang).toBe("ja");
    expect(cards.get("base1-4")!.attrs.text_lang).toBe("en");
    expect(cards.get("tcgdex-base2-reprint-61")).toMatchObject({ artist: null, artistSlug: null, releaseDate: null, printedTotal: null });
  });

  it("folds two spellings of one artist into one row named by the more used spelling", () => {
    const artists = byId(catalog.artists, "slug");
    expect([...artists.keys()].sort()).toEqual(["kouki-saito", "mitsuhiro-arita"]);
    expect(artists.get("kouki-saito")).toMatchObject({ name: "Kouki Saitō", nameFolded: "kouki saito", cardCount: 3, setCount: 2 });
    expect(artists.get("mitsuhiro-arita")).toMatchObject({ name: "Mitsuhiro Arita", cardCount: 2, setCount: 1 });
    for (const id of ["base2-60", "tcgdex-asia-SV2a-025", "tcgdex-asia-SV2a-201"]) {
      expect(cards.get(id)!.artistSlug).toBe("kouki-saito");
    }
  });

  it("spans an artist's dates over the release dates their cards are served with", () => {
    // Most cards here state no date of their own and inherit their set's, as the card rows do.
    const artists = byId(catalog.artists, "slug");
    expect(artists.get("kouki-saito")).toMatchObject({ firstReleaseDate: "1999-06-16", lastReleaseDate: "2023-06-16" });
    expect(artists.get("mitsuhiro-arita")).toMatchObject({ firstReleaseDate: "1999-01-09", lastReleaseDate: "1999-01-09" });
    for (const a of catalog.artists) {
      const dates = catalog.cards.filter((c) => c.artistSlug === a.slug).map((c) => c.releaseDate).filter(Boolean).sort();
      expect([a.firstReleaseDate, a.lastReleaseDate]).toEqual([dates[0] ?? null, dates.at(-1) ?? null]);
    }
  });

  it("makes sealed SKUs <SET>-<TCGplayer id>, unique per set and product", () => {
    expect(sealedBySlug.get("base-booster-box")).toMatchObject({ sku: "BASE1-100", setId: "base1", releaseDate: "1999-01-09", tcgplayerProductId: 100 });
    expect(sealedBySlug.get("jungle-bundle-a")!.sku).toBe("BASE1-200");
    expect(sealedBySlug.get("jungle-bundle-b")!.sku).toBe("BASE2-200");
  });

  it("falls back to the slug where the pair repeats, or there is no TCGplayer id", () => {
    expect(sealedBySlug.get("dup-tin-1")!.sku).toBe("DUP-TIN-1");
    expect(sealedBySlug.get("dup-tin-2")!.sku).toBe("DUP-TIN-2");
    expect(sealedBySlug.get("no-tcgplayer-pack")).toMatchObject({ sku: "NO-TCGPLAYER-PACK", tcgplayerProductId: null });
    expect(sealedBySlug.get("loose-blister")).toMatchObject({ sku: "MISC-400", setId: null });
  });

  it("keeps every SKU unique, case-insensitively", () => {
    const skus = catalog.sealed.map((p) => p.sku.toLowerCase());
    expect(new Set(skus).size).toBe(skus.length);
  });

  it("links sealed products only to sets that exist, and keeps their names", () => {
    expect(sealedBySlug.get("ghost-box")).toMatchObject({ setId: null, sku: "NO-SUCH-SET-500", names: { en: "Ghost Box", ja: "ゴースト" } });
    expect(sealedBySlug.get("base-booster-box")!.names).toEqual({ en: "Base Booster Box" });
    expect(sealedBySlug.get("base-booster-box")!.nameFolded).toBe("base booster box");
  });

  it("records card and set images", () => {
    expect(catalog.images).toEqual([
      { ownerKind: "card", ownerId: "base1-4", face: "FRONT", size: "SMALL", sourceUrl: "https://img/base1/4.png" },
      { ownerKind: "card", ownerId: "base1-4", face: "FRONT", size: "LARGE", sourceUrl: "https://img/base1/4_hires.png" },
      { ownerKind: "set", ownerId: "base1", face: "LOGO", size: "NORMAL", sourceUrl: "https://img/base1/logo.png" },
      { ownerKind: "set", ownerId: "base1", face: "SYMBOL", size: "NORMAL", sourceUrl: "https://img/base1/symbol.png" },
    ]);
  });

  it("is deterministic: the same upstream gives rows with the same hashes", () => {
    const again = transform(structuredClone(UPSTREAM));
    expect(again.cards.map(contentHash)).toEqual(catalog.cards.map(contentHash));
    expect(again.sets.map(contentHash)).toEqual(catalog.sets.map(contentHash));
  });
});
