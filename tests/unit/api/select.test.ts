import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/api/errors";
import { parseInclude, parseSelect, project } from "@/lib/api/select";

const CARD_FIELDS = ["id", "name", "number", "rarity", "hp", "release_date", "national_pokedex_numbers", "index_eur", "updated_at"] as const;
const INCLUDES = ["index", "prices", "translations", "images", "set", "artist"] as const;

function apiError(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error("expected an ApiError");
}

describe("parseSelect", () => {
  it("is undefined when nothing is selected", () => {
    expect(parseSelect(undefined, CARD_FIELDS)).toBeUndefined();
    expect(parseSelect("", CARD_FIELDS)).toBeUndefined();
    expect(parseSelect(" , ,", CARD_FIELDS)).toBeUndefined();
  });

  it("always includes id", () => {
    expect([...parseSelect("name", CARD_FIELDS)!]).toEqual(["id", "name"]);
    expect([...parseSelect("id", CARD_FIELDS)!]).toEqual(["id"]);
    // Even when the valid list does not name it.
    expect([...parseSelect("name", ["name"])!]).toEqual(["id", "name"]);
  });

  it("resolves camelCase and snake_case to snake_case", () => {
    expect([...parseSelect("nationalPokedexNumbers,release_date,updatedAt", CARD_FIELDS)!]).toEqual([
      "id", "national_pokedex_numbers", "release_date", "updated_at",
    ]);
    expect([...parseSelect("releaseDate,release_date", CARD_FIELDS)!]).toEqual(["id", "release_date"]);
  });

  it("trims spaces and skips empty entries", () => {
    expect([...parseSelect(" name , ,hp ", CARD_FIELDS)!]).toEqual(["id", "name", "hp"]);
  });

  it("rejects an unknown name with INVALID_SELECT_FIELD and the valid fields", () => {
    const err = apiError(() => parseSelect("name,legalities", CARD_FIELDS));
    expect(err.code).toBe("INVALID_SELECT_FIELD");
    expect(err.status).toBe(400);
    expect(err.details).toEqual({ field: "legalities", valid_fields: [...CARD_FIELDS] });
  });

  it("rejects names that only look like fields", () => {
    for (const bad of ["set.name", "constructor", "name_", "hp;drop"]) {
      expect(apiError(() => parseSelect(bad, CARD_FIELDS)).code, bad).toBe("INVALID_SELECT_FIELD");
    }
  });
});

describe("parseInclude", () => {
  it("is empty without a value", () => {
    expect(parseInclude(undefined, INCLUDES).size).toBe(0);
    expect(parseInclude("", INCLUDES).size).toBe(0);
  });

  it("accepts listed values, case-insensitively, trimmed and once each", () => {
    expect([...parseInclude("prices, INDEX,prices", INCLUDES)]).toEqual(["prices", "index"]);
  });

  it("rejects any other value with INVALID_INCLUDE and the valid values", () => {
    const err = apiError(() => parseInclude("index,legalities", INCLUDES));
    expect(err.code).toBe("INVALID_INCLUDE");
    expect(err.status).toBe(400);
    expect(err.details).toEqual({ value: "legalities", valid_values: [...INCLUDES] });
  });
});

describe("project", () => {
  const row = { id: "base1-4", name: "Charizard", number: "4", hp: 120, rarity: "Rare Holo" };

  it("returns the row unchanged without a selection", () => {
    expect(project(row, undefined)).toBe(row);
  });

  it("keeps the selected fields in the row's own order", () => {
    const out = project(row, parseSelect("hp,name", ["id", "name", "number", "hp", "rarity"]));
    expect(out).toEqual({ id: "base1-4", name: "Charizard", hp: 120 });
    expect(Object.keys(out)).toEqual(["id", "name", "hp"]);
  });

  it("leaves out selected fields the row does not have", () => {
    expect(project(row, new Set(["id", "index_eur"]))).toEqual({ id: "base1-4" });
  });
});
