import { describe, expect, it } from "vitest";
import { etagOf, matchesIfNoneMatch } from "@/lib/api/etag";

describe("etagOf", () => {
  it("is a strong, quoted validator", () => {
    const tag = etagOf('{"data":[]}');
    expect(tag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(tag.startsWith("W/")).toBe(false);
  });

  it("is stable for the same body", () => {
    expect(etagOf('{"a":1}')).toBe(etagOf('{"a":1}'));
  });

  it("differs when a single byte differs", () => {
    const tags = ['{"a":1}', '{"a":2}', '{"a":1} ', '{ "a":1}', '{"A":1}', ""].map(etagOf);
    expect(new Set(tags).size).toBe(tags.length);
  });

  it("hashes the UTF-8 bytes of non-ASCII bodies", () => {
    expect(etagOf("Pokémon")).not.toBe(etagOf("Pokemon"));
    expect(etagOf("ピカチュウ")).toBe(etagOf("ピカチュウ"));
  });
});

describe("matchesIfNoneMatch", () => {
  const tag = etagOf("body");

  it("is false without a header", () => {
    expect(matchesIfNoneMatch(null, tag)).toBe(false);
    expect(matchesIfNoneMatch("", tag)).toBe(false);
  });

  it("matches the same tag", () => {
    expect(matchesIfNoneMatch(tag, tag)).toBe(true);
    expect(matchesIfNoneMatch(etagOf("other"), tag)).toBe(false);
  });

  it("finds the tag in a list, with or without spaces", () => {
    expect(matchesIfNoneMatch(`"x", ${tag}, "y"`, tag)).toBe(true);
    expect(matchesIfNoneMatch(`"x",${tag}`, tag)).toBe(true);
    expect(matchesIfNoneMatch(`"x", "y"`, tag)).toBe(false);
  });

  it("compares weakly: a W/ prefix on either side is ignored", () => {
    expect(matchesIfNoneMatch(`W/${tag}`, tag)).toBe(true);
    expect(matchesIfNoneMatch(`"x", W/${tag}`, tag)).toBe(true);
    expect(matchesIfNoneMatch(tag, `W/${tag}`)).toBe(true);
    expect(matchesIfNoneMatch(`W/"x"`, tag)).toBe(false);
  });

  it("matches '*' against any current representation", () => {
    expect(matchesIfNoneMatch("*", tag)).toBe(true);
    expect(matchesIfNoneMatch(` "x" , * `, tag)).toBe(true);
  });

  it("does not match the unquoted value or a substring of the tag", () => {
    expect(matchesIfNoneMatch(tag.slice(1, -1), tag)).toBe(false);
    expect(matchesIfNoneMatch(`"${tag.slice(2)}`, tag)).toBe(false);
  });
});
