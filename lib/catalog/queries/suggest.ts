import { sql } from "drizzle-orm";
import { rows } from "@/lib/db/client";

// The suggestions' SQL: dictionary words by prefix (card_terms_pattern_idx, a text_pattern_ops
// btree), then a few cards per word through the GIN index on name_terms. Both indexed: a
// keystroke costs a handful of index probes, never a scan of the cards.

export type SuggestRow = { term: string; name: string; names: Record<string, string> | null; set_id: string; n: number };

/**
 * The cards behind the `terms` shortest dictionary words matching `pattern` (a LIKE pattern
 * on folded words), `perTerm` distinct names each, that also hold every word of `words`.
 * `n` counts the cards of that name among the first `sample` with the word.
 */
export async function selectSuggestions(pattern: string, words: string[], o: { terms: number; perTerm: number; sample: number }): Promise<SuggestRow[]> {
  const all = words.length ? sql`and c.name_terms @> ${sql.param(words)}::text[]` : sql``;
  return rows<SuggestRow>(sql`
    select t.term, x.name, x.names, x.set_id, x.n from (
      select term from card_terms where term like ${pattern} order by length(term), term limit ${o.terms}
    ) t
    cross join lateral (
      select m.name, (array_agg(m.names))[1] as names, min(m.set_id) as set_id, count(*)::int as n from (
        select c.name, c.names, c.set_id from cards c
        where c.name_terms @> array[t.term] and c.deleted_at is null ${all}
        limit ${o.sample}
      ) m group by m.name order by count(*) desc, m.name limit ${o.perTerm}
    ) x
    order by length(t.term), t.term, x.n desc`, undefined, { prepare: true });
}
