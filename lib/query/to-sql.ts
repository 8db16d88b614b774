import { sql, type SQL } from "drizzle-orm";
import { NORMALIZE_NUMBER_SQL, normalizeNumber, numberSort } from "@/lib/util/numbers";
import { escapeLike, fold, hasCjk, wordKey, words } from "@/lib/util/text";
import { asciiUpper, identifierKey, isAscii, printedCodeKey } from "@/lib/catalog/queries/identifiers";
import { CARD_LANGUAGES, FIELDS, PRINT_REGIONS } from "./fields";
import { QueryError, QueryValueError } from "./lexer";
import type { Node, Range, Term } from "./parser";

// AST → a parameterised WHERE fragment over `cards c`. Every value the user typed travels as
// a bind parameter; the only SQL text produced here is fixed. Field semantics:
//   name        words of the card's names in every language; `char*` matches any word
//               starting with char; "a b" is a phrase; !name:x is the whole name.
//   artist, set.name   the same over the artist's or the set's names.
//   rarity, supertype, regulation_mark, id, set.code, set.series   the printed value,
//               whole and case-insensitive; * and ? are wildcards.
//   types, subtypes, languages   one of the printed values, same rules.
//   hp, national_pokedex_numbers, release_date, number   also ranges and >, >=, <, <=.
//   index_eur (price)   the composite index in EUR, a number with up to 2 decimals: price:>=10,
//               price:[5 TO 20], price:* (has an index); a card without an index matches no bound.

/** Name patterns that match this many dictionary words or more are scanned, not expanded. */
export const BROAD_PATTERN_TERMS = 300;
export const MAX_NAME_PATTERNS = 8;

export type CompileOptions = {
  /** LIKE patterns of name wildcards known to expand to BROAD_PATTERN_TERMS words or more. */
  broad?: ReadonlySet<string>;
  /** Price terms on the trial's index (the rows the trial is shown), not the catalogue's. */
  trialIndex?: boolean;
};

let options: CompileOptions = {};

export function compileCardQuery(node: Node | null, opts: CompileOptions = {}): SQL {
  options = opts;
  try {
    return node ? compile(node) : sql`true`;
  } finally {
    options = {};
  }
}

/**
 * The dictionary patterns a query's name wildcards and CJK terms look up, in the order met.
 * Their expansion is counted before compiling (see compileCardQuery's `broad`).
 */
export function namePatterns(node: Node | null): string[] {
  const out: string[] = [];
  const walk = (n: Node) => {
    if (n.type === "and" || n.type === "or") n.children.forEach(walk);
    else if (n.type === "not") walk(n.child);
    else if (n.type === "term" && n.field === "name") out.push(...termPatterns(n));
  };
  if (node) walk(node);
  return out;
}

function termPatterns(t: Term): string[] {
  if (isWildcard(t)) {
    const glob = fold(t.value).replace(/[^\p{L}\p{N}*?]+/gu, "");
    return glob.replace(/[*?]/g, "") ? [likePattern(glob)] : [];
  }
  if (!t.exact && hasCjk(t.value)) return words(t.value).map((w) => `%${escapeLike(w)}%`);
  return [];
}

function compile(n: Node): SQL {
  switch (n.type) {
    case "and": return sql`(${sql.join(n.children.map(compile), sql` and `)})`;
    case "or": return sql`(${sql.join(n.children.map(compile), sql` or `)})`;
    // Null-safe: -hp:100 keeps the cards that have no HP at all.
    case "not": return sql`not coalesce(${compile(n.child)}, false)`;
    case "range": return range(n);
    case "term": return term(n);
  }
}

const indexColumn = () => (options.trialIndex ? sql`c.trial_index_eur` : sql`c.index_eur`);

const isWildcard = (t: Term) => !t.quoted && /[*?]/.test(t.value);

/** LIKE pattern of a glob: the user's % _ \ are literal, * and ? are the wildcards. */
export function likePattern(glob: string): string {
  return glob.replace(/[\\%_]/g, (c) => `\\${c}`).replace(/\*/g, "%").replace(/\?/g, "_");
}

const textArray = (values: string[]) => sql`array[${sql.join(values.map((v) => sql`${v}`), sql`, `)}]::text[]`;

