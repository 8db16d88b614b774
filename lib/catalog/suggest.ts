import { escapeLike, fold, hasCjk, words } from "@/lib/util/text";
import { selectSuggestions } from "./queries/suggest";

// As-you-type card names for the collector search: what the typed text may be the start of, in
// whichever language the catalogue prints it (a bare word of q searches every language too).
// Folded as the import folds names, so "pokemon" finds Pokémon and "evol" finds Évoli; the last
// word is a prefix, the words before it must be whole. Japanese, Chinese and Korean have no
// spaces between words: there the last word is any part of a dictionary word, as in q.

export type Suggestion = {
  /** The name as printed, in the language the typed text matched. */
  name: string;
  /** Its language when the catalogue says (en, fr, ja …); null for the card's own printed name. */
  lang: string | null;
  /** Cards of that name among those looked at (at most 40 a word): a ranking hint, not a total. */
  cards: number;
  /** The q that lists them: the whole name as a phrase. */
  q: string;
};

export const SUGGEST_MAX_INPUT = 60;
const TERMS = 32;
const PER_TERM = 4;
const SAMPLE = 40;

/** Up to `limit` suggestions for `input`; none under 2 characters (1 for CJK). */
export async function suggestCardNames(input: string, limit = 8): Promise<Suggestion[]> {
  const text = input.slice(0, SUGGEST_MAX_INPUT);
  const ws = words(text);
  const last = ws.at(-1);
  if (!last) return [];
  const cjk = hasCjk(last);
  // One letter after whole words narrows ("pikachu v"); alone it would match half the dictionary.
  if (!cjk && last.length < 2 && ws.length < 2) return [];
  // A trailing space means the last word is finished: it must then be whole, not a prefix.
  const finished = /[^\p{L}\p{N}]$/u.test(text);
  const before = ws.slice(0, -1);
  const pattern = finished ? escapeLike(last) : cjk ? `%${escapeLike(last)}%` : `${escapeLike(last)}%`;
  const found = await selectSuggestions(pattern, before, { terms: TERMS, perTerm: PER_TERM, sample: SAMPLE });

  const out = new Map<string, Suggestion & { rank: number }>();
  for (const r of found) {
    const [name, lang] = displayName(r, r.term);
    const key = fold(name);
    const prev = out.get(key);
    if (prev) { prev.cards += r.n; continue; }
    const nameWords = words(name);
    // The name that starts with what was typed first, then the word typed in full, then the most cards.
    const rank = (nameWords[0]?.startsWith(ws[0]!) ? 0 : 2) + (nameWords.includes(last) ? 0 : 1);
    out.set(key, { name, lang, cards: r.n, q: `name:"${name.replace(/["\\]/g, " ").replace(/\s+/g, " ").trim()}"`, rank });
  }
  return [...out.values()]
    .sort((a, b) => a.rank - b.rank || b.cards - a.cards || a.name.length - b.name.length || a.name.localeCompare(b.name))
    .slice(0, limit)
    .map(({ rank: _rank, ...s }) => s);
}

/** The card's name in the language whose words hold `term`; its printed name otherwise. */
function displayName(r: { name: string; names: Record<string, string> | null }, term: string): [string, string | null] {
  if (words(r.name).includes(term)) return [r.name, null];
  for (const [lang, n] of Object.entries(r.names ?? {})) if (words(n).includes(term)) return [n, lang];
  return [r.name, null];
}
