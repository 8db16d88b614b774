import { PgDialect } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/api/errors";
import { CARD_LANGUAGES, cardQuery, numberTerms, parse } from "@/lib/query";

function apiError(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error("expected an ApiError");
}

describe("cardQuery", () => {
  it("compiles a missing or blank q to a condition that keeps every row", () => {
    for (const q of [undefined, "", "   "]) {
      const { ast, where } = cardQuery(q);
      expect(ast).toBeNull();
      expect(new PgDialect().sqlToQuery(where).sql).toBe("true");
    }
  });

  it("returns the AST and its WHERE fragment", () => {
    const { ast, where } = cardQuery("hp:100");
    expect(ast).toEqual(parse("hp:100"));
    expect(new PgDialect().sqlToQuery(where)).toMatchObject({ sql: "c.hp = $1", params: [100] });
  });

  it.each([
    ['name:"pika', 5, '"pika'],
    ["foo:bar", 0, "foo"],
    ["a OR", 4, ""],
    ["(a", 2, ""],
    ["name:x hp:abc", 7, "abc"],
    ["zz.region:XX", 0, "zz.region"],
    ["set.region:(JP", 14, ""],
  ])("turns the QueryError of %j into 400 INVALID_QUERY at position %i", (q, position, near) => {
    const err = apiError(() => cardQuery(q));
    expect(err.code).toBe("INVALID_QUERY");
    expect(err.status).toBe(400);
    expect(err.details).toMatchObject({ parameter: "q", position, near });
  });

  it.each([
    ["set.region:XX", "set.region", "XX", ["WEST", "JP", "CN", "KR"], 0],
    ["name:pikachu region:mars", "set.region", "mars", ["WEST", "JP", "CN", "KR"], 13],
    ["lang:xx", "languages", "xx", CARD_LANGUAGES, 0],
  ] as const)("answers the unknown vocabulary value of %j as 400 INVALID_PARAMETER with the valid values", (q, field, value, valid, position) => {
    const err = apiError(() => cardQuery(q));
    expect(err.code).toBe("INVALID_PARAMETER");
    expect(err.status).toBe(400);
    expect(err.details).toEqual({ parameter: "q", field, value, valid_values: valid, position });
  });

  it("keeps a syntax error INVALID_QUERY even next to an unknown region", () => {
    expect(apiError(() => cardQuery("set.region:XX (")).code).toBe("INVALID_QUERY");
    expect(apiError(() => cardQuery("set.region:XX zz:1")).code).toBe("INVALID_QUERY");
  });

  it("points an over-long q at the limit", () => {
    const err = apiError(() => cardQuery("a".repeat(1001)));
    expect(err.code).toBe("INVALID_QUERY");
    expect(err.details?.position).toBe(1000);
  });
});

describe("numberTerms", () => {
  it("is empty without a query or without number terms", () => {
    expect(numberTerms(null)).toEqual([]);
    expect(numberTerms(parse("pikachu hp:60"))).toEqual([]);
  });

  it("collects the number terms through AND and OR, in order", () => {
    expect(numberTerms(parse("number:22"))).toEqual(["22"]);
    expect(numberTerms(parse("number:22/185 pikachu"))).toEqual(["22/185"]);
    expect(numberTerms(parse("(number:1 OR number:1S) types:fire"))).toEqual(["1", "1S"]);
    expect(numberTerms(parse("number:(4 OR 5)"))).toEqual(["4", "5"]);
  });

  it("ignores negated number terms and number ranges", () => {
    expect(numberTerms(parse("-number:22 number:[1 TO 5]"))).toEqual([]);
    expect(numberTerms(parse("NOT number:22 OR number:7"))).toEqual(["7"]);
  });
});
