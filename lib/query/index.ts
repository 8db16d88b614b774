import type { SQL } from "drizzle-orm";
import { ApiError } from "@/lib/api/errors";
import { QueryError, QueryValueError } from "./lexer";
import { parse, type Node } from "./parser";
import { compileCardQuery, MAX_NAME_PATTERNS, namePatterns, type CompileOptions } from "./to-sql";

export { QueryError, QueryValueError } from "./lexer";
export { parse, type Node, type Term, type Range } from "./parser";
export { CARD_LANGUAGES, FIELD_NAMES, PRINT_REGIONS } from "./fields";
export { BROAD_PATTERN_TERMS, namePatterns } from "./to-sql";

function asApiError(err: unknown): never {
  if (err instanceof QueryValueError) {
    throw new ApiError("INVALID_PARAMETER", err.message, {
      parameter: "q", field: err.field, value: err.near, valid_values: err.validValues, position: err.position,
    });
  }
  if (err instanceof QueryError) {
    throw new ApiError("INVALID_QUERY", err.message, { parameter: "q", position: err.position, near: err.near });
  }
  throw err;
}

/** Parses a card q; a bad query becomes 400 INVALID_QUERY with its position. */
export function parseCardQuery(q: string | undefined): Node | null {
  try {
    const ast = parse(q ?? "");
    const patterns = namePatterns(ast);
    if (patterns.length > MAX_NAME_PATTERNS) {
      throw new QueryError(`q may hold at most ${MAX_NAME_PATTERNS} name wildcards or CJK name terms.`, 0);
    }
    return ast;
  } catch (err) {
    return asApiError(err);
  }
}

/**
 * Compiles a parsed q to a WHERE fragment. A value that does not fit its field is INVALID_QUERY;
 * a value outside a closed vocabulary (region, language) is INVALID_PARAMETER.
 */
export function compileCardWhere(ast: Node | null, opts: CompileOptions = {}): SQL {
  try {
    return compileCardQuery(ast, opts);
  } catch (err) {
    return asApiError(err);
  }
}

/** Both steps at once, every wildcard expanded (the unit tests' view of the compiler). */
export function cardQuery(q: string | undefined): { ast: Node | null; where: SQL } {
  const ast = parseCardQuery(q);
  return { ast, where: compileCardWhere(ast) };
}

/** The number terms of a query (for the set route's empty-result hint). */
export function numberTerms(n: Node | null): string[] {
  if (!n) return [];
  switch (n.type) {
    case "term": return n.field === "number" ? [n.value] : [];
    case "range": return [];
    case "not": return [];
    default: return n.children.flatMap(numberTerms);
  }
}
