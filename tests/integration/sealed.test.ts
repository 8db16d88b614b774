import { describe, expect, it } from "vitest";
import { getJson, walk } from "../helpers/api";
import { query } from "../helpers/db";
import { expectError } from "../helpers/expect";

// GET /v1/sealed and /v1/sealed/{id}

type Sealed = { id: string; sku: string; slug: string; name: string; set: { id: string } | null };

describe("GET /v1/sealed", () => {
  it("pages the products", async () => {
    const { res, body } = await getJson("/v1/sealed?limit=5");
    expect(res.status).toBe(200);
    expect(body.data).toHaveLength(5);
    expect(body.meta).toMatchObject({ limit: 5, count: 5, has_more: true });
    expect(body.links.next).toBeDefined();
  });

  it("filters by set (any set identifier)", async () => {
    // The set with the most products that also has a printed code, asked for by that code.
    const [set] = await query<{ id: string; ptcgo_code: string; n: number }>(`
      select s.id, s.ptcgo_code, count(*)::int as n from sealed_products p join sets s on s.id = p.set_id
      where p.deleted_at is null and s.ptcgo_code is not null group by s.id, s.ptcgo_code order by n desc, s.id limit 1`);
    expect(set!.n).toBeGreaterThan(7);
    const { rows, pages } = await walk<Sealed>(`/v1/sealed?set=${set!.ptcgo_code}&limit=7`);
    expect(rows).toHaveLength(set!.n);
    expect(pages).toBe(Math.ceil(set!.n / 7));
    expect(new Set(rows.map((r) => r.slug)).size).toBe(set!.n);
    for (const r of rows) expect(r.set?.id).toBe(set!.id);
    await expectError("/v1/sealed?set=no-such-set", 404, "SET_NOT_FOUND");
  });
});

describe("GET /v1/sealed/{id}", () => {
  it("resolves by sku and by slug", async () => {
    const [p] = await query<{ slug: string; sku: string; name: string }>(
      "select slug, sku, name from sealed_products where set_id = 'base1' and deleted_at is null order by slug limit 1",
    );
    const bySlug = await getJson(`/v1/sealed/${encodeURIComponent(p!.slug)}`);
    expect(bySlug.res.status).toBe(200);
    expect(bySlug.body.data).toMatchObject({ slug: p!.slug, sku: p!.sku, name: p!.name });
    for (const id of [p!.sku, p!.sku.toLowerCase()]) {
      const bySku = await getJson(`/v1/sealed/${encodeURIComponent(id)}`);
      expect(bySku.res.status, id).toBe(200);
      expect(bySku.body.data).toEqual(bySlug.body.data);
    }
  });

  it("answers 404 SEALED_NOT_FOUND for an unknown product", async () => {
    await expectError("/v1/sealed/no-such-product", 404, "SEALED_NOT_FOUND");
  });
});