function term(t: Term): SQL {
  const kind = FIELDS[t.field]!.kind;
  switch (kind) {
    case "name": return nameTerm(t);
    case "text": return t.field === "artist"
      ? sql`c.artist_slug in (select a.slug from artists a where ${textMatch(t, sql`a.name_folded`)})`
      : sql`c.set_id in (select s.id from sets s where ${textMatch(t, sql`s.name_folded`)})`;
    case "keyword": return keyword(t);
    case "array": return arrayTerm(t);
    case "int": return comparison(t, sql`c.hp`, parseIntValue);
    case "float_array": return dexTerm(t);
    case "date": return dateTerm(t);
    case "price": return comparison(t, indexColumn(), parsePrice);
    case "number": return numberTerm(t);
    case "region": return sql`c.print_region = ${vocabularyValue(t, asciiUpper(t.value), PRINT_REGIONS)}`;
  }
}

/** A value of a closed vocabulary, or the QueryValueError that names the valid ones. */
function vocabularyValue(t: Term, value: string, valid: readonly string[]): string {
  if (valid.includes(value)) return value;
  throw new QueryValueError(`${t.field} must be one of ${valid.join(", ")}; got '${t.value}'.`, t.pos, t.value, t.field, valid);
}

// ── names ────────────────────────────────────────────────────────────────────

/**
 * A dictionary pattern: either expanded to the words it matches (a btree on card_terms, then
 * GIN on name_terms; fast for `char*`), or, when it matches many words (`*a*`), scanned on
 * each card's words, which costs one pass over the cards but never thousands of GIN probes.
 */
function patternMatch(pattern: string): SQL {
  if (options.broad?.has(pattern)) return sql`exists (select 1 from unnest(c.name_terms) w where w like ${pattern})`;
  return sql`c.name_terms && array(select ct.term from card_terms ct where ct.term like ${pattern})`;
}

function nameTerm(t: Term): SQL {
  const patterns = termPatterns(t);
  if (isWildcard(t)) return patterns.length ? patternMatch(patterns[0]!) : sql`true`;
  const ws = words(t.value);
  if (!ws.length) throw new QueryError("A name search needs letters or digits.", t.pos, t.value);
  if (t.exact) return sql`c.name_keys @> ${textArray([ws.join(" ")])}`;
  // Scripts without spaces between words: a term is any part of a word.
  if (patterns.length) return sql.join(patterns.map(patternMatch), sql` and `);
  const all = sql`c.name_terms @> ${textArray(ws)}`;
  if (!t.quoted || ws.length === 1) return all;
  return sql`(${all} and exists (select 1 from unnest(c.name_keys) k where ' ' || k || ' ' like ${`% ${escapeLike(ws.join(" "))} %`}))`;
}

/** Word matching on a stored word key (words joined by single spaces, names split by ' | '). */
function textMatch(t: Term, column: SQL): SQL {
  if (isWildcard(t)) {
    const glob = fold(t.value).replace(/[^\p{L}\p{N}*?]+/gu, "");
    return sql`exists (select 1 from unnest(string_to_array(replace(${column}, ' | ', ' '), ' ')) w where w like ${likePattern(glob)})`;
  }
  const ws = words(t.value);
  if (!ws.length) throw new QueryError(`A ${t.field} search needs letters or digits.`, t.pos, t.value);
  if (t.exact) return sql`(' | ' || ${column} || ' | ') like ${`% | ${escapeLike(ws.join(" "))} | %`}`;
  if (t.quoted) return sql`(' ' || ${column} || ' ') like ${`% ${escapeLike(ws.join(" "))} %`}`;
  return sql.join(ws.map((w) => sql`(' ' || ${column} || ' ') like ${`% ${escapeLike(w)} %`}`), sql` and `);
}

// ── printed values ───────────────────────────────────────────────────────────

function keyword(t: Term): SQL {
  const wild = isWildcard(t);
  const v = fold(t.value);
  const cmp = (column: SQL, value = v) => (wild ? sql`${column} like ${likePattern(value)}` : sql`${column} = ${value}`);
  switch (t.field) {
    case "id": return identifierTerm(t, (id) => cmp(sql`c.id_lower`, id));
    case "rarity": return cmp(sql`c.rarity_lc`);
    case "supertype": return cmp(sql`c.supertype_lc`);
    // Printed in capitals; compared as printed so the plain index serves it.
    case "regulation_mark": return cmp(sql`c.regulation_mark`, asciiUpper(t.value));
    case "set.code": return identifierTerm(t, (code) => wild
      ? sql`c.set_id in (select s.id from sets s where s.id_lower like ${likePattern(code)} or lower(s.alt_id) like ${likePattern(code)})`
      : sql`c.set_id in (select s.id from sets s where s.id_lower = ${code} or lower(s.alt_id) = ${code} or s.ptcgo_code = ${printedCodeKey(t.value)})`);
    case "set.series": return identifierTerm(t, (slug) => wild
      ? sql`c.series_id in (select r.id from series r where lower(r.id) like ${likePattern(slug)} or r.name_folded like ${likePattern(v)})`
      // The slug wins; a name only counts when no series has that slug (as in the set list's filter).
      : sql`c.series_id in (select r.id from series r where lower(r.id) = ${slug}
          union all select r.id from series r where r.name_folded = ${wordKey(t.value)}
            and not exists (select 1 from series x where lower(x.id) = ${slug}))`);
    default: throw new QueryError(`Field '${t.field}' cannot be searched.`, t.pos, t.field);
  }
}

