import { z } from "zod";
import { includeParam, langParam } from "@/lib/api/params";
import { CARD_INCLUDES } from "@/lib/catalog/cards/present";
import { CardObject } from "@/lib/catalog/schemas";

// POST /v1/vision/identify: query parameters (CONTRACT.md §7) and the answer.

export const IdentifyQuery = z.strictObject({
  top_k: z.coerce.number().int().min(1).max(50).default(5).meta({ description: "How many candidates, 1 to 50 (default 5)." }),
  include: includeParam(CARD_INCLUDES).meta({ example: "prices" }),
  lang: langParam,
});

const Corner = z.object({ x: z.number(), y: z.number() });

export const IdentifyResponse = z.object({
  data: z.array(z.object({
    rank: z.number().int(),
    distance: z.number().meta({ description: "How far the photo's artwork is from this card's, 0 for identical; a match is credible below 0.5 and stands out from the runner-up." }),
    card: CardObject,
  })).meta({ description: "Candidates, nearest first; empty when no_match." }),
  no_match: z.boolean().meta({ description: "True when no catalogue card is a credible match (a photo of something that is not a card): data is empty and the call costs 25." }),
  meta: z.object({
    top_k: z.number().int(),
    count: z.number().int(),
    outline: z.array(Corner).length(4).nullable().meta({ description: "The card's corners in the photo's pixels (EXIF orientation applied): top-left, top-right, bottom-right, bottom-left; null when no card outline stood out and the whole frame was read." }),
    index: z.object({ cards: z.number().int(), built_at: z.string() }).meta({ description: "The identification index searched: how many cards, and when it was built." }),
    withheld: z.array(z.string()).optional(),
    plan_notes: z.array(z.string()).optional().meta({ description: "With include=prices: what the plan withheld." }),
  }),
});
