import { describe, expect, it } from "vitest";
import { QueryError } from "@/lib/query/lexer";
import { parse, type Node } from "@/lib/query/parser";

// Helpers that build the expected AST. Positions are 0-based offsets into the query.
const term = (field: string, value: string, pos: number, extra: { quoted?: boolean; exact?: boolean } = {}): Node => ({
  type: "term", field, value, quoted: extra.quoted ?? false, exact: extra.exact ?? false, pos,
});
const and = (...children: Node[]): Node => ({ type: "and", children });
const or = (...children: Node[]): Node => ({ type: "or", children });
const not = (child: Node): Node => ({ type: "not", child });

/** The AST without positions, to compare spellings that differ only in length. */
function shape(n: Node | null): unknown {
  if (!n) return n;
  switch (n.type) {
    case "term": case "range": { const { pos: _pos, ...rest } = n; return rest; }
    case "not": return { type: "not", child: shape(n.child) };
    default: return { type: n.type, children: n.children.map(shape) };
  }
}

function queryError(q: string): QueryError {
  try {
    parse(q);
  } catch (err) {
    if (err instanceof QueryError) return err;
    throw err;
  }
  throw new Error(`expected ${JSON.stringify(q.slice(0, 60))} to be rejected`);
}

describe("parse: terms", () => {
  it("returns null for an empty or blank query", () => {
    expect(parse("")).toBeNull();
    expect(parse("  \t ")).toBeNull();
  });

  it("reads field:value", () => {
    expect(parse("name:pikachu")).toEqual(term("name", "pikachu", 0));
    expect(parse("rarity:Common")).toEqual(term("rarity", "Common", 0));
  });

  it("searches the default field (name) with a bare term or phrase", () => {
    expect(parse("pikachu")).toEqual(term("name", "pikachu", 0));
    expect(parse('  "pikachu v"')).toEqual(term("name", "pikachu v", 2, { quoted: true }));
  });

  it("reads quoted values with escapes", () => {
    expect(parse('name:"Farfetch\\"d"')).toEqual(term("name", 'Farfetch"d', 0, { quoted: true }));
    expect(parse('set.name:"Base Set (2)"')).toEqual(term("set.name", "Base Set (2)", 0, { quoted: true }));
  });

  it("keeps wildcards in the value for the compiler", () => {
    expect(parse("name:pika*")).toEqual(term("name", "pika*", 0));
    expect(parse("rarity:rare?holo")).toEqual(term("rarity", "rare?holo", 0));
    expect(parse("char*")).toEqual(term("name", "char*", 0));
  });

  it("marks '!' terms exact", () => {
    expect(parse("!name:pikachu")).toEqual(term("name", "pikachu", 1, { exact: true }));
    expect(parse('!"Pikachu V"')).toEqual(term("name", "Pikachu V", 1, { exact: true, quoted: true }));
    expect(parse("!pikachu")).toEqual(term("name", "pikachu", 1, { exact: true }));
  });

  it("keeps hyphens and bangs inside words", () => {
    expect(parse("ex10-!")).toEqual(term("name", "ex10-!", 0));
    expect(parse("number:1-5")).toEqual(term("number", "1-5", 0));
    expect(parse("id:base1-4")).toEqual(term("id", "base1-4", 0));
    expect(parse("name:ho-oh -name:lugia")).toEqual(and(term("name", "ho-oh", 0), not(term("name", "lugia", 12))));
  });

  it("resolves nested fields, camelCase and aliases to canonical names", () => {
    expect(parse("set.code:base1")).toEqual(term("set.code", "base1", 0));
    expect(parse("nationalPokedexNumbers:25")).toEqual(term("national_pokedex_numbers", "25", 0));
    expect(parse("releaseDate:2020")).toEqual(term("release_date", "2020", 0));
    expect(parse("set.printRegion:JP")).toEqual(term("set.region", "JP", 0));
    expect(parse("regulationMark:G")).toEqual(term("regulation_mark", "G", 0));
    expect(parse("dex:25")).toEqual(term("national_pokedex_numbers", "25", 0));
  });

  it("reads words that happen to be Object.prototype members as ordinary words", () => {
    expect(parse("constructor")).toEqual(term("name", "constructor", 0));
    expect(parse("name:toString")).toEqual(term("name", "toString", 0));
  });
});

