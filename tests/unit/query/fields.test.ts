import { describe, expect, it } from "vitest";
import { FIELD_NAMES, FIELDS, PRINT_REGIONS, resolveField } from "@/lib/query/fields";

describe("resolveField", () => {
  it("returns canonical names unchanged", () => {
    for (const name of FIELD_NAMES) expect(resolveField(name)).toBe(name);
  });

  it.each([
    ["nationalPokedexNumbers", "national_pokedex_numbers"],
    ["national_dex_numbers", "national_pokedex_numbers"],
    ["nationalPokedexNumber", "national_pokedex_numbers"],
    ["dex", "national_pokedex_numbers"],
    ["releaseDate", "release_date"],
    ["regulationMark", "regulation_mark"],
    ["set", "set.code"],
    ["set.id", "set.code"],
    ["set.slug", "set.code"],
    ["set.printRegion", "set.region"],
    ["set.print_region", "set.region"],
    ["region", "set.region"],
    ["series", "set.series"],
    ["type", "types"],
    ["subtype", "subtypes"],
    ["lang", "languages"],
    ["language", "languages"],
    ["Name", "name"],
    ["price", "index_eur"],
    ["price_eur", "index_eur"],
    ["indexEur", "index_eur"],
  ])("resolves %s to %s", (raw, canonical) => {
    expect(resolveField(raw)).toBe(canonical);
  });

  it("returns undefined for fields q does not know", () => {
    for (const raw of ["foo", "set.foo", "legalities", "set.code.x", "", "constructor", "__proto__", "toString", "hasOwnProperty"]) {
      expect(resolveField(raw)).toBeUndefined();
    }
  });
});

describe("FIELDS", () => {
  it("allows ranges exactly on the ordered fields", () => {
    const ranged = FIELD_NAMES.filter((f) => FIELDS[f]!.ranges).sort();
    expect(ranged).toEqual(["hp", "index_eur", "national_pokedex_numbers", "number", "release_date"]);
  });

  it("knows the fields SPEC.md names for q", () => {
    for (const f of ["set.code", "set.region", "number", "rarity", "name", "types", "hp", "artist", "supertype"]) {
      expect(FIELD_NAMES).toContain(f);
    }
  });

  it("uses the print regions of the reference vocabulary", () => {
    expect([...PRINT_REGIONS]).toEqual(["WEST", "JP", "CN", "KR"]);
  });
});
