import { sql } from "drizzle-orm";
import { col, type SortSpec } from "@/lib/api/paging";
import type { Account } from "@/lib/accounts/types";
import type { Lang } from "@/lib/api/params";
import { sortByLocalName } from "@/lib/catalog/local-sort";
import { withholdsRows } from "@/lib/prices/quotes";

// Sort keys of card lists. `number` is two columns: the numeric part first, so 1S sits next
// to 1 and 10 comes after 9, then the printed text. `id` closes every order.
const keys: SortSpec["keys"] = {
  id: { columns: [col(sql`c.id`, "text", false)] },
  name: { columns: [col(sql`c.name`, "text", false)] },
  number: { columns: [col(sql`c.number_sort`, "int"), col(sql`c.number`, "text", false)] },
  rarity: { columns: [col(sql`c.rarity`, "text")] },
  hp: { columns: [col(sql`c.hp`, "int")] },
  index_eur: { columns: [col(sql`c.index_eur`, "float")], requires: "index" },
  last_price_at: { columns: [col(sql`c.last_price_at`, "timestamp")], requires: "index" },
  // The index's move over 7 and 30 days, in percent (null without one: first when descending).
  // Accepted and documented, but not listed with the others: SPEC.md names the listed card
  // sort keys, and these two are not among them.
  change_7d_pct: { columns: [col(sql`c.change_7d_pct`, "float")], requires: "index", listed: false },
  change_30d_pct: { columns: [col(sql`c.change_30d_pct`, "float")], requires: "index", listed: false },
  updated_at: { columns: [col(sql`c.updated_at`, "timestamp", false)] },
  created_at: { columns: [col(sql`c.created_at`, "timestamp", false)] },
  release_date: { columns: [col(sql`c.release_date`, "date")] },
  set: { columns: [col(sql`c.set_id`, "text", false)] },
  artist: { columns: [col(sql`c.artist`, "text")] },
};

export const CARD_SORT: SortSpec = { resource: "cards", keys, tiebreaker: "id", default: "id" };
export const SET_CARD_SORT: SortSpec = { resource: "set-cards", keys, tiebreaker: "id", default: "number" };

/**
 * The trial is shown the index of its own rows (English, ungraded), not the catalogue's: its
 * lists sort (and page) by that one, so the order never ranks a figure the rows show as null.
 * The moves are the catalogue's, shown only where the trial has an index (prices/embed.ts).
 */
const trialKeys: SortSpec["keys"] = {
  ...keys,
  index_eur: { ...keys.index_eur!, columns: [col(sql`c.trial_index_eur`, "float")] },
  last_price_at: { ...keys.last_price_at!, columns: [col(sql`c.trial_last_price_at`, "timestamp")] },
  change_7d_pct: { ...keys.change_7d_pct!, columns: [col(sql`(case when c.trial_index_eur is null then null else c.change_7d_pct end)`, "float")] },
  change_30d_pct: { ...keys.change_30d_pct!, columns: [col(sql`(case when c.trial_index_eur is null then null else c.change_30d_pct end)`, "float")] },
};

/**
 * The sort of a card list as this caller is shown its index, and under `lang` its names: by the
 * name shown in that language (as GET /v1/series?lang= sorts), a list of its own whose cursors
 * another language's list refuses.
 */
export function cardSortFor(spec: SortSpec, account: Account | undefined, lang?: Lang): SortSpec {
  return sortByLocalName(withholdsRows(account) ? { ...spec, keys: trialKeys } : spec, lang, sql`c.names`, sql`c.name`);
}