describe("parse: ranges", () => {
  const range = (field: string, lo: string | null, hi: string | null, loInclusive: boolean, hiInclusive: boolean, pos = 0): Node => ({
    type: "range", field, lo, hi, loInclusive, hiInclusive, pos,
  });

  it("reads inclusive, exclusive and mixed brackets", () => {
    expect(parse("hp:[10 TO 100]")).toEqual(range("hp", "10", "100", true, true));
    expect(parse("hp:{10 TO 100}")).toEqual(range("hp", "10", "100", false, false));
    expect(parse("hp:[10 TO 100}")).toEqual(range("hp", "10", "100", true, false));
    expect(parse("hp:{10 TO 100]")).toEqual(range("hp", "10", "100", false, true));
  });

  it("reads '*' as an open bound", () => {
    expect(parse("hp:[100 TO *]")).toEqual(range("hp", "100", null, true, true));
    expect(parse("hp:{* TO 100}")).toEqual(range("hp", null, "100", false, false));
    expect(parse("hp:[* TO *]")).toEqual(range("hp", null, null, true, true));
  });

  it("accepts quoted bounds, and a quoted '*' is a value, not an open bound", () => {
    expect(parse('release_date:["2020-01" TO "2021"]')).toEqual(range("release_date", "2020-01", "2021", true, true));
    expect(parse('hp:["*" TO 5]')).toEqual(range("hp", "*", "5", true, true));
  });

  it("resolves aliased fields in ranges", () => {
    expect(parse("nationalPokedexNumbers:[1 TO 151]")).toEqual(range("national_pokedex_numbers", "1", "151", true, true));
    expect(parse("releaseDate:{2020 TO *]")).toEqual(range("release_date", "2020", null, false, true));
    expect(parse("number:[1 TO 10]")).toEqual(range("number", "1", "10", true, true));
  });
});

describe("parse: boolean structure", () => {
  it("reads '-' and NOT as negation", () => {
    expect(parse("-name:x")).toEqual(not(term("name", "x", 1)));
    expect(parse("NOT name:x")).toEqual(not(term("name", "x", 4)));
    expect(parse("NOT NOT x")).toEqual(not(not(term("name", "x", 8))));
    expect(parse("-(a OR b)")).toEqual(not(or(term("name", "a", 2), term("name", "b", 7))));
  });

  it("reads AND, &&, and juxtaposition as the same conjunction", () => {
    const expected = shape(and(term("name", "a", 0), term("name", "b", 0)));
    expect(shape(parse("a AND b"))).toEqual(expected);
    expect(shape(parse("a && b"))).toEqual(expected);
    expect(shape(parse("a b"))).toEqual(expected);
    expect(parse("a b c")).toEqual(and(term("name", "a", 0), term("name", "b", 2), term("name", "c", 4)));
  });

  it("reads OR and || as the same disjunction", () => {
    const expected = shape(or(term("name", "a", 0), term("name", "b", 0)));
    expect(shape(parse("a OR b"))).toEqual(expected);
    expect(shape(parse("a || b"))).toEqual(expected);
  });

  it("binds AND (explicit or implicit) tighter than OR", () => {
    expect(parse("a b OR c")).toEqual(or(and(term("name", "a", 0), term("name", "b", 2)), term("name", "c", 7)));
    expect(parse("a OR b c")).toEqual(or(term("name", "a", 0), and(term("name", "b", 5), term("name", "c", 7))));
    expect(shape(parse("a AND b OR c && d"))).toEqual(shape(or(
      and(term("name", "a", 0), term("name", "b", 0)),
      and(term("name", "c", 0), term("name", "d", 0)),
    )));
  });

  it("lets parentheses override precedence", () => {
    expect(parse("(a OR b) c")).toEqual(and(or(term("name", "a", 1), term("name", "b", 6)), term("name", "c", 9)));
    expect(parse("a (b OR c)")).toEqual(and(term("name", "a", 0), or(term("name", "b", 3), term("name", "c", 8))));
    expect(parse("((a))")).toEqual(term("name", "a", 2));
  });

  it("negates only the next clause", () => {
    expect(parse("a -b c")).toEqual(and(term("name", "a", 0), not(term("name", "b", 3)), term("name", "c", 5)));
    expect(parse("-a OR b")).toEqual(or(not(term("name", "a", 1)), term("name", "b", 6)));
  });

  it("mixes fields, ranges and negation", () => {
    expect(shape(parse('set.code:base1 hp:[60 TO *] -types:fire "dark charizard"'))).toEqual(shape(and(
      term("set.code", "base1", 0),
      { type: "range", field: "hp", lo: "60", hi: null, loInclusive: true, hiInclusive: true, pos: 0 },
      not(term("types", "fire", 0)),
      term("name", "dark charizard", 0, { quoted: true }),
    )));
  });
});

