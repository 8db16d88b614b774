import { sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/api/errors";
import {
  col, decodeCursor, encodeCursor, keysetWhere, MAX_SORT_KEYS, orderBySql, parseOrderBy, sortKeySelect, type Order, type SortSpec,
} from "@/lib/api/paging";

// A card-like sort spec: `id` closes every order, `number` is two columns, some keys are nullable,
// and the price keys need include=index.
const CARDS: SortSpec = {
  resource: "cards",
  tiebreaker: "id",
  default: "id",
  keys: {
    id: { columns: [col(sql`c.id`, "text", false)] },
    name: { columns: [col(sql`c.name`, "text", false)] },
    number: { columns: [col(sql`c.number_sort`, "int"), col(sql`c.number`, "text", false)] },
    rarity: { columns: [col(sql`c.rarity`, "text")] },
    hp: { columns: [col(sql`c.hp`, "int")] },
    index_eur: { columns: [col(sql`c.index_eur`, "float")], requires: "index" },
    last_price_at: { columns: [col(sql`c.last_price_at`, "timestamp")], requires: "index" },
    updated_at: { columns: [col(sql`c.updated_at`, "timestamp", false)] },
    release_date: { columns: [col(sql`c.release_date`, "date")] },
  },
};
const SET_CARDS: SortSpec = { ...CARDS, resource: "set-cards", default: "number" };
const SERIES: SortSpec = {
  resource: "series",
  tiebreaker: "slug",
  default: "-set_count",
  keys: {
    slug: { columns: [col(sql`s.id`, "text", false)] },
    name: { columns: [col(sql`s.name`, "text", false)] },
    set_count: { columns: [col(sql`s.set_count`, "int", false)] },
  },
};

const dialect = new PgDialect();
const render = (q: Parameters<PgDialect["sqlToQuery"]>[0]) => {
  const { sql: text, params } = dialect.sqlToQuery(q);
  return { sql: text, params };
};
const terms = (o: Order) => o.terms.map((t) => (t.desc ? `-${t.key}` : t.key));

function apiError(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error("expected an ApiError");
}

describe("parseOrderBy", () => {
  it("uses the default and appends the tiebreaker", () => {
    expect(terms(parseOrderBy(CARDS, {}))).toEqual(["id"]);
    expect(terms(parseOrderBy(SET_CARDS, {}))).toEqual(["number", "id"]);
    expect(terms(parseOrderBy(SERIES, {}))).toEqual(["-set_count", "slug"]);
    expect(terms(parseOrderBy(SET_CARDS, { orderBy: "  " }))).toEqual(["number", "id"]);
  });

  it("reads a leading '-' as descending for one key only", () => {
    const o = parseOrderBy(CARDS, { orderBy: "-hp,name" });
    expect(o.terms).toEqual([{ key: "hp", desc: true }, { key: "name", desc: false }, { key: "id", desc: false }]);
    expect(o.signature).toBe("-hp,name,id");
  });

  it("expands multi-column keys into columns carrying the key's direction", () => {
    const o = parseOrderBy(CARDS, { orderBy: "-number" });
    expect(o.columns.map((c) => [render(c.expr).sql, c.desc, c.nullable])).toEqual([
      ["c.number_sort", true, true], ["c.number", true, false], ["c.id", false, false],
    ]);
  });

  it("accepts camelCase keys and answers with the snake_case key", () => {
    expect(terms(parseOrderBy(CARDS, { orderBy: "-updatedAt,releaseDate" }))).toEqual(["-updated_at", "release_date", "id"]);
    expect(terms(parseOrderBy(CARDS, { orderBy: "indexEur" }, new Set(["index"])))).toEqual(["index_eur", "id"]);
  });

  it("accepts order_by as the same parameter, and both when they agree", () => {
    expect(terms(parseOrderBy(CARDS, { order_by: "-hp" }))).toEqual(["-hp", "id"]);
    expect(terms(parseOrderBy(CARDS, { orderBy: "-hp", order_by: "-hp" }))).toEqual(["-hp", "id"]);
  });

  it("rejects orderBy and order_by that disagree", () => {
    const err = apiError(() => parseOrderBy(CARDS, { orderBy: "hp", order_by: "-hp" }));
    expect(err.code).toBe("INVALID_PARAMETER");
  });

  it(`takes up to ${MAX_SORT_KEYS} keys, and rejects more with max and requested`, () => {
    expect(terms(parseOrderBy(CARDS, { orderBy: "name,hp,rarity,-release_date" }))).toEqual(["name", "hp", "rarity", "-release_date", "id"]);
    const err = apiError(() => parseOrderBy(CARDS, { orderBy: "name,hp,rarity,release_date,updated_at" }));
    expect(err.code).toBe("INVALID_PARAMETER");
    expect(err.details).toMatchObject({ parameter: "orderBy", max: 4, requested: 5 });
  });

  it("rejects an unknown key with the valid fields", () => {
    const err = apiError(() => parseOrderBy(CARDS, { orderBy: "name,legalities" }));
    expect(err.code).toBe("INVALID_PARAMETER");
    expect(err.status).toBe(400);
    expect(err.details).toMatchObject({ parameter: "orderBy", value: "legalities" });
    expect(err.details?.valid_fields).toEqual(Object.keys(CARDS.keys));
  });

  it("rejects keys inherited from Object.prototype as unknown, not as a crash", () => {
    for (const orderBy of ["constructor", "__proto__", "-constructor", "toString"]) {
      const err = apiError(() => parseOrderBy(CARDS, { orderBy }));
      expect(err.code, orderBy).toBe("INVALID_PARAMETER");
      expect(err.details?.valid_fields, orderBy).toEqual(Object.keys(CARDS.keys));
    }
  });

  it("rejects empty keys", () => {
    for (const orderBy of ["name,,hp", "-", "name,", ",name"]) {
      expect(apiError(() => parseOrderBy(CARDS, { orderBy })).code, orderBy).toBe("INVALID_PARAMETER");
    }
  });

  it("rejects a key named twice, in either direction", () => {
    for (const orderBy of ["hp,hp", "hp,-hp", "releaseDate,release_date"]) {
      const err = apiError(() => parseOrderBy(CARDS, { orderBy }));
      expect(err.code, orderBy).toBe("INVALID_PARAMETER");
    }
  });

  it("gates keys that need an include", () => {
    for (const orderBy of ["index_eur", "-lastPriceAt"]) {
      const err = apiError(() => parseOrderBy(CARDS, { orderBy }));
      expect(err.code).toBe("INVALID_PARAMETER");
      expect(err.details).toMatchObject({ parameter: "orderBy", requires_include: "index" });
    }
    expect(apiError(() => parseOrderBy(CARDS, { orderBy: "index_eur" }, new Set(["prices"]))).code).toBe("INVALID_PARAMETER");
    expect(terms(parseOrderBy(CARDS, { orderBy: "-index_eur" }, new Set(["index"])))).toEqual(["-index_eur", "id"]);
  });

  it("lets naming the tiebreaker set only its direction", () => {
    expect(terms(parseOrderBy(CARDS, { orderBy: "-id" }))).toEqual(["-id"]);
    expect(terms(parseOrderBy(CARDS, { orderBy: "hp,-id" }))).toEqual(["hp", "-id"]);
    expect(terms(parseOrderBy(SERIES, { orderBy: "-slug" }))).toEqual(["-slug"]);
  });

  it("moves a named tiebreaker to the end: naming it only sets its direction (SPEC.md Pagination rule 4)", () => {
    const o = parseOrderBy(CARDS, { orderBy: "-id,name,hp" });
    expect(terms(o)).toEqual(["name", "hp", "-id"]);
    expect(o.signature).toBe("name,hp,-id");
    expect(apiError(() => parseOrderBy(CARDS, { orderBy: "id,bogus" })).code).toBe("INVALID_PARAMETER");
  });

  it("gives equal orders the same signature, so a cursor stays valid across spellings", () => {
    const sig = (orderBy: string) => parseOrderBy(CARDS, { orderBy }).signature;
    expect(sig("releaseDate")).toBe(sig("release_date,id"));
    expect(sig("id,name")).toBe(sig("name"));
    expect(sig("-hp")).not.toBe(sig("hp"));
  });
});

describe("orderBySql and sortKeySelect", () => {
  it("orders by every column with PostgreSQL's null defaults", () => {
    const o = parseOrderBy(CARDS, { orderBy: "-hp,number" });
    // No NULLS clause: PostgreSQL puts nulls last ascending and first descending, the contract.
    expect(render(orderBySql(o)).sql).toBe("c.hp desc, c.number_sort asc, c.number asc, c.id asc");
  });

  it("selects every sort column as __k0…, in order", () => {
    const o = parseOrderBy(CARDS, { orderBy: "-updated_at,number" });
    const text = render(sortKeySelect(o)).sql;
    expect(text.match(/"__k\d+"/g)).toEqual(['"__k0"', '"__k1"', '"__k2"', '"__k3"']);
    expect(text).toMatch(/c\.updated_at.* as "__k0", c\.number_sort as "__k1", c\.number as "__k2", c\.id as "__k3"$/);
  });
});

describe("cursors", () => {
  const order = parseOrderBy(CARDS, { orderBy: "-hp,number" });
  const row = { __k0: 120, __k1: 4, __k2: "4a", __k3: "base1-4" };

  it("round-trips the sort values of the last row", () => {
    const cursor = encodeCursor(CARDS, order, row);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor, CARDS, order)).toEqual([120, 4, "4a", "base1-4"]);
  });

  it("carries nulls of nullable columns", () => {
    const cursor = encodeCursor(CARDS, order, { __k0: null, __k1: null, __k2: "?", __k3: "x-1" });
    expect(decodeCursor(cursor, CARDS, order)).toEqual([null, null, "?", "x-1"]);
  });

  it("round-trips dates, timestamps with microseconds and floats", () => {
    const o = parseOrderBy(CARDS, { orderBy: "release_date,-last_price_at,index_eur" }, new Set(["index"]));
    const values = ["2023-03-31", "2024-05-06 07:08:09.123456+00", 12.34, "sv1-1"];
    const cursor = encodeCursor(CARDS, o, Object.fromEntries(values.map((v, i) => [`__k${i}`, v])));
    expect(decodeCursor(cursor, CARDS, o)).toEqual(values);
  });

  it("accepts a cursor under another spelling of the same order", () => {
    const cursor = encodeCursor(CARDS, order, row);
    expect(decodeCursor(cursor, CARDS, parseOrderBy(CARDS, { order_by: "-hp,number,id" }))).toEqual([120, 4, "4a", "base1-4"]);
  });

  const b64 = (v: unknown) => Buffer.from(typeof v === "string" ? v : JSON.stringify(v)).toString("base64url");
  const good = { r: "cards", o: "-hp,number,id", k: [120, 4, "4a", "base1-4"] };

  it.each([
    ["an empty string", ""],
    ["characters outside base64url", "abc+/=="],
    ["spaces", "ab cd"],
    ["base64 of text that is not JSON", b64("not json")],
    ["JSON null", b64("null")],
    ["a JSON number", b64("42")],
    ["a JSON array", b64([1, 2])],
    ["a payload without k", b64({ r: "cards", o: "-hp,number,id" })],
    ["k that is not an array", b64({ ...good, k: "120" })],
    ["o that is not a string", b64({ ...good, o: 1 })],
    ["too few values", b64({ ...good, k: [120, 4, "4a"] })],
    ["too many values", b64({ ...good, k: [...good.k, "x"] })],
    ["a string for an int column", b64({ ...good, k: ["120", 4, "4a", "base1-4"] })],
    ["a fraction for an int column", b64({ ...good, k: [120.5, 4, "4a", "base1-4"] })],
    ["a number for a text column", b64({ ...good, k: [120, 4, 4, "base1-4"] })],
    ["null for a column that is never null", b64({ ...good, k: [120, 4, "4a", null] })],
    ["an object value", b64({ ...good, k: [{}, 4, "4a", "base1-4"] })],
    ["an over-long text value", b64({ ...good, k: [120, 4, "4a", "x".repeat(1001)] })],
  ])("rejects %s with INVALID_CURSOR", (_what, cursor) => {
    const err = apiError(() => decodeCursor(cursor, CARDS, order));
    expect(err.code).toBe("INVALID_CURSOR");
    expect(err.status).toBe(400);
  });

  it("rejects malformed dates and timestamps", () => {
    const o = parseOrderBy(CARDS, { orderBy: "release_date,updated_at" });
    const payload = (k: unknown[]) => b64({ r: "cards", o: o.signature, k });
    expect(decodeCursor(payload(["2020-01-02", "2020-01-02T03:04:05Z", "a"]), CARDS, o)).toHaveLength(3);
    for (const k of [["2020-1-2", "2020-01-02T03:04:05Z", "a"], ["2020-01-02", "yesterday", "a"], ["2020-01-02", "2020-01-02", "a"]]) {
      expect(apiError(() => decodeCursor(payload(k), CARDS, o)).code).toBe("INVALID_CURSOR");
    }
  });

  it("rejects a UTC offset PostgreSQL would refuse, and keeps the ones it takes", () => {
    const o = parseOrderBy(CARDS, { orderBy: "updated_at" });
    const payload = (ts: string) => b64({ r: "cards", o: o.signature, k: [ts, "a"] });
    for (const ts of ["2020-01-02 03:04:05+15:59", "2020-01-02 03:04:05-1559", "2020-01-02 03:04:05+05", "2020-01-02 03:04:05.5-00:30"]) {
      expect(decodeCursor(payload(ts), CARDS, o), ts).toHaveLength(2);
    }
    for (const ts of ["2020-01-02 03:04:05+16", "2020-01-02 03:04:05-99:00", "2020-01-02 03:04:05+05:60", "2020-01-02 03:04:05+0575"]) {
      expect(apiError(() => decodeCursor(payload(ts), CARDS, o)).code, ts).toBe("INVALID_CURSOR");
    }
  });

  it("rejects a cursor issued for a different orderBy, naming both", () => {
    const cursor = encodeCursor(CARDS, order, row);
    const other = parseOrderBy(CARDS, { orderBy: "hp,number" });
    const err = apiError(() => decodeCursor(cursor, CARDS, other));
    expect(err.code).toBe("INVALID_CURSOR");
    expect(err.details).toMatchObject({ cursor_order_by: "-hp,number,id", order_by: "hp,number,id" });
  });

  it("rejects a cursor issued for a different resource with the same order", () => {
    const o = parseOrderBy(CARDS, { orderBy: "number" });
    const cursor = encodeCursor(SET_CARDS, o, { __k0: 1, __k1: "1", __k2: "a" });
    expect(decodeCursor(cursor, SET_CARDS, o)).toEqual([1, "1", "a"]);
    expect(apiError(() => decodeCursor(cursor, CARDS, o)).code).toBe("INVALID_CURSOR");
  });
});

