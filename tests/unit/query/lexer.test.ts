import { describe, expect, it } from "vitest";
import { lex, QueryError, type Token } from "@/lib/query/lexer";

const types = (q: string) => lex(q).map((t) => t.type);
const simple = (q: string) => lex(q).filter((t) => t.type !== "EOF").map((t) => [t.type, t.text, t.pos] as const);

describe("lex", () => {
  it("ends every token list with EOF at the input length", () => {
    expect(lex("")).toEqual([{ type: "EOF", text: "", pos: 0 }]);
    expect(lex("   ")).toEqual([{ type: "EOF", text: "", pos: 3 }]);
    expect(lex("ab").at(-1)).toEqual({ type: "EOF", text: "", pos: 2 });
  });

  it("splits field:value into WORD COLON WORD with 0-based positions", () => {
    expect(simple("name:pikachu")).toEqual([["WORD", "name", 0], ["COLON", ":", 4], ["WORD", "pikachu", 5]]);
    expect(simple("  set.code:base1")).toEqual([["WORD", "set.code", 2], ["COLON", ":", 10], ["WORD", "base1", 11]]);
  });

  it("reads quoted phrases with backslash escapes and keeps their opening position", () => {
    const [t] = lex('x "a \\"b\\" \\\\ c"').slice(1);
    expect(t).toEqual({ type: "QUOTED", text: 'a "b" \\ c', pos: 2 });
    // Special characters lose their meaning inside quotes.
    expect(simple('"a:(b) [c TO d]"')).toEqual([["QUOTED", "a:(b) [c TO d]", 0]]);
    expect(simple('""')).toEqual([["QUOTED", "", 0]]);
  });

  it("rejects an unterminated quote at the position of the opening quote", () => {
    const err = catchQueryError(() => lex('name:"pikachu'));
    expect(err.position).toBe(5);
    expect(err.message).toMatch(/unterminated/i);
    // An escaped closing quote does not close the phrase.
    expect(catchQueryError(() => lex('"abc\\"')).position).toBe(0);
  });

  it("recognises the keywords and their symbolic spellings, upper case only", () => {
    expect(types("a AND b OR c NOT d")).toEqual(["WORD", "AND", "WORD", "OR", "WORD", "NOT", "WORD", "EOF"]);
    expect(types("a && b || c")).toEqual(["WORD", "AND", "WORD", "OR", "WORD", "EOF"]);
    expect(types("[1 TO 2]")).toEqual(["RANGE_OPEN", "WORD", "TO", "WORD", "RANGE_CLOSE", "EOF"]);
    // Lower-case spellings are plain words (Lucene rule).
    expect(types("and or not to")).toEqual(["WORD", "WORD", "WORD", "WORD", "EOF"]);
  });

  it("treats words that are Object.prototype members as plain words", () => {
    for (const w of ["constructor", "toString", "valueOf", "hasOwnProperty", "__proto__"]) {
      expect(simple(w)).toEqual([["WORD", w, 0]]);
    }
  });

  it("marks inclusive and exclusive range brackets", () => {
    const [open, , , , close] = lex("{1 TO 2]");
    expect(open).toMatchObject({ type: "RANGE_OPEN", inclusive: false });
    expect(close).toMatchObject({ type: "RANGE_CLOSE", inclusive: true });
    const [open2, , , , close2] = lex("[1 TO 2}");
    expect(open2).toMatchObject({ type: "RANGE_OPEN", inclusive: true });
    expect(close2).toMatchObject({ type: "RANGE_CLOSE", inclusive: false });
  });

  it("reads '-' and '!' as operators only where a clause starts", () => {
    expect(simple("-name:x")[0]).toEqual(["MINUS", "-", 0]);
    expect(simple("!name:x")[0]).toEqual(["BANG", "!", 0]);
    expect(types("a -b")).toEqual(["WORD", "MINUS", "WORD", "EOF"]);
    expect(types("(-a)")).toEqual(["LPAREN", "MINUS", "WORD", "RPAREN", "EOF"]);
    expect(types("-!a")).toEqual(["MINUS", "BANG", "WORD", "EOF"]);
    expect(types('-"a b"')).toEqual(["MINUS", "QUOTED", "EOF"]);
    expect(types("NOT -a")).toEqual(["NOT", "MINUS", "WORD", "EOF"]);
  });

  it("keeps hyphens and bangs inside words", () => {
    expect(simple("ex10-!")).toEqual([["WORD", "ex10-!", 0]]);
    expect(simple("number:1-5")).toEqual([["WORD", "number", 0], ["COLON", ":", 6], ["WORD", "1-5", 7]]);
    expect(simple("name:ho-oh")[2]).toEqual(["WORD", "ho-oh", 5]);
    // Right after a colon a '-' is part of the value (a negative number), not a NOT.
    expect(simple("hp:-5")[2]).toEqual(["WORD", "-5", 3]);
    // A '-' or '!' standing alone (followed by a space or the end) is a word, not an operator.
    expect(types("a - b")).toEqual(["WORD", "WORD", "WORD", "EOF"]);
    expect(types("a -")).toEqual(["WORD", "WORD", "EOF"]);
  });

  it("unescapes backslash-escaped special characters inside words", () => {
    expect(simple("name:a\\:b")).toEqual([["WORD", "name", 0], ["COLON", ":", 4], ["WORD", "a:b", 5]]);
    expect(simple("a\\(b\\)")).toEqual([["WORD", "a(b)", 0]]);
    expect(simple("a\\ b")).toEqual([["WORD", "a b", 0]]);
  });

  it("tokenises parentheses and brackets even without spaces", () => {
    expect(types("types:(fire OR water)")).toEqual(["WORD", "COLON", "LPAREN", "WORD", "OR", "WORD", "RPAREN", "EOF"]);
    expect(types("hp:[10 TO *}")).toEqual(["WORD", "COLON", "RANGE_OPEN", "WORD", "TO", "WORD", "RANGE_CLOSE", "EOF"]);
    const t: Token | undefined = lex("a)b")[1];
    expect(t).toEqual({ type: "RPAREN", text: ")", pos: 1 });
  });

  it("keeps wildcards inside words", () => {
    expect(simple("pika* name:pi?a")).toEqual([
      ["WORD", "pika*", 0], ["WORD", "name", 6], ["COLON", ":", 10], ["WORD", "pi?a", 11],
    ]);
  });
});

function catchQueryError(fn: () => unknown): QueryError {
  try {
    fn();
  } catch (err) {
    if (err instanceof QueryError) return err;
    throw err;
  }
  throw new Error("expected a QueryError");
}