describe("parse: field groups", () => {
  it("applies the field to every value in the group", () => {
    expect(parse("types:(fire OR water)")).toEqual(or(term("types", "fire", 7), term("types", "water", 15)));
    expect(parse("types:(fire water)")).toEqual(and(term("types", "fire", 7), term("types", "water", 12)));
    expect(parse("types:(fire -water)")).toEqual(and(term("types", "fire", 7), not(term("types", "water", 13))));
  });

  it("allows nesting, quotes and ranges inside a group", () => {
    expect(shape(parse('types:((fire OR water) -"grass")'))).toEqual(shape(and(
      or(term("types", "fire", 0), term("types", "water", 0)),
      not(term("types", "grass", 0, { quoted: true })),
    )));
    expect(shape(parse("hp:([10 TO 20] OR 100)"))).toEqual(shape(or(
      { type: "range", field: "hp", lo: "10", hi: "20", loInclusive: true, hiInclusive: true, pos: 0 },
      term("hp", "100", 0),
    )));
  });

  it("makes every value exact with a leading '!' on the group, or one value with '!' inside", () => {
    expect(shape(parse("!types:(fire OR -water)"))).toEqual(shape(or(
      term("types", "fire", 0, { exact: true }),
      not(term("types", "water", 0, { exact: true })),
    )));
    expect(shape(parse("name:(!pikachu raichu)"))).toEqual(shape(and(
      term("name", "pikachu", 0, { exact: true }),
      term("name", "raichu", 0),
    )));
  });

  it("combines a group with other clauses", () => {
    expect(parse("types:(fire OR water) hp:100")).toEqual(and(
      or(term("types", "fire", 7), term("types", "water", 15)),
      term("hp", "100", 22),
    ));
  });
});

describe("parse: limits", () => {
  it("accepts exactly 1000 characters and rejects 1001", () => {
    expect(parse(`${"a".repeat(999)} `)).toEqual(term("name", "a".repeat(999), 0));
    expect(queryError("a".repeat(1001)).position).toBe(1000);
  });

  it("accepts 32 levels of nesting and rejects the 33rd", () => {
    expect(parse(`${"(".repeat(32)}a${")".repeat(32)}`)).toEqual(term("name", "a", 32));
    expect(parse(`${"-".repeat(32)}a`)).not.toBeNull();
    expect(queryError(`${"(".repeat(33)}a${")".repeat(33)}`).position).toBe(32);
    expect(queryError(`${"NOT ".repeat(33)}a`).position).toBe(32 * 4);
  });

  it("accepts 64 clauses and rejects the 65th", () => {
    const clauses = Array.from({ length: 65 }, (_, i) => `w${i}`);
    expect(parse(clauses.slice(0, 64).join(" "))).toMatchObject({ type: "and" });
    const q = clauses.join(" ");
    expect(queryError(q).position).toBe(q.indexOf("w64"));
    // Values inside a field group count as clauses too.
    const group = `types:(${clauses.slice(0, 64).join(" OR ")})`;
    expect(queryError(group).position).toBe(group.indexOf("w63"));
  });
});