// ── keyset conditions, checked by evaluating the rendered SQL ───────────────
//
// A tiny evaluator for exactly the SQL keysetWhere produces (comparisons, IS [NOT] NULL, AND,
// OR, parentheses, casts), with SQL's three-valued logic. For every row of a list sorted by
// the contract's rules, the condition built from that row must keep exactly the rows after it.

type Value = string | number | null;
type Row = Record<string, Value>;

function evaluate(text: string, params: unknown[], row: Row): boolean | null {
  const tokens = text.match(/\$\d+|::\w+|>=|<=|[()<>=]|[\w.]+/g) ?? [];
  let i = 0;
  const peek = () => tokens[i];
  const next = () => tokens[i++]!;
  const operand = (): Value => {
    const t = next();
    let v: Value;
    if (t.startsWith("$")) v = params[Number(t.slice(1)) - 1] as Value;
    else if (t.startsWith("c.")) v = row[t.slice(2)] ?? null;
    else throw new Error(`unexpected operand ${t} in ${text}`);
    if (peek()?.startsWith("::")) next();
    return v;
  };
  const atom = (): boolean | null => {
    const t = peek();
    if (t === "(") { next(); const v = or(); if (next() !== ")") throw new Error(`unbalanced: ${text}`); return v; }
    if (t === "true" || t === "false") { next(); return t === "true"; }
    const left = operand();
    const op = next();
    if (op === "is") {
      const negated = peek() === "not";
      if (negated) next();
      if (next() !== "null") throw new Error(`bad IS in ${text}`);
      return negated ? left !== null : left === null;
    }
    const right = operand();
    if (left === null || right === null) return null;
    switch (op) {
      case "=": return left === right;
      case "<": return left < right;
      case ">": return left > right;
      case "<=": return left <= right;
      case ">=": return left >= right;
      default: throw new Error(`unknown operator ${op} in ${text}`);
    }
  };
  const and = (): boolean | null => {
    let v = atom();
    while (peek() === "and") { next(); const w = atom(); v = v === false || w === false ? false : v === null || w === null ? null : true; }
    return v;
  };
  const or = (): boolean | null => {
    let v = and();
    while (peek() === "or") { next(); const w = and(); v = v === true || w === true ? true : v === null || w === null ? null : false; }
    return v;
  };
  const result = or();
  if (i !== tokens.length) throw new Error(`trailing tokens in ${text}`);
  return result;
}

