import { describe, expect, it } from "vitest";
import { getJson, walk } from "../helpers/api";
import { count, query } from "../helpers/db";
import { expectError } from "../helpers/expect";

// GET /v1/artists and /v1/artists/{slug}

type Artist = { slug: string; name: string; card_count: number };

describe("GET /v1/artists", () => {
  it("finds an accented name from an unaccented query", async () => {
    const [a] = await query<{ slug: string; name: string }>("select slug, name from artists where slug = 'mekayu'");
    expect(a!.name).toBe("Mékayu");
    for (const q of ["mekayu", "MEKAYU", "Mékayu", "ékay"]) {
      const { res, body } = await getJson(`/v1/artists?q=${encodeURIComponent(q)}`);
      expect(res.status, q).toBe(200);
      expect(body.data.map((r: Artist) => r.name), q).toContain("Mékayu");
      expect(body.meta.total_count).toBe(body.data.length);
    }
  });

  it("total_count is exact: it equals the number of rows walked", async () => {
    for (const path of ["/v1/artists?limit=100", "/v1/artists?q=ken&limit=3", "/v1/artists?q=a&limit=250"]) {
      const first = await getJson(path);
      const { rows } = await walk<Artist>(path);
      expect(rows.length, path).toBe(first.body.meta.total_count);
      expect(new Set(rows.map((r) => r.slug)).size).toBe(rows.length);
    }
    const n = await count("select count(*)::int as n from artists where deleted_at is null");
    expect((await getJson("/v1/artists?limit=1")).body.meta.total_count).toBe(n);
  });

  it("card_count is the number of cards the artist drew", async () => {
    const { body } = await getJson("/v1/artists?limit=3");
    for (const a of body.data as Artist[]) {
      const n = await count(
        "select count(*)::int as n from cards where artist_slug = $1 and deleted_at is null", [a.slug],
      );
      expect(a.card_count, a.slug).toBe(n);
    }
  });

  it("an unmatched q gives an empty page with total_count 0", async () => {
    const { body } = await getJson("/v1/artists?q=zzzzzzzzqqq");
    expect(body.data).toEqual([]);
    expect(body.meta).toMatchObject({ count: 0, total_count: 0, has_more: false });
  });
});

describe("GET /v1/artists/{slug}", () => {
  it("answers one artist", async () => {
    const list = await getJson("/v1/artists?q=mekayu");
    const { res, body } = await getJson("/v1/artists/mekayu");
    expect(res.status).toBe(200);
    expect(body.data).toEqual(list.body.data[0]);
  });

  it("answers 404 ARTIST_NOT_FOUND for an unknown slug", async () => {
    await expectError("/v1/artists/no-such-artist", 404, "ARTIST_NOT_FOUND");
  });
});
