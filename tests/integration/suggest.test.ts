import { describe, expect, it } from "vitest";
import { suggestCardNames } from "@/lib/catalog/suggest";
import { query } from "../helpers/db";
import { GET } from "@/app/(browse)/cards/suggest/route";

// The collector search's as-you-type names (lib/catalog/suggest.ts) against the imported catalogue.

const names = async (text: string) => (await suggestCardNames(text)).map((s) => s.name);

describe("suggestCardNames", () => {
  it("completes the start of a name: pikac → Pikachu first, and the names that hold it", async () => {
    const got = await suggestCardNames("pikac");
    expect(got[0]).toMatchObject({ name: "Pikachu", lang: null, q: 'name:"Pikachu"' });
    expect(got.length).toBeGreaterThan(1);
    expect(got.length).toBeLessThanOrEqual(8);
    for (const s of got) expect(s.name.toLowerCase()).toContain("pikachu");
  });

  it("is accent-insensitive and answers in the language that matched", async () => {
    expect(await names("flabe")).toContain("Flabébé");
    expect(await names("FLABÉ")).toContain("Flabébé");
    const fr = await suggestCardNames("dracau");
    expect(fr[0]).toMatchObject({ name: "Dracaufeu", lang: "fr" });
  });

  it("finds Japanese names, by any part of a word as q does for scripts without spaces", async () => {
    expect(await names("ピカ")).toContain("ピカチュウ");
    expect(await names("チュウ")).toContain("ピカチュウ");
  });

  it("narrows by the whole words typed before the last one", async () => {
    const got = await names("pikachu v");
    expect(got).toContain("Pikachu V");
    for (const n of got) expect(n.toLowerCase()).toMatch(/pikachu.*\bv/);
  });

  it("every suggestion's q finds cards of that name", async () => {
    const [first] = await suggestCardNames("mew");
    const [{ n } = { n: 0 }] = await query<{ n: number }>("select count(*)::int as n from cards where name = $1 and deleted_at is null", [first!.name]);
    expect(n).toBeGreaterThan(0);
  });

  it("answers nothing for one letter, for punctuation, or for what no name holds", async () => {
    expect(await suggestCardNames("p")).toEqual([]);
    expect(await suggestCardNames("  ")).toEqual([]);
    expect(await suggestCardNames("%_")).toEqual([]);
    expect(await suggestCardNames("zzqxj")).toEqual([]);
  });

  it("the route answers JSON, cacheable, with no key", async () => {
    const res = await GET(new Request("http://localhost/cards/suggest?q=pikac"));
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, max-age=300");
    const body = await res.json();
    expect(body.data[0].name).toBe("Pikachu");
  });
});
