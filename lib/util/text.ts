// One folding rule for everything searchable, applied identically when importing and when
// querying: lower case, Latin accents removed (é → e), compatibility forms unified (ＥＸ → ex).
// Only U+0300–U+036F are stripped: Japanese voicing marks (ド) are letters, not accents.
export function fold(s: string): string {
  return s.normalize("NFD").replace(/[\u0300-\u036f]/g, "").normalize("NFKC").toLowerCase();
}

/** Words of a folded string: runs of letters and digits. */
export function words(s: string): string[] {
  return fold(s).split(/[^\p{L}\p{N}]+/u).filter(Boolean);
}

/** URL slug: folded ASCII letters and digits joined by '-'; empty when nothing Latin remains. */
export function slugify(s: string): string {
  return fold(s).replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
}

/** camelCase → snake_case, for names a client may send either way. */
export function snake(s: string): string {
  return s.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
}

/**
 * The field of `valid` a client named, camelCase or snake_case: snake() cannot know whether a
 * digit starts a word (change7dPct is change_7d_pct, top10Cards top10_cards), so names are also
 * compared with a break before every such digit, on both sides. Unmatched: its snake_case form.
 */
export function fieldName(raw: string, valid: readonly string[]): string {
  const s = snake(raw);
  if (valid.includes(s)) return s;
  const broken = (x: string) => snake(x).replace(/([a-z])(\d)/g, "$1_$2");
  const k = broken(raw);
  return valid.find((v) => broken(v) === k) ?? s;
}

const CJK = /[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f]/u;
/** Scripts written without spaces between words: substring matching stands in for words. */
export function hasCjk(s: string): boolean {
  return CJK.test(s);
}

/** The searchable form of a name: its folded words joined by single spaces. */
export function wordKey(s: string): string {
  return words(s).join(" ");
}

/** A literal for LIKE: the user's % _ \ match themselves. */
export function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** A percent-encoded text decoded, or null when it is not valid percent-encoded UTF-8. */
export function decoded(s: string): string | null {
  try {
    return decodeURIComponent(s);
  } catch {
    return null;
  }
}

/** Whether the text holds U+0000, which PostgreSQL text cannot. */
export const hasNul = (s: string): boolean => s.includes("\u0000");

/**
 * A form field's text, at most `max` characters; "" when absent, a file, or holding a NUL
 * (PostgreSQL's text cannot: a form's actions treat it as not given, never a 500).
 */
export function formText(form: FormData, name: string, max = 500): string {
  const v = form.get(name);
  return typeof v === "string" && !hasNul(v) ? v.slice(0, max) : "";
}
