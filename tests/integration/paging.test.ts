import { describe, expect, it } from "vitest";
import { getJson } from "../helpers/api";
import { count, query } from "../helpers/db";
import { expectError, expectStrictOrder, numericPart, type SortKey } from "../helpers/expect";

// Paging proofs (SPEC.md Pagination): a whole collection walked by cursor in small pages, under
// several orders, against one big page of the same order. No row repeats, none is dropped,
// the sequence follows the order with its null rules, and the cursor is bound to its order.

type Row = Record<string, any>;

/** Follows links.next, checking each page's envelope; returns the rows in order and the page sizes. */
async function walkPages(first: string, limit: number, opts: { totalCount: boolean }): Promise<{ rows: Row[]; sizes: number[] }> {
  const rows: Row[] = [];
  const sizes: number[] = [];
  let next: string | undefined = first;
  while (next) {
    const { res, body }: { res: Response; body: any } = await getJson(next);
    expect(res.status, next).toBe(200);
    expect(body.meta.limit).toBe(limit);
    expect(body.meta.count).toBe(body.data.length);
    expect(body.meta.has_more).toBe(Boolean(body.links.next));
    if (opts.totalCount) expect(typeof body.meta.total_count).toBe("number");
    else expect(body.meta).not.toHaveProperty("total_count");
    if (body.meta.has_more) expect(body.data).toHaveLength(limit);
    rows.push(...body.data);
    sizes.push(body.data.length);
    next = body.links.next;
    if (sizes.length > 1000) throw new Error("runaway paging");
  }
  return { rows, sizes };
}

const asc = false;
const desc = true;
const text = true;

// Card sort keys as SPEC.md defines them; `number` is the numeric part, then the printed text.
const CARD_KEYS: Record<string, (d: boolean) => SortKey<Row>[]> = {
  id: (d) => [{ get: (r) => r.id, desc: d, text }],
  name: (d) => [{ get: (r) => r.name, desc: d, text }],
  number: (d) => [{ get: (r) => numericPart(r.number), desc: d }, { get: (r) => r.number, desc: d, text }],
  rarity: (d) => [{ get: (r) => r.rarity, desc: d, text }],
  hp: (d) => [{ get: (r) => r.hp, desc: d }],
  release_date: (d) => [{ get: (r) => r.release_date, desc: d }],
  updated_at: (d) => [{ get: (r) => r.updated_at, desc: d }],
  artist: (d) => [{ get: (r) => r.artist, desc: d, text }],
  set: (d) => [{ get: (r) => r.set.id, desc: d, text }],
};

/** The keys of an orderBy, with the id tiebreaker appended as SPEC.md says. */
function cardOrder(orderBy: string): SortKey<Row>[] {
  const terms = orderBy.split(",").map((t) => ({ key: t.replace(/^-/, ""), d: t.startsWith("-") }));
  if (!terms.some((t) => t.key === "id")) terms.push({ key: "id", d: false });
  return terms.flatMap((t) => CARD_KEYS[t.key]!(t.d));
}

const CARD_SELECT = "select=name,number,rarity,hp,release_date,updated_at,artist,set";

/** Spelled out for the first key of an order: nulls last ascending, first descending. */
function expectNullPlacement(rows: Row[], orderBy: string) {
  const first = cardOrder(orderBy)[0]!;
  const nulls = rows.map((r) => first.get(r) === null);
  expect(nulls, `${orderBy}: the data has nulls`).toContain(true);
  expect(nulls, `${orderBy}: the data has values`).toContain(false);
  if (first.desc) expect(nulls.lastIndexOf(true)).toBeLessThan(nulls.indexOf(false));
  else expect(nulls.indexOf(true)).toBeGreaterThan(nulls.lastIndexOf(false));
}

async function proveCardWalk(base: string, orderBy: string, expected: number) {
  const sep = base.includes("?") ? "&" : "?";
  const small = await walkPages(`${base}${sep}${CARD_SELECT}&orderBy=${orderBy}&limit=7`, 7, { totalCount: false });
  const big = await walkPages(`${base}${sep}${CARD_SELECT}&orderBy=${orderBy}&limit=250`, 250, { totalCount: false });
  const ids = small.rows.map((r) => r.id);
  expect(new Set(ids).size, `${orderBy}: repeated rows`).toBe(ids.length);
  expect(ids.length, `${orderBy}: rows dropped`).toBe(expected);
  expect(small.sizes.length).toBe(Math.ceil(expected / 7));
  // The same order whatever the page size.
  expect(ids).toEqual(big.rows.map((r) => r.id));
  await expectStrictOrder(small.rows, cardOrder(orderBy), (r) => `${r.id}`);
  return small.rows;
}

