import { describe, expect, it } from "vitest";
import { getJson } from "../helpers/api";
import { query, queryOne } from "../helpers/db";

// Cached catalogue answers follow the catalogue's version: a write that does not bump it is
// invisible (the cache is doing its job), and the next bump makes every instance re-read
// within a second.
describe("response cache", () => {
  it("serves a cached answer until the catalogue's version moves", async () => {
    const url = "/v1/sets/base1?lang=de";
    await query("insert into catalog_version (id, version) values (1, 1) on conflict (id) do nothing");
    const first = await getJson(url);
    expect(first.body.data.name).toBe("Grundset");
    expect(first.res.headers.get("x-cache")).toBe("MISS");
    const second = await getJson(url);
    expect(second.res.headers.get("x-cache")).toBe("HIT");
    expect(second.res.headers.get("etag")).toBe(first.res.headers.get("etag"));
    const { name } = await queryOne<{ name: string }>("select names->>'de' as name from sets where id = 'base1'");
    try {
      // Behind the importer's back: no change-log row.
      await query("update sets set names = jsonb_set(names, '{de}', '\"Grundset (cache test)\"') where id = 'base1'");
      expect((await getJson(url)).body.data.name).toBe("Grundset");
      await query("update catalog_version set version = version + 1");
      await new Promise((r) => setTimeout(r, 1100));
      expect((await getJson(url)).body.data.name).toBe("Grundset (cache test)");
    } finally {
      await query("update sets set names = jsonb_set(names, '{de}', to_jsonb($1::text)) where id = 'base1'", [name]);
      await query("update catalog_version set version = version + 1");
    }
  });
});