describe("parse: malformed input", () => {
  // [query, 0-based position of the problem, what the message mentions]
  const cases: [string, number, RegExp][] = [
    ['name:"pikachu', 5, /unterminated/i],
    ['pikachu "v', 8, /unterminated/i],
    ["name:", 5, /needs a value/],
    ["name:pikachu hp:", 16, /needs a value/],
    ["name:)", 5, /unexpected '\)'/i],
    ["name::x", 5, /unexpected ':'/i],
    [":x", 0, /unexpected ':'/i],
    ["a OR", 4, /search term was expected/],
    ["a AND", 5, /search term was expected/],
    ["NOT", 3, /search term was expected/],
    ["a OR OR b", 5, /unexpected 'OR'/i],
    ["OR a", 0, /unexpected 'OR'/i],
    ["AND a", 0, /unexpected 'AND'/i],
    ["(a", 2, /expected '\)'/i],
    ["(a OR (b c)", 11, /expected '\)'/i],
    ["(", 1, /search term was expected/],
    [")", 0, /unexpected '\)'/i],
    ["a)", 1, /unexpected '\)'/i],
    ["(a))", 3, /unexpected '\)'/i],
    ["()", 1, /unexpected '\)'/i],
    ["types:(fire", 11, /expected '\)'/i],
    ["types:(fire OR)", 14, /unexpected '\)'/i],
    ["foo:bar", 0, /unknown field 'foo'/i],
    ["name:x foo:bar", 7, /unknown field 'foo'/i],
    ["set.nope:x", 0, /unknown field 'set.nope'/i],
    ["constructor:x", 0, /unknown field/i],
    ["name:[a TO b]", 5, /does not take ranges/],
    ["rarity:{a TO b}", 7, /does not take ranges/],
    ["set.code:[a TO b]", 9, /does not take ranges/],
    ["[1 TO 5]", 0, /unexpected '\['/i],
    ["hp:[1 TO]", 8, /range bound/],
    ["hp:[TO 5]", 4, /range bound/],
    ["hp:[1 5]", 6, /expected 'TO'/i],
    ["hp:[1 to 5]", 6, /expected 'TO'/i],
    ["hp:[1 TO 5", 10, /expected '\]' or '\}'/i],
    ["hp:[1 TO 5)", 10, /expected '\]' or '\}'/i],
    ["hp:[(1) TO 5]", 4, /range bound/],
    ["x".repeat(1001), 1000, /1000 characters/],
    [`${"(".repeat(40)}a${")".repeat(40)}`, 32, /nested too deeply/],
    [`${"-".repeat(40)}a`, 32, /nested too deeply/],
    [Array.from({ length: 70 }, (_, i) => `n${i % 10}`).join(" "), 64 * 3, /at most 64 clauses/],
  ];

  it.each(cases)("rejects %j at position %i", (q, position, message) => {
    const err = queryError(q);
    expect(err).toBeInstanceOf(QueryError);
    expect(err.position).toBe(position);
    expect(err.message).toMatch(message);
    expect(err.position).toBeGreaterThanOrEqual(0);
    expect(err.position).toBeLessThanOrEqual(Math.min(q.length, 1000));
  });

  it("names the offending token in `near` where there is one", () => {
    expect(queryError("foo:bar").near).toBe("foo");
    expect(queryError("a)").near).toBe(")");
    expect(queryError('"abc').near).toBe('"abc');
  });
});