describe("card lists walk completely under every order", () => {
  const ORDERS = ["number", "-number", "name", "-hp", "rarity,-hp", "release_date,-name", "artist", "-updated_at", "-id", "set,-number"];

  it.each(ORDERS)("sv3pt5 cards by %s", async (orderBy) => {
    const n = await count("select count(*)::int as n from cards where set_id = 'sv3pt5' and deleted_at is null");
    const [set] = await query<{ card_count: number }>("select card_count from sets where id = 'sv3pt5'");
    expect(n).toBe(set!.card_count);
    expect(n).toBeGreaterThan(200);
    await proveCardWalk("/v1/sets/sv3pt5/cards", orderBy, n);
  });

  it("the default order of a set's cards is number", async () => {
    const dflt = await walkPages(`/v1/sets/sv3pt5/cards?${CARD_SELECT}&limit=50`, 50, { totalCount: false });
    const byNumber = await walkPages(`/v1/sets/sv3pt5/cards?${CARD_SELECT}&orderBy=number&limit=250`, 250, { totalCount: false });
    expect(dflt.rows.map((r) => r.id)).toEqual(byNumber.rows.map((r) => r.id));
  });

  // A set (found in the data) where some cards have no HP, no artist or no numeric part in their number.
  it.each(["number", "-number", "hp", "-hp,name", "-artist,name"])("a set full of nulls, by %s", async (orderBy) => {
    const [set] = await query<{ set_id: string; n: number }>(`
      select set_id, count(*)::int as n from cards where deleted_at is null group by set_id
      having count(*) filter (where number ~ '^[^0-9]*$') > 0 and count(*) filter (where hp is null) > 0
        and count(*) filter (where artist is null) > 0 and count(*) filter (where rarity is null) > 0
        and count(*) filter (where hp is not null) > 0 and count(*) > 100
      order by count(*) desc, set_id limit 1`);
    expect(set).toBeDefined();
    const rows = await proveCardWalk(`/v1/sets/${set!.set_id}/cards`, orderBy, set!.n);
    expectNullPlacement(rows, orderBy);
  });

  it.each(["release_date,-name", "-release_date", "name", "set,-number"])("a search across sets (name:pikachu) by %s", async (orderBy) => {
    const n = await count("select count(*)::int as n from cards where deleted_at is null and 'pikachu' = any(name_terms)");
    expect(n).toBeGreaterThan(100);
    const rows = await proveCardWalk("/v1/cards?q=name:pikachu", orderBy, n);
    expect(new Set(rows.map((r) => r.release_date)).size).toBeGreaterThan(1);
  });

  it.each(["rarity,-hp", "-rarity", "-artist,-release_date"])("a search across sets with some nulls (name:pikachu) by %s", async (orderBy) => {
    const n = await count("select count(*)::int as n from cards where deleted_at is null and 'pikachu' = any(name_terms)");
    const rows = await proveCardWalk("/v1/cards?q=name:pikachu", orderBy, n);
    expectNullPlacement(rows, orderBy);
  });
});