/** A term on an identifier, by its lookup key; text that can name no identifier matches nothing. */
function identifierTerm(t: Term, match: (key: string) => SQL): SQL {
  const key = identifierKey(t.value);
  return key === null ? sql`false` : match(key);
}

function arrayTerm(t: Term): SQL {
  const column = t.field === "types" ? sql`c.types_lc` : t.field === "subtypes" ? sql`c.subtypes_lc` : sql`c.languages`;
  const v = fold(t.value);
  if (isWildcard(t)) return sql`exists (select 1 from unnest(${column}) x where x like ${likePattern(v)})`;
  if (t.field === "languages") vocabularyValue(t, v, CARD_LANGUAGES);
  // Chinese is printed in two scripts; `languages:zh` means either.
  if (t.field === "languages" && v === "zh") return sql`${column} && ${textArray(["zh-tw", "zh-cn"])}`;
  return sql`${column} @> ${textArray([v])}`;
}

// ── numbers and dates ────────────────────────────────────────────────────────

type Parsed<T> = (raw: string, t: { pos: number; field: string }) => T;

const parseIntValue: Parsed<number> = (raw, t) => {
  if (!/^-?\d{1,9}$/.test(raw)) throw new QueryError(`Field '${t.field}' expects a whole number, not '${raw}'.`, t.pos, raw);
  return Number(raw);
};
const parseFloatValue: Parsed<number> = (raw, t) => {
  if (!/^-?\d{1,9}(\.\d{1,6})?$/.test(raw)) throw new QueryError(`Field '${t.field}' expects a number, not '${raw}'.`, t.pos, raw);
  return Number(raw);
};

/** A price in EUR: not negative, at most 2 decimals (cents), below a billion. */
const parsePrice: Parsed<number> = (raw, t) => {
  if (!/^\d{1,9}(\.\d{1,2})?$/.test(raw)) throw new QueryError(`Field '${t.field}' expects an amount in EUR such as 10 or 2.50, not '${raw}'.`, t.pos, raw);
  return Number(raw);
};

const OPS = /^(>=|<=|>|<)(.+)$/;

/** `hp:100`, `hp:>=100`, `hp:*` (has a value). */
function comparison(t: Term, column: SQL, parse: Parsed<number>): SQL {
  if (t.value === "*") return sql`${column} is not null`;
  const m = OPS.exec(t.value);
  if (m) return sql`${column} ${sql.raw(m[1]!)} ${parse(m[2]!, t)}`;
  if (isWildcard(t)) throw new QueryError(`Field '${t.field}' takes no wildcards except '*'.`, t.pos, t.value);
  return sql`${column} = ${parse(t.value, t)}`;
}

function bounds(r: Range, column: SQL, lo: unknown, hi: unknown): SQL {
  const parts: SQL[] = [];
  if (lo !== null) parts.push(sql`${column} ${sql.raw(r.loInclusive ? ">=" : ">")} ${lo}`);
  if (hi !== null) parts.push(sql`${column} ${sql.raw(r.hiInclusive ? "<=" : "<")} ${hi}`);
  return parts.length ? sql.join(parts, sql` and `) : sql`${column} is not null`;
}

function range(r: Range): SQL {
  const parse = (p: Parsed<number>) => [r.lo === null ? null : p(r.lo, r), r.hi === null ? null : p(r.hi, r)] as const;
  switch (FIELDS[r.field]!.kind) {
    case "int": { const [lo, hi] = parse(parseIntValue); return bounds(r, sql`c.hp`, lo, hi); }
    case "number": { const [lo, hi] = parse(parseIntValue); return bounds(r, sql`c.number_sort`, lo, hi); }
    case "price": { const [lo, hi] = parse(parsePrice); return bounds(r, indexColumn(), lo, hi); }
    case "float_array": {
      const [lo, hi] = parse(parseFloatValue);
      return sql`exists (select 1 from unnest(c.national_pokedex_numbers) d where ${bounds(r, sql`d`, lo, hi)})`;
    }
    case "date": {
      // A partial date is a period: [2020 TO 2021] runs from 2020-01-01 to 2021-12-31.
      const lo = r.lo === null ? null : period(r.lo, r)[r.loInclusive ? 0 : 1];
      const hi = r.hi === null ? null : period(r.hi, r)[r.hiInclusive ? 1 : 0];
      return bounds(r, sql`c.release_date`, lo === null ? null : sql`${lo}::date`, hi === null ? null : sql`${hi}::date`);
    }
    default: throw new QueryError(`Field '${r.field}' does not take ranges.`, r.pos, r.field);
  }
}