/** The contract's order, written independently of the code under test. */
function sortRows(rows: Row[], keys: { column: string; desc: boolean }[]): Row[] {
  return [...rows].sort((a, b) => {
    for (const { column, desc } of keys) {
      const x = a[column] ?? null;
      const y = b[column] ?? null;
      if (x === y) continue;
      // Nulls last ascending, first descending: a null is "greater" than every value.
      const cmp = x === null ? 1 : y === null ? -1 : x < y ? -1 : 1;
      return desc ? -cmp : cmp;
    }
    return 0;
  });
}

const ROWS: Row[] = [
  { id: "a", name: "Pikachu", hp: 60, number_sort: 1, number: "1", rarity: "Common" },
  { id: "b", name: "Raichu", hp: 90, number_sort: 1, number: "1S", rarity: null },
  { id: "c", name: "Pikachu", hp: null, number_sort: null, number: "?", rarity: "Rare" },
  { id: "d", name: "Mew", hp: 60, number_sort: 10, number: "10", rarity: null },
  { id: "e", name: "Abra", hp: null, number_sort: 2, number: "2", rarity: "Common" },
  { id: "f", name: "Mew", hp: 120, number_sort: null, number: "A", rarity: "Rare" },
  { id: "g", name: "Zubat", hp: 60, number_sort: 2, number: "02", rarity: "Common" },
  { id: "h", name: "Abra", hp: null, number_sort: 10, number: "10", rarity: null },
];

