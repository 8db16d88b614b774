import { z } from "zod";
import { decimal, includeParam, langParam } from "@/lib/api/params";
import { CARD_INCLUDES } from "@/lib/catalog/cards/present";
import { CardObject } from "@/lib/catalog/schemas";

// POST /v1/vision/identify: query parameters (CONTRACT.md §7) and the answer.

export const IdentifyQuery = z.strictObject({
  top_k: decimal(z.coerce.number().int().min(1).max(50).default(5)).meta({ description: "How many candidates, 1 to 50 (default 5). The search is approximate: it measures the artworks the coarse scan shortlists (48, or twice top_k when that is more) and answers the nearest of those, so a top_k over 24 searches wider and can bring in a nearer candidate that a smaller one left out." }),
  include: includeParam(CARD_INCLUDES).meta({ example: "prices" }),
  lang: langParam,
});

const Corner = z.object({ x: z.number(), y: z.number() });

export const IdentifyResponse = z.object({
  data: z.array(z.object({
    rank: z.number().int(),
    distance: z.number().meta({ description: "How far the photo is from this card: its artwork's distance (0 for identical, about 1 unrelated; a match is at most 0.22 and stands out from the next artwork, or is 0.05 or less), plus, among cards that share one artwork, half of how much worse this card's printed line (set code, number, language mark) explains the photo's than the best one does. When neither the artwork nor the printed line singled a card out and its whole face did (glare or fingers over the artwork), each candidate's distance is its whole face's, on the same scale." }),
    shares_artwork: z.boolean().meta({ description: "This card carries the same artwork as the first candidate (a reprint or a translation): only the printed text tells them apart." }),
    card: CardObject,
  })).meta({ description: "Candidates, nearest first (of those the search measured: see top_k); empty when no_match." }),
  no_match: z.boolean().meta({ description: "True when no catalogue card is a credible match (a photo of something that is not a card): data is empty and the call costs 25." }),
  meta: z.object({
    top_k: z.number().int(),
    count: z.number().int(),
    printing: z.object({
      shared_artwork: z.number().int().meta({ description: "How many indexed cards carry the first candidate's artwork (1: art of its own; 0 with no_match, which names no card and so no printing)." }),
      ambiguous: z.boolean().meta({ description: "True when several cards carry the artwork and the printed line (set code, number / total, language mark) could not be read well enough to tell which one is photographed: the candidates that share it come first, ranked by how well their line fits, and any of them may be the card." }),
      read: z.object({ line: z.string(), language: z.string() }).nullable().meta({ description: "The printed line the photo was read as (set code and number / total) and its language mark, when the artwork is shared and the line told the printing; null otherwise." }),
    }).meta({ description: "Which printing of a shared artwork the photo shows." }),
    outline: z.array(Corner).length(4).nullable().meta({ description: "The card's corners in the photo's pixels (EXIF orientation applied): top-left, top-right, bottom-right, bottom-left; null when no card outline stood out and the whole frame was read." }),
    index: z.object({ cards: z.number().int(), built_at: z.string() }).meta({ description: "The identification index searched: how many cards, and when it was built." }),
    withheld: z.array(z.string()).optional(),
    plan_notes: z.array(z.string()).optional().meta({ description: "With include=prices: what the plan withheld." }),
  }),
});