describe("other lists walk completely", () => {
  it.each([
    ["-card_count", [{ get: (r: Row) => r.card_count, desc }]],
    ["name", [{ get: (r: Row) => r.name, desc: asc, text }]],
    ["-slug", [{ get: (r: Row) => r.slug, desc, text }]],
  ] as const)("artists by %s", async (orderBy, keys) => {
    const n = await count("select count(*)::int as n from artists where deleted_at is null");
    const small = await walkPages(`/v1/artists?orderBy=${orderBy}&limit=37`, 37, { totalCount: true });
    const big = await walkPages(`/v1/artists?orderBy=${orderBy}&limit=250`, 250, { totalCount: true });
    const slugs = small.rows.map((r) => r.slug);
    expect(new Set(slugs).size).toBe(n);
    expect(slugs).toHaveLength(n);
    expect(slugs).toEqual(big.rows.map((r) => r.slug));
    const tiebreak = orderBy === "-slug" ? [] : [{ get: (r: Row) => r.slug, desc: asc, text }];
    await expectStrictOrder(small.rows, [...keys, ...tiebreak], (r) => r.slug);
  });

  it("artists default to -card_count", async () => {
    const dflt = await getJson("/v1/artists?limit=20");
    const explicit = await getJson("/v1/artists?orderBy=-card_count&limit=20");
    expect(dflt.body.data).toEqual(explicit.body.data);
  });

  it.each(["-release_date", "name", "-card_count,name", "series,-printed_total"])("sets by %s", async (orderBy) => {
    const n = await count("select count(*)::int as n from sets where deleted_at is null");
    const small = await walkPages(`/v1/sets?orderBy=${orderBy}&limit=37`, 37, { totalCount: true });
    const big = await walkPages(`/v1/sets?orderBy=${orderBy}&limit=250`, 250, { totalCount: true });
    const codes = small.rows.map((r) => r.code);
    expect(new Set(codes).size).toBe(n);
    expect(codes).toEqual(big.rows.map((r) => r.code));
    const get: Record<string, (r: Row) => string | number | null> = {
      release_date: (r) => r.release_date, name: (r) => r.name, card_count: (r) => r.card_count,
      series: (r) => r.series.id, printed_total: (r) => r.printed_total,
    };
    const keys: SortKey<Row>[] = orderBy.split(",").map((t) => {
      const k = t.replace(/^-/, "");
      return { get: get[k]!, desc: t.startsWith("-"), text: ["name", "series"].includes(k) };
    });
    await expectStrictOrder(small.rows, [...keys, { get: (r) => r.code, desc: asc, text }], (r) => r.code);
  });

  it("sets default to -release_date", async () => {
    const dflt = await getJson("/v1/sets?limit=30");
    const explicit = await getJson("/v1/sets?orderBy=-release_date&limit=30");
    expect(dflt.body.data).toEqual(explicit.body.data);
  });
});

