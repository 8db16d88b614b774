// Tokens of the q language. Positions are 0-based offsets into the original string, so an
// error can point at the character that broke it.

export type TokenType =
  | "WORD" | "QUOTED" | "COLON" | "LPAREN" | "RPAREN" | "RANGE_OPEN" | "RANGE_CLOSE"
  | "MINUS" | "BANG" | "AND" | "OR" | "NOT" | "TO" | "EOF";

export type Token = { type: TokenType; text: string; pos: number; inclusive?: boolean };

export class QueryError extends Error {
  override name = "QueryError";
  constructor(message: string, readonly position: number, readonly near?: string) {
    super(message);
  }
}

/**
 * A well-formed q whose value lies outside its field's vocabulary (`set.region:XX`,
 * `languages:xx`): the same mistake as `region=XX` in its own parameter, so the same answer,
 * 400 INVALID_PARAMETER with the valid values, not a syntax error.
 */
export class QueryValueError extends QueryError {
  override name = "QueryValueError";
  constructor(message: string, position: number, near: string, readonly field: string, readonly validValues: readonly string[]) {
    super(message, position, near);
  }
}

const SPECIAL = new Set(["(", ")", "[", "]", "{", "}", ":", '"']);
const KEYWORDS: Record<string, TokenType> = { AND: "AND", OR: "OR", NOT: "NOT", TO: "TO", "&&": "AND", "||": "OR" };

export function lex(input: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  // A '-' or '!' is an operator only where a new clause starts, so `1-5` or `ex10-!` stay words.
  const atClauseStart = () => {
    const prev = tokens[tokens.length - 1];
    return !prev || ["LPAREN", "AND", "OR", "NOT", "MINUS", "BANG"].includes(prev.type) || /\s/.test(input[i - 1] ?? " ");
  };
  while (i < input.length) {
    const ch = input[i]!;
    if (/\s/.test(ch)) { i++; continue; }
    const pos = i;
    if (ch === "(") { tokens.push({ type: "LPAREN", text: ch, pos }); i++; continue; }
    if (ch === ")") { tokens.push({ type: "RPAREN", text: ch, pos }); i++; continue; }
    if (ch === "[" || ch === "{") { tokens.push({ type: "RANGE_OPEN", text: ch, pos, inclusive: ch === "[" }); i++; continue; }
    if (ch === "]" || ch === "}") { tokens.push({ type: "RANGE_CLOSE", text: ch, pos, inclusive: ch === "]" }); i++; continue; }
    if (ch === ":") { tokens.push({ type: "COLON", text: ch, pos }); i++; continue; }
    if (ch === '"') {
      let j = i + 1;
      let text = "";
      while (j < input.length && input[j] !== '"') {
        if (input[j] === "\\" && j + 1 < input.length) { text += input[j + 1]; j += 2; continue; }
        text += input[j];
        j++;
      }
      if (j >= input.length) throw new QueryError("Unterminated quoted phrase.", pos, input.slice(pos, pos + 20));
      tokens.push({ type: "QUOTED", text, pos });
      i = j + 1;
      continue;
    }
    if ((ch === "-" || ch === "!") && atClauseStart() && i + 1 < input.length && !/\s/.test(input[i + 1]!)) {
      tokens.push({ type: ch === "-" ? "MINUS" : "BANG", text: ch, pos });
      i++;
      continue;
    }
    let j = i;
    while (j < input.length && !/\s/.test(input[j]!) && !SPECIAL.has(input[j]!)) {
      if (input[j] === "\\" && j + 1 < input.length) j++; // escaped special character
      j++;
    }
    const raw = input.slice(i, j);
    const text = raw.replace(/\\(.)/g, "$1");
    // Own keys only: a word such as `constructor` or `toString` must not find Object.prototype.
    tokens.push({ type: Object.hasOwn(KEYWORDS, raw) ? KEYWORDS[raw]! : "WORD", text, pos });
    i = j;
  }
  tokens.push({ type: "EOF", text: "", pos: input.length });
  return tokens;
}
