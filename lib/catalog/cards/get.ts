import { ApiError } from "@/lib/api/errors";
import type { Account } from "@/lib/accounts/types";
import type { Lang } from "@/lib/api/params";
import { selectAlternatives, selectCardById, selectCardsByIds, type CardDbRow } from "@/lib/catalog/queries/cards";
import { identifierKey } from "@/lib/catalog/queries/identifiers";
import { cardView, withheldFor, withIncludes } from "./list";
import { presentCard } from "./present";

type ViewInput = { select?: string; include?: string; lang?: Lang };

export const MAX_BATCH_IDS = 100;

/** Rows by the lookup key of their primary and alternate id (identifierKey). */
export function cardIndex(found: CardDbRow[]): Map<string, CardDbRow> {
  const m = new Map<string, CardDbRow>();
  for (const r of found) {
    for (const id of [r.id, r.alt_id]) {
      const key = id === null ? null : identifierKey(id);
      if (key !== null) m.set(key, r);
    }
  }
  return m;
}

/** The row an id names in a cardIndex, compared as identifiers are (ASCII letters in any case). */
export function lookupCard(index: Map<string, CardDbRow>, id: string): CardDbRow | undefined {
  const key = identifierKey(id);
  return key === null ? undefined : index.get(key);
}

/** A live card by primary or alternate id, ASCII letters in any case; CARD_NOT_FOUND otherwise. */
export async function findCard(id: string): Promise<CardDbRow> {
  const row = lookupCard(cardIndex(await selectCardById(id)), id);
  if (!row) throw new ApiError("CARD_NOT_FOUND", `No card with id or alternate id '${id}'.`, { id });
  if (row.deleted_at) {
    throw new ApiError("CARD_NOT_FOUND", `Card '${row.id}' was removed from the catalogue.`, { id, removed_at: row.deleted_at });
  }
  return row;
}

/** GET /v1/cards/{id}: primary or alternate id, ASCII letters in any case. */
export async function getCard(id: string, input: ViewInput, account?: Account) {
  const view = cardView(input, account);
  const row = await findCard(id);
  const full = await withIncludes(view, [row]);
  const withheld = withheldFor(view, full);
  const body: { data: Record<string, unknown>; meta?: { withheld: string[] } } = { data: presentCard(row, full) };
  if (withheld.length) body.meta = { withheld };
  // SPEC.md prices rule 5: the plan's note travels in a header here.
  const headers = full.notes?.length ? { "x-plan-withheld": full.notes.join(" ") } : undefined;
  return { body, cardIds: [row.id], headers };
}

export function parseIds(raw: string, max: number): string[] {
  const ids = raw.split(",").map((s) => s.trim()).filter(Boolean);
  if (!ids.length) throw new ApiError("INVALID_PARAMETER", "ids needs at least one id.", { parameter: "ids" });
  if (ids.length > max) {
    throw new ApiError("LIMIT_EXCEEDED", `A batch holds at most ${max} ids.`, { parameter: "ids", max, requested: ids.length });
  }
  const long = ids.find((i) => i.length > 200);
  if (long) throw new ApiError("INVALID_PARAMETER", "An id is longer than 200 characters.", { parameter: "ids" });
  return ids;
}

/**
 * GET /v1/cards/batch: the cards in the order asked, each once; ids that resolve to nothing
 * are reported in meta.missing with what they may have meant.
 */
export async function getCardsBatch(input: ViewInput & { ids: string }, account?: Account) {
  const ids = parseIds(input.ids, MAX_BATCH_IDS);
  const view = cardView(input, account);
  const byId = cardIndex(await selectCardsByIds(ids));
  const seen = new Set<string>();
  const rows: CardDbRow[] = [];
  const missing: { id: string; alternatives: { id: string; name: string; reason: string }[] }[] = [];
  for (const id of ids) {
    const row = lookupCard(byId, id);
    if (!row || row.deleted_at) {
      if (!missing.some((m) => m.id === id)) missing.push({ id, alternatives: [] });
      continue;
    }
    if (seen.has(row.id)) continue;
    seen.add(row.id);
    rows.push(row);
  }
  const alternatives = await selectAlternatives(missing.map((m) => m.id));
  for (const m of missing) m.alternatives = alternatives.get(m.id) ?? [];
  const full = await withIncludes(view, rows);
  const withheld = withheldFor(view, full);
  const meta: Record<string, unknown> = { requested: ids.length, count: rows.length, missing };
  if (full.notes?.length) meta.plan_notes = full.notes;
  if (withheld.length) meta.withheld = withheld;
  return { body: { data: rows.map((r) => presentCard(r, full)), meta }, cardIds: rows.map((r) => r.id) };
}
