import type { z } from "zod";
import type { Account } from "@/lib/accounts/types";
import { ApiError } from "@/lib/api/errors";
import type { Ok, Upload } from "@/lib/api/route";
import { cardIndex } from "@/lib/catalog/cards/get";
import { cardView, withheldFor, withIncludes } from "@/lib/catalog/cards/list";
import { presentCard } from "@/lib/catalog/cards/present";
import { selectCardsByIds } from "@/lib/catalog/queries/cards";
import { IDENTIFY_BASE } from "@/lib/meter/costs";
import { IdentifyError, identifyPhoto } from "./identify";
import type { IdentifyQuery } from "./schemas";

/**
 * POST /v1/vision/identify. The candidates are card answers: they count toward the distinct-card
 * allowance and carry include=index/prices like any card. An empty no_match costs the base only.
 */
export async function identify(upload: Upload, query: z.output<typeof IdentifyQuery>, account?: Account): Promise<Ok> {
  const view = cardView({ include: query.include, lang: query.lang }, account);
  let found;
  try {
    found = await identifyPhoto(upload.bytes, query.top_k);
  } catch (err) {
    if (!(err instanceof IdentifyError)) throw err;
    if (err.code === "INVALID_IMAGE") throw new ApiError("INVALID_IMAGE", err.message, { parameter: "image" });
    throw new ApiError("PROVIDER_UNAVAILABLE", err.message, undefined, { "retry-after": "60" });
  }
  const printing = { shared_artwork: found.printing.sharedArtwork, ambiguous: found.printing.ambiguous, read: found.printing.read };
  const meta: Record<string, unknown> = { top_k: query.top_k, count: 0, printing, outline: found.outline, index: found.index };
  if (found.noMatch) return { body: { data: [], no_match: true, meta }, credits: IDENTIFY_BASE };
  // A card removed since the index was built is left out rather than answered.
  const byId = cardIndex(await selectCardsByIds(found.candidates.map((c) => c.id)));
  const hits = found.candidates.flatMap((c) => {
    const row = byId.get(c.id.toLowerCase());
    return row && !row.deleted_at ? [{ ...c, row }] : [];
  });
  const full = await withIncludes(view, hits.map((h) => h.row));
  const withheld = withheldFor(view, full);
  meta.count = hits.length;
  if (full.notes?.length) meta.plan_notes = full.notes;
  if (withheld.length) meta.withheld = withheld;
  return {
    body: { data: hits.map((h, i) => ({ rank: i + 1, distance: h.distance, shares_artwork: h.sharesArtwork, card: presentCard(h.row, full) })), no_match: false, meta },
    cardIds: hits.map((h) => h.row.id),
  };
}
