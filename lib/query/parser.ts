import { FIELD_NAMES, FIELDS, resolveField } from "./fields";
import { lex, QueryError, type Token, type TokenType } from "./lexer";

// Recursive descent over the tokens, Lucene style:
//   query   := or EOF
//   or      := and (OR and)*
//   and     := unary (AND? unary)*          juxtaposition means AND
//   unary   := (NOT | '-') unary | primary
//   primary := '(' or ')' | clause
//   clause  := '!'? field ':' value | '!'? (word | "phrase")     a bare term searches name
//   value   := word | "phrase" | range | '(' values of the same field ')'
//   range   := ('[' | '{') bound TO bound (']' | '}')           '*' leaves a side open

export type Term = {
  type: "term"; field: string; value: string; quoted: boolean; exact: boolean; pos: number;
};
export type Range = {
  type: "range"; field: string; lo: string | null; hi: string | null; loInclusive: boolean; hiInclusive: boolean; pos: number;
};
export type Node =
  | Term
  | Range
  | { type: "and"; children: Node[] }
  | { type: "or"; children: Node[] }
  | { type: "not"; child: Node };

const MAX_LENGTH = 1000;
const MAX_DEPTH = 32;
const MAX_CLAUSES = 64;

export function parse(input: string): Node | null {
  if (input.length > MAX_LENGTH) throw new QueryError(`q is limited to ${MAX_LENGTH} characters.`, MAX_LENGTH);
  const tokens = lex(input);
  if (tokens.length === 1) return null;
  return new Parser(tokens).parseQuery();
}

class Parser {
  private i = 0;
  private depth = 0;
  private clauses = 0;
  constructor(private readonly tokens: Token[]) {}

  private peek(): Token {
    return this.tokens[this.i]!;
  }
  private next(): Token {
    return this.tokens[this.i++]!;
  }
  private expect(type: TokenType, what: string): Token {
    const t = this.peek();
    if (t.type !== type) throw new QueryError(`Expected ${what}${t.type === "EOF" ? " before the end" : ` at '${t.text}'`}.`, t.pos, t.text);
    return this.next();
  }

  parseQuery(): Node {
    const node = this.parseOr(null);
    const t = this.peek();
    if (t.type !== "EOF") throw new QueryError(`Unexpected '${t.text}'.`, t.pos, t.text);
    return node;
  }

  private enter(pos: number) {
    if (++this.depth > MAX_DEPTH) throw new QueryError("q is nested too deeply.", pos);
  }

  /** `field` is set inside `field:( … )`, where clauses are bare values of that field. */
  private parseOr(field: string | null): Node {
    const children = [this.parseAnd(field)];
    while (this.peek().type === "OR") {
      this.next();
      children.push(this.parseAnd(field));
    }
    return children.length === 1 ? children[0]! : { type: "or", children };
  }

  private parseAnd(field: string | null): Node {
    const children = [this.parseUnary(field)];
    for (;;) {
      const t = this.peek();
      if (t.type === "AND") { this.next(); children.push(this.parseUnary(field)); continue; }
      if (t.type === "EOF" || t.type === "OR" || t.type === "RPAREN") break;
      children.push(this.parseUnary(field));
    }
    return children.length === 1 ? children[0]! : { type: "and", children };
  }

  private parseUnary(field: string | null): Node {
    const t = this.peek();
    if (t.type === "NOT" || t.type === "MINUS") {
      this.next();
      this.enter(t.pos);
      const child = this.parseUnary(field);
      this.depth--;
      return { type: "not", child };
    }
    return this.parsePrimary(field);
  }

  private parsePrimary(field: string | null): Node {
    const t = this.peek();
    if (t.type === "LPAREN") {
      this.next();
      this.enter(t.pos);
      const inner = this.parseOr(field);
      this.depth--;
      this.expect("RPAREN", "')'");
      return inner;
    }
    if (++this.clauses > MAX_CLAUSES) throw new QueryError(`q may hold at most ${MAX_CLAUSES} clauses.`, t.pos, t.text);
    const exact = t.type === "BANG";
    if (exact) this.next();
    if (field) return this.parseValue(field, exact, this.peek().pos);
    const head = this.peek();
    if (head.type === "WORD" && this.tokens[this.i + 1]?.type === "COLON") {
      this.next();
      this.next();
      const resolved = resolveField(head.text);
      if (!resolved) {
        throw new QueryError(`Unknown field '${head.text}'. Known fields: ${FIELD_NAMES.join(", ")}.`, head.pos, head.text);
      }
      const v = this.peek();
      if (v.type === "LPAREN") {
        this.next();
        this.enter(v.pos);
        const inner = this.parseOr(resolved);
        this.depth--;
        this.expect("RPAREN", "')'");
        return exact ? markExact(inner) : inner;
      }
      return this.parseValue(resolved, exact, head.pos);
    }
    if (head.type === "WORD" || head.type === "QUOTED") {
      this.next();
      return { type: "term", field: "name", value: head.text, quoted: head.type === "QUOTED", exact, pos: head.pos };
    }
    throw new QueryError(head.type === "EOF" ? "q ends where a search term was expected." : `Unexpected '${head.text}'.`, head.pos, head.text);
  }

  private parseValue(field: string, exact: boolean, pos: number): Node {
    const t = this.peek();
    if (t.type === "WORD" || t.type === "QUOTED") {
      this.next();
      return { type: "term", field, value: t.text, quoted: t.type === "QUOTED", exact, pos };
    }
    if (t.type === "RANGE_OPEN") return this.parseRange(field, pos);
    throw new QueryError(t.type === "EOF" ? `Field '${field}' needs a value.` : `Unexpected '${t.text}' as the value of '${field}'.`, t.pos, t.text);
  }

  private parseRange(field: string, pos: number): Range {
    const open = this.next();
    if (!FIELDS[field]!.ranges) throw new QueryError(`Field '${field}' does not take ranges.`, open.pos, open.text);
    const bound = () => {
      const b = this.peek();
      if (b.type !== "WORD" && b.type !== "QUOTED") throw new QueryError("Expected a range bound.", b.pos, b.text);
      this.next();
      return b.type === "WORD" && b.text === "*" ? null : b.text;
    };
    const lo = bound();
    this.expect("TO", "'TO'");
    const hi = bound();
    const close = this.expect("RANGE_CLOSE", "']' or '}'");
    return { type: "range", field, lo, hi, loInclusive: !!open.inclusive, hiInclusive: !!close.inclusive, pos };
  }
}

function markExact(n: Node): Node {
  switch (n.type) {
    case "term": return { ...n, exact: true };
    case "range": return n;
    case "not": return { type: "not", child: markExact(n.child) };
    default: return { type: n.type, children: n.children.map(markExact) };
  }
}
