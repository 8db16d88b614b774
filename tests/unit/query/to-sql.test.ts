import { PgDialect } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import { numberSort } from "@/lib/catalog/import/transform";
import { CARD_LANGUAGES } from "@/lib/query/fields";
import { QueryError, QueryValueError } from "@/lib/query/lexer";
import { parse } from "@/lib/query/parser";
import { compileCardQuery, likePattern, normalizeNumber } from "@/lib/query/to-sql";

const dialect = new PgDialect();
const render = (q: string) => {
  const { sql, params } = dialect.sqlToQuery(compileCardQuery(parse(q)));
  return { sql, params };
};

function queryError(q: string): QueryError {
  try {
    render(q);
  } catch (err) {
    if (err instanceof QueryError) return err;
    throw err;
  }
  throw new Error(`expected ${q} to be rejected`);
}

describe("compileCardQuery: bind parameters", () => {
  it("compiles an empty query to true", () => {
    expect(dialect.sqlToQuery(compileCardQuery(null))).toMatchObject({ sql: "true", params: [] });
  });

  const HOSTILE = "'; drop table cards; --";
  // Every field that takes free text, with a hostile value. The SQL text must not carry any
  // of it; the value (or its folded words) must travel as parameters.
  const cases: [string, string][] = [
    [`name:"${HOSTILE}"`, "drop"],
    [`"${HOSTILE}"`, "drop"],
    [`!name:"${HOSTILE}"`, "drop table cards"],
    [`name:"ドロップ'; --"`, "ドロップ"],
    [`rarity:"${HOSTILE}"`, HOSTILE],
    [`supertype:"${HOSTILE}"`, HOSTILE],
    [`regulation_mark:"${HOSTILE}"`, HOSTILE],
    [`id:"${HOSTILE}"`, HOSTILE],
    [`set.code:"${HOSTILE}"`, HOSTILE],
    [`set.series:"${HOSTILE}"`, HOSTILE],
    [`types:"${HOSTILE}"`, HOSTILE],
    [`subtypes:"${HOSTILE}"`, HOSTILE],
    // A quoted language outside the vocabulary is refused before any SQL (value errors below).
    ["languages:drop'--*", "drop'--%"],
    [`artist:"${HOSTILE}"`, "drop table cards"],
    [`set.name:"${HOSTILE}"`, "drop table cards"],
    [`number:"${HOSTILE}"`, HOSTILE],
    [`!number:"${HOSTILE}"`, HOSTILE],
    ["rarity:drop'--*", "drop'--%"],
    ["set.code:drop'--*", "drop'--%"],
    ["number:drop'--*", "drop'--%"],
    ["types:drop'--*", "drop'--%"],
    ["name:drop'--*", "drop%"],
    ["artist:drop'--*", "drop%"],
    ["rarity:%_\\\\", "%_\\"],
  ];

  it.each(cases)("keeps the value of %s out of the SQL text", (q, param) => {
    const { sql, params } = render(q);
    expect(sql).not.toMatch(/drop|ドロップ|%_/i);
    expect(sql).not.toContain("--");
    expect(params.some((p) => typeof p === "string" && p.toLowerCase().includes(param.toLowerCase()))).toBe(true);
    // One parameter per placeholder, no more, no less.
    expect(new Set(sql.match(/\$\d+/g) ?? []).size).toBe(params.length);
  });

  it("produces the same SQL text whatever the value of a fixed-shape term", () => {
    for (const field of ["rarity", "supertype", "regulation_mark", "id", "set.code", "set.series", "types", "subtypes", "languages", "number", "set.region"]) {
      // Closed vocabularies take only their own values, in any case.
      const closed: Record<string, [string, string]> = { "set.region": ["JP", "jp"], languages: ["fr", "DE"] };
      const [benign, hostile] = closed[field] ?? ["x", HOSTILE.replace(/"/g, "")];
      expect(render(`${field}:"${hostile}"`).sql, field).toBe(render(`${field}:"${benign}"`).sql);
    }
  });

  it("passes numbers and dates as parameters too", () => {
    expect(render("hp:120")).toEqual({ sql: "c.hp = $1", params: [120] });
    expect(render("hp:>=120")).toEqual({ sql: "c.hp >= $1", params: [120] });
    expect(render("release_date:2020-05-06")).toEqual({ sql: "c.release_date = $1::date", params: ["2020-05-06"] });
  });

  it("rejects comparison values that try to smuggle SQL", () => {
    for (const q of ["hp:\"1; drop table cards\"", "hp:>=1;drop", "release_date:>2020'--", "dex:>1)or(1=1", "number:>1--"]) {
      expect(() => render(q), q).toThrow(QueryError);
    }
  });
});

describe("likePattern", () => {
  it.each([
    ["pika*", "pika%"],
    ["pi?a", "pi_a"],
    ["*", "%"],
    ["100%", "100\\%"],
    ["a_b", "a\\_b"],
    ["a\\b", "a\\\\b"],
    ["%_\\", "\\%\\_\\\\"],
    ["a%*_?", "a\\%%\\__"],
    ["plain", "plain"],
  ])("turns %j into %j", (glob, pattern) => {
    expect(likePattern(glob)).toBe(pattern);
  });
});

describe("normalizeNumber", () => {
  it.each([
    ["022", "22"],
    ["TG05", "tg5"],
    ["1S", "1s"],
    ["SV001", "sv1"],
    ["H05/H32", "h5/h32"],
    ["0", "0"],
    ["000", "0"],
    ["100", "100"],
    ["105a", "105a"],
    ["SWSH020", "swsh20"],
    ["?", "?"],
  ])("normalizes %s to %s", (n, expected) => {
    expect(normalizeNumber(n)).toBe(expected);
  });
});

describe("compileCardQuery: field semantics", () => {
  it("combines clauses with and, or and a null-safe not", () => {
    expect(render("a b")).toEqual({ sql: "(c.name_terms @> array[$1]::text[] and c.name_terms @> array[$2]::text[])", params: ["a", "b"] });
    expect(render("a OR b").sql).toBe("(c.name_terms @> array[$1]::text[] or c.name_terms @> array[$2]::text[])");
    expect(render("-hp:100")).toEqual({ sql: "not coalesce(c.hp = $1, false)", params: [100] });
  });

  it("matches name words folded, phrases in order, and '!' whole names", () => {
    expect(render("name:Pokémon")).toEqual({ sql: "c.name_terms @> array[$1]::text[]", params: ["pokemon"] });
    const phrase = render('"Dark Charizard"');
    expect(phrase.params).toEqual(["dark", "charizard", "% dark charizard %"]);
    expect(phrase.sql).toContain("like $3");
    expect(render('!name:"Pikachu V"')).toEqual({ sql: "c.name_keys @> array[$1]::text[]", params: ["pikachu v"] });
    // A one-word phrase is just the word.
    expect(render('"pikachu"').params).toEqual(["pikachu"]);
  });

  it("expands name wildcards through card_terms, and '*' alone matches every card", () => {
    expect(render("pika*").params).toEqual(["pika%"]);
    expect(render("name:pi?a").sql).toContain("ct.term like $1");
    expect(render("name:*").sql).toBe("true");
    // A quoted '*' is not a wildcard.
    expect(render('name:"pika*"').params).toEqual(["pika"]);
  });

  it("matches scripts without spaces as substrings", () => {
    expect(render("name:ピカチュウ").params).toEqual(["%ピカチュウ%"]);
  });

  it("compares printed values folded, with wildcards as LIKE", () => {
    expect(render("rarity:Rare")).toEqual({ sql: "c.rarity_lc = $1", params: ["rare"] });
    expect(render("rarity:rare*")).toEqual({ sql: "c.rarity_lc like $1", params: ["rare%"] });
    expect(render('rarity:"Rare*"')).toEqual({ sql: "c.rarity_lc = $1", params: ["rare*"] });
    expect(render("supertype:Pokémon").params).toEqual(["pokemon"]);
    expect(render("id:Base1-4")).toEqual({ sql: "c.id_lower = $1", params: ["base1-4"] });
    expect(render("rarity:%_\\\\")).toEqual({ sql: "c.rarity_lc = $1", params: ["%_\\"] });
    expect(render("rarity:%_\\\\*")).toEqual({ sql: "c.rarity_lc like $1", params: ["\\%\\_\\\\%"] });
  });

  it("finds a set by code, alternate id or printed code", () => {
    expect(render("set.code:SV3pt5").params).toEqual(["sv3pt5", "sv3pt5", "SV3PT5"]);
    expect(render("set:sv*").params).toEqual(["sv%", "sv%"]);
  });

  it("filters the print region from the reference vocabulary", () => {
    expect(render("set.region:jp")).toEqual({ sql: "c.print_region = $1", params: ["JP"] });
    expect(render("region:CN").params).toEqual(["CN"]);
  });

  it("folds only ASCII letters of identifiers: no ß → SS, ﬁ → FI, ı → I", () => {
    expect(render("set.code:ß").params).toEqual(["ß", "ß", "ß"]);
    expect(render("set.code:ﬁ").params).toEqual(["ﬁ", "ﬁ", "ﬁ"]);
    expect(render("id:Iİı-1").params).toEqual(["Iİı-1"]);
    expect(render("id:BASE1-4").params).toEqual(["base1-4"]);
    expect(render("set.series:ß").params[0]).toBe("ß");
    expect(render("regulation_mark:ß").params).toEqual(["ß"]);
    expect(render("number:ß1").params.slice(0, 3)).toEqual([1, "ß1", "ß1"]);
    // Decomposed input is compared in its composed form.
    expect(render("set.code:e\u0301").params[0]).toBe("\u00e9");
  });

  it("compares the NFC form: the Kelvin sign is canonically K, then folded as ASCII", () => {
    expect(render("id:\u212Aa-1").params).toEqual(["ka-1"]);
    expect(render("set.code:S\u212A")).toEqual(render("set.code:SK"));
    expect(render("number:\u212A1")).toEqual(render("number:K1"));
  });

  it("matches one of the printed array values", () => {
    expect(render("types:Fire")).toEqual({ sql: "c.types_lc @> array[$1]::text[]", params: ["fire"] });
    expect(render("types:fi*").params).toEqual(["fi%"]);
    expect(render("languages:zh").params).toEqual(["zh-tw", "zh-cn"]);
  });

  it("matches artist and set names by words", () => {
    expect(render('artist:"Ken Sugimori"').params).toEqual(["% ken sugimori %"]);
    expect(render('!artist:"Ken Sugimori"').params).toEqual(["% | ken sugimori | %"]);
    expect(render("artist:sugi*").params).toEqual(["sugi%"]);
    expect(render("set.name:base").params).toEqual(["% base %"]);
  });

  it("compares hp as an integer with operators, ranges and '*'", () => {
    expect(render("hp:*").sql).toBe("c.hp is not null");
    expect(render("hp:<60")).toEqual({ sql: "c.hp < $1", params: [60] });
    expect(render("hp:[10 TO 100}")).toEqual({ sql: "c.hp >= $1 and c.hp < $2", params: [10, 100] });
    expect(render("hp:{10 TO *]")).toEqual({ sql: "c.hp > $1", params: [10] });
    expect(render("hp:[* TO *]").sql).toBe("c.hp is not null");
  });

  it("compares the price (the composite index in EUR) with operators, ranges and '*'", () => {
    expect(render("price:*").sql).toBe("c.index_eur is not null");
    expect(render("price:>=10")).toEqual({ sql: "c.index_eur >= $1", params: [10] });
    expect(render("index_eur:<2.5")).toEqual({ sql: "c.index_eur < $1", params: [2.5] });
    expect(render("price:[5 TO 20.99]")).toEqual({ sql: "c.index_eur >= $1 and c.index_eur <= $2", params: [5, 20.99] });
    expect(render("price:[5 TO *]")).toEqual({ sql: "c.index_eur >= $1", params: [5] });
    expect(render("price:{* TO 1}")).toEqual({ sql: "c.index_eur < $1", params: [1] });
    // A card without an index is kept by a negated bound, as -hp:100 keeps cards without HP.
    expect(render("-price:>100").sql).toBe("not coalesce(c.index_eur > $1, false)");
  });

  it("treats a partial date as a period", () => {
    expect(render("release_date:2020").params).toEqual(["2020-01-01", "2020-12-31"]);
    expect(render("release_date:2020-02").params).toEqual(["2020-02-01", "2020-02-29"]);
    expect(render("release_date:2021-02").params).toEqual(["2021-02-01", "2021-02-28"]);
    expect(render("release_date:2020").sql).toContain("between");
    expect(render("release_date:>2020")).toEqual({ sql: "c.release_date > $1::date", params: ["2020-12-31"] });
    expect(render("release_date:>=2020").params).toEqual(["2020-01-01"]);
    expect(render("release_date:<2020-06").params).toEqual(["2020-06-01"]);
    expect(render("release_date:<=2020-06").params).toEqual(["2020-06-30"]);
    expect(render("releaseDate:[2020 TO 2021-03]")).toEqual({
      sql: "c.release_date >= $1::date and c.release_date <= $2::date", params: ["2020-01-01", "2021-03-31"],
    });
    expect(render("release_date:{2020 TO 2022}").params).toEqual(["2020-12-31", "2022-01-01"]);
    expect(render("release_date:*").sql).toBe("c.release_date is not null");
  });

  it("compares national dex numbers inside the array", () => {
    expect(render("nationalPokedexNumbers:25")).toEqual({ sql: "c.national_pokedex_numbers @> array[$1]::float8[]", params: [25] });
    expect(render("dex:384.1").params).toEqual([384.1]);
    expect(render("dex:>100").sql).toContain("d > $1");
    expect(render("dex:[1 TO 151]").params).toEqual([1, 151]);
    expect(render("dex:*").sql).toContain("cardinality");
  });

  it("prefers the exact printed number and falls back to the number without leading zeros", () => {
    const plain = render("number:22");
    expect(plain.params).toEqual([22, "22", "22", "22"]);
    expect(plain.sql).toContain("regexp_replace");
    expect(render("number:022").params).toEqual([22, "022", "22", "022"]);
    expect(render("number:TG05").params).toEqual([5, "tg05", "tg5", "tg05"]);
    // '!' turns the fallback off.
    const exact = render("!number:22");
    expect(exact.params).toEqual([22, "22"]);
    expect(exact.sql).not.toContain("regexp_replace");
  });

  it("checks the printed total of number:N/T when the set knows it", () => {
    const { sql, params } = render("number:22/185");
    expect(params).toEqual([22, "22", "22", "22", 185]);
    expect(sql).toContain("c.printed_total is null or c.printed_total = $5");
  });

  it("compares numbers by their numeric part for operators and ranges", () => {
    expect(render("number:>10")).toEqual({ sql: "c.number_sort > $1", params: [10] });
    expect(render("number:[1 TO 10]")).toEqual({ sql: "c.number_sort >= $1 and c.number_sort <= $2", params: [1, 10] });
    expect(render("number:SV*")).toEqual({ sql: "lower(c.number) like $1", params: ["sv%"] });
    expect(render("number:*").sql).toBe("true");
  });

  it("looks a printed number up under the same number_sort the import stores", () => {
    for (const printed of ["1", "1S", "TG05", "022", "SV001", "0000000000022", "2147483647", "2147483648", "99999999999999999999", "A"]) {
      const { sql, params } = render(`number:"${printed}"`);
      const stored = numberSort(printed);
      if (stored === null) expect(sql, printed).toMatch(/^\(c\.number_sort is null and/);
      else expect(params[0], printed).toBe(stored);
    }
  });
});

describe("compileCardQuery: values outside a closed vocabulary", () => {
  function valueError(q: string): QueryValueError {
    const err = queryError(q);
    if (err instanceof QueryValueError) return err;
    throw new Error(`expected ${q} to be a QueryValueError, got ${err.message}`);
  }

  it.each([
    ["set.region:XX", 0, "set.region", "XX", ["WEST", "JP", "CN", "KR"]],
    ["a set.region:west-eu", 2, "set.region", "west-eu", ["WEST", "JP", "CN", "KR"]],
    ["region:ß", 0, "set.region", "ß", ["WEST", "JP", "CN", "KR"]],
    ["hp:10 lang:xx", 6, "languages", "xx", CARD_LANGUAGES],
    ['languages:"en us"', 0, "languages", "en us", CARD_LANGUAGES],
  ] as const)("rejects %j at position %i, naming the valid values", (q, position, field, near, valid) => {
    const err = valueError(q);
    expect(err).toMatchObject({ position, field, near, validValues: valid });
    expect(err.message).toContain(valid.join(", "));
  });

  it("accepts every value of the vocabulary, in any case", () => {
    for (const r of ["WEST", "jp", "Cn", "kr"]) expect(() => render(`set.region:${r}`)).not.toThrow();
    for (const l of [...CARD_LANGUAGES, "EN", "zh-TW", "Es-Mx"]) expect(() => render(`languages:${l}`)).not.toThrow();
    expect(() => render("lang:z*")).not.toThrow();
  });
});

describe("compileCardQuery: value errors", () => {
  // [query, position (the clause that holds the bad value), message]
  const cases: [string, number, RegExp][] = [
    ["hp:abc", 0, /whole number/],
    ["name:pikachu hp:abc", 13, /whole number/],
    ["hp:1.5", 0, /whole number/],
    ["hp:1*", 0, /wildcards/],
    ["hp:>abc", 0, /whole number/],
    ["hp:>=", 0, /whole number/],
    ["hp:[a TO 5]", 0, /whole number/],
    ["hp:[1 TO 1e3]", 0, /whole number/],
    ["hp:1234567890", 0, /whole number/],
    ["types:(fire) hp:(1 OR x)", 22, /whole number/],
    ["number:[a TO 5]", 0, /whole number/],
    ["number:>x", 0, /whole number/],
    ["release_date:2020-13", 0, /YYYY/],
    ["release_date:2020-00", 0, /YYYY/],
    ["release_date:2020-02-30", 0, /YYYY/],
    ["release_date:2021-02-29", 0, /YYYY/],
    ["release_date:2020-04-31", 0, /YYYY/],
    ["release_date:20200101", 0, /YYYY/],
    ["release_date:2020/01/01", 0, /YYYY/],
    ["release_date:>2020-1", 0, /YYYY/],
    ["release_date:[2020 TO 2021-13]", 0, /YYYY/],
    ["release_date:20*", 0, /YYYY/],
    ["dex:abc", 0, /number/],
    ["price:abc", 0, /amount in EUR/],
    ["price:-5", 0, /amount in EUR/],
    ["price:>1.999", 0, /amount in EUR/],
    ["price:1e3", 0, /amount in EUR/],
    ["price:1*", 0, /wildcards/],
    ["pikachu price:[1 TO x]", 8, /amount in EUR/],
    ["dex:[1 TO x]", 0, /number/],
    ["dex:1.1234567", 0, /number/],
    ['name:"!!!"', 0, /letters or digits/],
    ["a - b", 2, /letters or digits/],
    ['artist:"---"', 0, /letters or digits/],
    ['set.name:"&"', 0, /letters or digits/],
  ];

  it.each(cases)("rejects %j at position %i", (q, position, message) => {
    const err = queryError(q);
    expect(err.position).toBe(position);
    expect(err.message).toMatch(message);
  });

  it("accepts the edge values next to the rejected ones", () => {
    expect(() => render("release_date:2020-02-29")).not.toThrow();
    expect(() => render("release_date:2020-12-31")).not.toThrow();
    expect(() => render("hp:123456789")).not.toThrow();
    expect(() => render("hp:-10")).not.toThrow();
    expect(() => render("set.region:kr")).not.toThrow();
    expect(() => render("dex:1.123456")).not.toThrow();
  });
});