function dexTerm(t: Term): SQL {
  if (t.value === "*") return sql`cardinality(c.national_pokedex_numbers) > 0`;
  const m = OPS.exec(t.value);
  if (m) return sql`exists (select 1 from unnest(c.national_pokedex_numbers) d where d ${sql.raw(m[1]!)} ${parseFloatValue(m[2]!, t)})`;
  return sql`c.national_pokedex_numbers @> array[${parseFloatValue(t.value, t)}]::float8[]`;
}

/** First and last day of YYYY, YYYY-MM or YYYY-MM-DD. */
function period(raw: string, t: { pos: number; field: string }): [string, string] {
  const m = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/.exec(raw);
  const bad = () => new QueryError(`Field '${t.field}' expects YYYY, YYYY-MM or YYYY-MM-DD, not '${raw}'.`, t.pos, raw);
  if (!m) throw bad();
  const y = Number(m[1]);
  const mo = m[2] ? Number(m[2]) : undefined;
  const d = m[3] ? Number(m[3]) : undefined;
  // There is no year 0 in PostgreSQL's calendar.
  if (y < 1 || (mo !== undefined && (mo < 1 || mo > 12))) throw bad();
  const pad = (n: number) => String(n).padStart(2, "0");
  if (mo === undefined) return [`${m[1]}-01-01`, `${m[1]}-12-31`];
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const last = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][mo - 1]!;
  if (d === undefined) return [`${m[1]}-${pad(mo)}-01`, `${m[1]}-${pad(mo)}-${pad(last)}`];
  if (d < 1 || d > last) throw bad();
  return [raw, raw];
}

function dateTerm(t: Term): SQL {
  if (t.value === "*") return sql`c.release_date is not null`;
  const m = OPS.exec(t.value);
  if (m) {
    const [first, last] = period(m[2]!, t);
    const op = m[1]!;
    const edge = op === ">" || op === "<=" ? last : first;
    return sql`c.release_date ${sql.raw(op)} ${edge}::date`;
  }
  const [first, last] = period(t.value, t);
  return first === last ? sql`c.release_date = ${first}::date` : sql`c.release_date between ${first}::date and ${last}::date`;
}

export { normalizeNumber } from "@/lib/util/numbers";

/**
 * `number:22` prefers the exact printed number; only in a set that has no card numbered
 * exactly 22 does it match 022. `number:22/185` also needs a printed total of 185 where
 * the total is known.
 */
/** 022 → 22, for ASCII numbers only: normalizeNumber's case mapping would turn a Kelvin sign into k. */
const looseNumber = (num: string) => (isAscii(num) ? normalizeNumber(num) : num);

function numberTerm(t: Term): SQL {
  if (t.value === "*") return sql`true`;
  const ops = OPS.exec(t.value);
  if (ops) return sql`c.number_sort ${sql.raw(ops[1]!)} ${parseIntValue(ops[2]!, t)}`;
  // A printed number is part of a card's id: matched by the same key.
  if (isWildcard(t)) return identifierTerm(t, (glob) => sql`lower(c.number) like ${likePattern(glob)}`);
  const slash = /^(.+)\/(\d{1,6})$/.exec(t.value);
  const num = identifierKey(slash ? slash[1]! : t.value);
  if (num === null) return sql`false`;
  const total = slash ? Number(slash[2]) : null;
  const sort = numberSort(num);
  const sortCond = sort === null ? sql`c.number_sort is null` : sql`c.number_sort = ${sort}`;
  const match = t.exact
    ? sql`lower(c.number) = ${num}`
    : sql`(lower(c.number) = ${num} or (${sql.raw(NORMALIZE_NUMBER_SQL("c.number"))} = ${looseNumber(num)}
        and not exists (select 1 from cards x where x.set_id = c.set_id and x.deleted_at is null
          and x.number_sort is not distinct from c.number_sort and lower(x.number) = ${num})))`;
  const totalCond = total === null ? sql`true` : sql`(c.printed_total is null or c.printed_total = ${total})`;
  return sql`(${sortCond} and ${match} and ${totalCond})`;
}
