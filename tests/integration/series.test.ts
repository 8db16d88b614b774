import { describe, expect, it } from "vitest";
import { getJson, walk } from "../helpers/api";
import { query } from "../helpers/db";
import { expectError, expectStrictOrder } from "../helpers/expect";

// GET /v1/series

type Series = { id: string; slug: string; name: string; set_count: number };

describe("GET /v1/series", () => {
  it("holds every series in one default page, sorted -set_count with slug as tiebreaker", async () => {
    const expected = await query<{ id: string; name: string; set_count: number }>(
      "select r.id, r.name, (select count(*)::int from sets s where s.series_id = r.id and s.deleted_at is null) as set_count from series r where r.deleted_at is null",
    );
    expect(expected.length).toBeGreaterThanOrEqual(17);
    const { res, body } = await getJson("/v1/series");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, max-age=86400");
    expect(body.meta).toEqual({ limit: 50, count: expected.length, total_count: expected.length, has_more: false });
    expect(body.links.next).toBeUndefined();
    const rows: Series[] = body.data;
    for (const r of rows) {
      expect(r.slug).toBe(r.id);
      const e = expected.find((x) => x.id === r.id)!;
      // set_count is the number of sets in the series, as the set list's filter sees them.
      expect({ id: r.id, name: r.name, set_count: r.set_count }).toEqual(e);
    }
    await expectStrictOrder(rows, [
      { get: (r) => r.set_count, desc: true },
      { get: (r) => r.slug, desc: false, text: true },
    ], (r) => `${r.slug}(${r.set_count})`);
  });

  it("set_count agrees with the set list's series filter", async () => {
    const { body } = await getJson("/v1/series?limit=5");
    for (const s of body.data as Series[]) {
      const bySlug = await getJson(`/v1/sets?series=${encodeURIComponent(s.slug)}&limit=1`);
      expect(bySlug.body.meta.total_count, s.slug).toBe(s.set_count);
    }
  });

  it("sorts by name and by slug, ties always closed by slug", async () => {
    const byName = await walk<Series>("/v1/series?orderBy=name&limit=5");
    await expectStrictOrder(byName.rows, [
      { get: (r) => r.name, desc: false, text: true },
      { get: (r) => r.slug, desc: false, text: true },
    ], (r) => r.slug);
    const bySlugDesc = await walk<Series>("/v1/series?order_by=-slug&limit=7");
    await expectStrictOrder(bySlugDesc.rows, [{ get: (r) => r.slug, desc: true, text: true }], (r) => r.slug);
    const total = (await getJson("/v1/series")).body.meta.total_count;
    expect(byName.rows).toHaveLength(total);
    expect(bySlugDesc.rows).toHaveLength(total);
  });

  it("under lang, sorts by the name it shows, pages in that order, and refuses another language's cursor", async () => {
    const all = (await getJson("/v1/series?lang=fr&orderBy=name&limit=250")).body.data as Series[];
    const paged = await walk<Series>("/v1/series?lang=fr&orderBy=name&limit=4");
    expect(paged.rows.map((r) => r.slug)).toEqual(all.map((r) => r.slug));
    await expectStrictOrder(all, [
      { get: (r) => r.name, desc: false, text: true },
      { get: (r) => r.slug, desc: false, text: true },
    ], (r) => `${r.slug}(${r.name})`);
    // French names really are in use (an English-ordered list would not be in this order).
    expect(all.find((r) => r.slug === "sword-shield")?.name).toBe("Épée et Bouclier");
    const first = await getJson("/v1/series?lang=fr&orderBy=name&limit=4");
    const next = new URL(first.body.links.next);
    next.searchParams.set("lang", "de");
    await expectError(`${next.pathname}${next.search}`, 400, "INVALID_CURSOR");
  });

  it("a series' name in any of its languages is accepted by the set list's series filter, and sets name it in their lang", async () => {
    const fr = (await getJson("/v1/series?lang=fr&limit=250")).body.data as Series[];
    const s = fr.find((r) => r.slug === "sword-shield")!;
    const bySlug = await getJson(`/v1/sets?series=${s.slug}&limit=1`);
    const byFrench = await getJson(`/v1/sets?series=${encodeURIComponent(s.name)}&lang=fr&limit=1`);
    expect(byFrench.body.meta.total_count).toBe(bySlug.body.meta.total_count);
    expect(byFrench.body.meta.total_count).toBeGreaterThan(0);
    expect(byFrench.body.data[0].series).toEqual({ id: s.id, name: s.name });
    const card = await getJson("/v1/cards/swsh1-1?lang=fr");
    expect(card.body.data.set.series).toEqual({ id: s.id, name: s.name });
  });

  it("rejects keys it cannot sort by", async () => {
    const { error } = await expectError("/v1/series?orderBy=card_count", 400, "INVALID_PARAMETER");
    expect(error.details!.valid_fields).toEqual(expect.arrayContaining(["set_count", "name", "slug"]));
  });
});