describe("cursor, limit and orderBy rules", () => {
  async function nextCursor(path: string): Promise<string> {
    const { body } = await getJson(path);
    const next = new URL(body.links.next);
    return next.searchParams.get("cursor")!;
  }

  it("a cursor is refused under another orderBy", async () => {
    const cursor = await nextCursor("/v1/sets/sv3pt5/cards?orderBy=name&limit=5");
    const { res } = await getJson(`/v1/sets/sv3pt5/cards?orderBy=name&limit=5&cursor=${cursor}`);
    expect(res.status).toBe(200);
    await expectError(`/v1/sets/sv3pt5/cards?orderBy=-hp&limit=5&cursor=${cursor}`, 400, "INVALID_CURSOR");
    await expectError(`/v1/sets/sv3pt5/cards?orderBy=-name&limit=5&cursor=${cursor}`, 400, "INVALID_CURSOR");
    // The default order is an order too.
    await expectError(`/v1/sets/sv3pt5/cards?limit=5&cursor=${cursor}`, 400, "INVALID_CURSOR");
    const setCursor = await nextCursor("/v1/sets?limit=5");
    await expectError(`/v1/sets?orderBy=name&cursor=${setCursor}`, 400, "INVALID_CURSOR");
    // Nor does a cursor of one list open another.
    await expectError(`/v1/artists?cursor=${setCursor}`, 400, "INVALID_CURSOR");
    await expectError(`/v1/cards?cursor=${await nextCursor("/v1/sets/sv3pt5/cards?orderBy=id&limit=2")}&orderBy=id`, 400, "INVALID_CURSOR");
    // Nor one set's cards another set's: it skipped that set's first rows unseen.
    await expectError(`/v1/sets/base1/cards?limit=5&cursor=${await nextCursor("/v1/sets/sv3pt5/cards?limit=5")}`, 400, "INVALID_CURSOR");
    // The same set by another of its names is the same list.
    const byCode = await nextCursor("/v1/sets/MEW/cards?limit=5");
    expect((await getJson(`/v1/sets/sv3pt5/cards?limit=5&cursor=${byCode}`)).res.status).toBe(200);
  });

  it("a garbage cursor is INVALID_CURSOR", async () => {
    const forged = Buffer.from(JSON.stringify({ r: "cards", o: "id", k: [{ $ne: 1 }] })).toString("base64url");
    for (const c of ["garbage!", "eyJ4IjoxfQ", "%00", "bm90IGpzb24", forged, "a".repeat(300)]) {
      await expectError(`/v1/cards?cursor=${encodeURIComponent(c)}`, 400, "INVALID_CURSOR");
    }
  });

  it("page and offset are refused with did_you_mean cursor", async () => {
    for (const p of ["page=2", "offset=10"]) {
      const { error } = await expectError(`/v1/cards?${p}`, 400, "INVALID_PARAMETER");
      expect(error.details!.did_you_mean).toBe("cursor");
    }
  });

  it("limit must be an integer from 1 to 250", async () => {
    for (const l of ["0", "abc", "1.5", "-1", ""]) await expectError(`/v1/cards?limit=${l}`, 400, "INVALID_PARAMETER");
    const { error } = await expectError("/v1/cards?limit=251", 400, "LIMIT_EXCEEDED");
    expect(error.details).toMatchObject({ max: 250, requested: 251 });
    for (const path of ["/v1/sets?limit=251", "/v1/series?limit=251", "/v1/artists?limit=251", "/v1/sets/sv3pt5/cards?limit=251", "/v1/sealed?limit=251"]) {
      const e = await expectError(path, 400, "LIMIT_EXCEEDED");
      expect(e.error.details).toMatchObject({ max: 250, requested: 251 });
    }
    const { body } = await getJson("/v1/cards?limit=250&select=name");
    expect(body.data).toHaveLength(250);
    expect(body.meta.limit).toBe(250);
  });

  it("orderBy takes at most four keys and only known ones", async () => {
    const four = await getJson("/v1/cards?orderBy=name,-hp,rarity,number&limit=3&select=name");
    expect(four.res.status).toBe(200);
    await expectError("/v1/cards?orderBy=name,-hp,rarity,number,artist", 400, "INVALID_PARAMETER");
    const { error } = await expectError("/v1/cards?orderBy=colour", 400, "INVALID_PARAMETER");
    // The card sort keys listed by the service are exactly SPEC.md's, on both card lists.
    const spec = ["id", "name", "number", "rarity", "hp", "index_eur", "last_price_at", "updated_at", "created_at", "release_date", "set", "artist"];
    expect([...(error.details!.valid_fields as string[])].sort()).toEqual([...spec].sort());
    const inSet = await expectError("/v1/sets/sv3pt5/cards?orderBy=colour", 400, "INVALID_PARAMETER");
    expect([...(inSet.error.details!.valid_fields as string[])].sort()).toEqual([...spec].sort());
  });

  it("order_by is the same parameter as orderBy", async () => {
    const a = await getJson("/v1/sets/sv3pt5/cards?orderBy=-hp,name&limit=20&select=hp,name");
    const b = await getJson("/v1/sets/sv3pt5/cards?order_by=-hp,name&limit=20&select=hp,name");
    expect(b.res.status).toBe(200);
    expect(b.body.data).toEqual(a.body.data);
    const sets = await getJson("/v1/sets?order_by=name&limit=5");
    expect(sets.body.data).toEqual((await getJson("/v1/sets?orderBy=name&limit=5")).body.data);
    // Its cursor carries on in the same order.
    const walked = await walkPages("/v1/sets/sv3pt5/cards?order_by=-hp,name&limit=20&select=hp,name", 20, { totalCount: false });
    await expectStrictOrder(walked.rows, cardOrder("-hp,name"), (r) => r.id);
  });

  it("naming the tiebreaker only sets its direction", async () => {
    const up = await walkPages("/v1/sets/sv3pt5/cards?orderBy=id&limit=100&select=name", 100, { totalCount: false });
    const down = await walkPages("/v1/sets/sv3pt5/cards?orderBy=-id&limit=100&select=name", 100, { totalCount: false });
    expect(down.rows.map((r) => r.id)).toEqual(up.rows.map((r) => r.id).reverse());
    // Named first, it still comes last: hp decides, then id descending.
    const first = await walkPages("/v1/sets/sv3pt5/cards?orderBy=-id,hp&limit=100&select=hp", 100, { totalCount: false });
    await expectStrictOrder(first.rows, cardOrder("hp,-id"), (r) => r.id);
    const artists = await getJson("/v1/artists?orderBy=-slug,name&limit=250");
    const names = artists.body.data.map((a: { name: string }) => a.name);
    expect(names).toEqual([...names].sort((a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)));
  });
});
