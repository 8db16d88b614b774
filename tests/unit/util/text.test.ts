import { describe, expect, it } from "vitest";
import { fieldName, fold, formText, hasCjk, slugify, snake, wordKey, words } from "@/lib/util/text";

describe("fold", () => {
  it.each([
    ["Pokémon", "pokemon"],
    ["Flabébé", "flabebe"],
    ["ÉTINCELLES", "etincelles"],
    ["Ñandú", "nandu"],
    ["Ｐｉｋａｃｈｕ ＥＸ", "pikachu ex"],
    ["Ⅱ", "ii"],
  ])("folds %j to %j", (s, expected) => {
    expect(fold(s)).toBe(expected);
  });

  it("keeps Japanese voiced and semi-voiced marks, which are letters, not accents", () => {
    expect(fold("ドガース")).toBe("ドガース");
    expect(fold("ポッポ")).toBe("ポッポ");
    expect(fold("ガ")).not.toBe(fold("カ"));
    // A decomposed voiced kana is composed again.
    expect(fold("\u30AB\u3099")).toBe("ガ");
  });

  it("unifies half-width katakana with full-width", () => {
    expect(fold("ﾋﾟｶﾁｭｳ")).toBe("ピカチュウ");
  });

  it("leaves symbols that are not accents", () => {
    expect(fold("Nidoran♀")).toBe("nidoran♀");
  });
});

describe("words", () => {
  it.each([
    ["Pikachu-EX", ["pikachu", "ex"]],
    ["Mr. Mime", ["mr", "mime"]],
    ["Farfetch'd", ["farfetch", "d"]],
    ["  Dark   Charizard  ", ["dark", "charizard"]],
    ["Pokémon V-UNION", ["pokemon", "v", "union"]],
    ["N's Zoroark ex", ["n", "s", "zoroark", "ex"]],
    ["ピカチュウex", ["ピカチュウex"]],
    ["ドガース & マタドガス", ["ドガース", "マタドガス"]],
    ["---", []],
    ["", []],
  ])("splits %j into %j", (s, expected) => {
    expect(words(s)).toEqual(expected);
  });
});

describe("wordKey", () => {
  it("joins the folded words with single spaces", () => {
    expect(wordKey("  Pikachu  V-UNION!")).toBe("pikachu v union");
    expect(wordKey("Scarlet & Violet")).toBe("scarlet violet");
    expect(wordKey("!!!")).toBe("");
  });
});

describe("slugify", () => {
  it.each([
    ["Ken Sugimori", "ken-sugimori"],
    ["  5ban Graphics ", "5ban-graphics"],
    ["Kagemaru Himeno", "kagemaru-himeno"],
    ["Pokémon & Co.", "pokemon-co"],
    ["--a--b--", "a-b"],
    ["Mitsuhiro Arita", "mitsuhiro-arita"],
  ])("slugifies %j to %j", (s, expected) => {
    expect(slugify(s)).toBe(expected);
  });

  it("is empty when nothing Latin remains", () => {
    expect(slugify("杉森建")).toBe("");
    expect(slugify("ピカチュウ")).toBe("");
    expect(slugify("!!!")).toBe("");
  });

  it("gives accent and case variants the same slug", () => {
    expect(slugify("Kouki Saitō")).toBe(slugify("kouki saito"));
  });
});

describe("snake", () => {
  it.each([
    ["nationalPokedexNumbers", "national_pokedex_numbers"],
    ["releaseDate", "release_date"],
    ["indexEur", "index_eur"],
    ["release_date", "release_date"],
    ["id", "id"],
    ["Name", "name"],
    ["top10Cards", "top10_cards"],
    ["set.printRegion", "set.print_region"],
  ])("turns %s into %s", (s, expected) => {
    expect(snake(s)).toBe(expected);
  });
});

describe("fieldName", () => {
  const valid = ["id", "change_7d_pct", "change_30d_pct", "top10_cards", "index_eur"];
  it.each([
    ["change7dPct", "change_7d_pct"],
    ["change_7dPct", "change_7d_pct"],
    ["change30dPct", "change_30d_pct"],
    ["top10Cards", "top10_cards"],
    ["indexEur", "index_eur"],
    ["index_eur", "index_eur"],
    ["noSuchField", "no_such_field"],
  ])("finds %s as %s", (raw, expected) => {
    expect(fieldName(raw, valid)).toBe(expected);
  });
});

describe("hasCjk", () => {
  it.each([
    ["ピカチュウ", true],
    ["ぴかちゅう", true],
    ["皮卡丘", true],
    ["피카츄", true],
    ["ﾋﾟｶﾁｭｳ", true],
    ["Pikachu ex", false],
    ["Pokémon", false],
    ["", false],
  ])("hasCjk(%j) is %s", (s, expected) => {
    expect(hasCjk(s)).toBe(expected);
  });
});

describe("formText", () => {
  it("a form field's text, cut to its length; absent, a file or a value holding a NUL read as not given", () => {
    const form = new FormData();
    form.set("email", "a@example.com");
    form.set("long", "x".repeat(20));
    form.set("nul", "a\u0000b@example.com");
    form.set("file", new Blob(["x"]), "x.txt");
    expect([formText(form, "email"), formText(form, "long", 5), formText(form, "nul"), formText(form, "file"), formText(form, "none")])
      .toEqual(["a@example.com", "xxxxx", "", "", ""]);
  });
});