describe("keysetWhere", () => {
  const orders = [
    "id", "-id", "name", "-name", "hp", "-hp", "hp,-id", "-hp,-id", "number", "-number",
    "rarity,hp", "-rarity,hp", "rarity,-hp,-id", "-rarity,-hp", "name,-number", "-name,rarity,-hp",
  ];

  it.each(orders)("keeps exactly the rows after each row for orderBy=%s", (orderBy) => {
    const order = parseOrderBy(CARDS, { orderBy });
    const keys = order.columns.map((c) => ({ column: render(c.expr).sql.replace(/^c\./, ""), desc: c.desc }));
    const sorted = sortRows(ROWS, keys);
    sorted.forEach((current, index) => {
      // Through a real cursor, as a client would page.
      const cursor = encodeCursor(CARDS, order, Object.fromEntries(keys.map((k, i) => [`__k${i}`, current[k.column] ?? null])));
      const values = decodeCursor(cursor, CARDS, order);
      const { sql: text, params } = render(keysetWhere(order, values));
      const kept = sorted.filter((r) => evaluate(text, params, r) === true).map((r) => r.id);
      expect(kept, `after ${String(current.id)}: ${text}`).toEqual(sorted.slice(index + 1).map((r) => r.id));
    });
  });

  it("never puts a value inside the SQL text", () => {
    const order = parseOrderBy(CARDS, { orderBy: "name,-hp" });
    const { sql: text, params } = render(keysetWhere(order, ["x'); drop table cards; --", 5, "id'--"]));
    expect(text).not.toMatch(/drop|--|'/);
    expect(params).toContain("x'); drop table cards; --");
  });

  it("starts the scan at the cursor on a leading column that is never null", () => {
    expect(render(keysetWhere(parseOrderBy(CARDS, { orderBy: "name" }), ["Mew", "d"])).sql).toMatch(/^c\.name >= \$1::text and /);
    expect(render(keysetWhere(parseOrderBy(CARDS, { orderBy: "-name" }), ["Mew", "d"])).sql).toMatch(/^c\.name <= \$1::text and /);
    // A nullable leading column cannot be bounded that way: nulls come after every value.
    expect(render(keysetWhere(parseOrderBy(CARDS, { orderBy: "hp" }), [60, "d"])).sql).not.toMatch(/>=/);
  });

  it("reads nulls last ascending: after a null only nulls remain", () => {
    const { sql: text } = render(keysetWhere(parseOrderBy(CARDS, { orderBy: "hp" }), [null, "c"]));
    expect(text).toBe("((c.hp is null and c.id > $1::text))");
    const after60 = render(keysetWhere(parseOrderBy(CARDS, { orderBy: "hp" }), [60, "d"])).sql;
    expect(after60).toContain("c.hp > $1::int or c.hp is null");
  });

  it("reads nulls first descending: after a null every value follows", () => {
    const { sql: text } = render(keysetWhere(parseOrderBy(CARDS, { orderBy: "-hp" }), [null, "c"]));
    expect(text).toContain("c.hp is not null");
    const after60 = render(keysetWhere(parseOrderBy(CARDS, { orderBy: "-hp" }), [60, "d"])).sql;
    expect(after60).not.toContain("is null");
  });

  it("casts each value to its column type", () => {
    const o = parseOrderBy(CARDS, { orderBy: "release_date,-last_price_at,index_eur" }, new Set(["index"]));
    const text = render(keysetWhere(o, ["2020-01-01", "2020-01-01 00:00:00+00", 1.5, "a"])).sql;
    for (const cast of ["::date", "::timestamptz", "::float8", "::text"]) expect(text).toContain(cast);
  });

  it("keeps nothing after the last row of a descending unique order", () => {
    // -id: nothing sorts after the smallest id; the condition still parses and keeps no row.
    const order = parseOrderBy(CARDS, { orderBy: "-id" });
    const { sql: text, params } = render(keysetWhere(order, ["a"]));
    expect(ROWS.filter((r) => evaluate(text, params, r) === true)).toEqual([]);
  });
});
