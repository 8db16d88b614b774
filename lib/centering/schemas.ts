import { z } from "zod";
import { HOUSES } from "./standards";

// Inputs and answers of the centering routes. A ratio may be written as a person says it
// ("53.5/46.5") or as the share of the first border (53.5).

const Ratio = z.union([
  z.number().min(0).max(100),
  z.string().regex(/^\s*\d{1,3}(\.\d+)?\s*\/\s*\d{1,3}(\.\d+)?\s*$/, "a ratio such as 53.5/46.5"),
]).transform((v, ctx) => {
  if (typeof v === "number") return v;
  const [a, b] = v.split("/").map(Number) as [number, number];
  if (Math.abs(a + b - 100) > 0.5) {
    ctx.addIssue({ code: "custom", message: "the two sides of a ratio add up to 100" });
    return z.NEVER;
  }
  return a;
}).meta({ description: "53.5/46.5 (the two sides add up to 100, within 0.5), or 53.5 (the first border's share of the two); otherwise 400 INVALID_PARAMETER.", example: "53.5/46.5" });

export const FaceRatios = z.strictObject({ left_right: Ratio, top_bottom: Ratio });

export const GradeBody = z.strictObject({
  front: FaceRatios,
  back: FaceRatios.optional(),
}).meta({ example: { front: { left_right: "53.5/46.5", top_bottom: "51/49" }, back: { left_right: "70/30", top_bottom: "60/40" } } });

const Shown = z.object({ left_right: z.string(), top_bottom: z.string() });

const BandRef = z.object({ grade: z.string(), label: z.string() }).nullable();

export const CeilingObject = z.object({
  house: z.enum(HOUSES),
  max_grade: z.string().nullable().meta({ description: "The best grade centering allows; null below the house's last band." }),
  label: z.string().nullable(),
  status: z.enum(["official", "interpreted"]).nullable(),
  front: BandRef,
  back: BandRef.meta({ description: "Null when no back was given." }),
  limited_by: z.enum(["front", "back"]).nullable(),
  next_grade: z.string().nullable(),
  to_next_band: z.number().nullable().meta({ description: "Percentage points the limiting axis must move toward 50/50 to reach next_grade." }),
});

export const GradeResponse = z.object({
  data: z.object({ front: Shown, back: Shown.nullable(), ceilings: z.array(CeilingObject) }),
});

export const StandardsResponse = z.object({
  data: z.array(z.object({
    house: z.enum(HOUSES),
    name: z.string(),
    sources: z.array(z.string()),
    bands: z.array(z.object({
      grade: z.string(), label: z.string(), front: z.string(), front_better_axis: z.string().nullable(), back: z.string(),
      status: z.enum(["official", "interpreted"]), note: z.string().nullable(),
    })),
  })),
  count: z.number().int(),
});

const EdgesSchema = z.strictObject({
  left: z.number().min(0), right: z.number().min(0), top: z.number().min(0), bottom: z.number().min(0),
}).meta({ description: "Positions in pixels of the image: x of the left and right lines, y of the top and bottom lines." });

const FaceLines = z.strictObject({ outer: EdgesSchema, inner: EdgesSchema }).meta({
  description: "outer: the card's edges; inner: the printed frame, strictly inside them, with its right line right of its left and its bottom below its top (outer.left < inner.left < inner.right < outer.right, and so from top to bottom); otherwise 400 INVALID_PARAMETER.",
});

export const ConfirmBody = z.strictObject({ front: FaceLines, back: FaceLines.optional() }).meta({
  example: {
    front: { outer: { left: 60, right: 690, top: 55, bottom: 935 }, inner: { left: 97, right: 657, top: 88, bottom: 901 } },
    back: { outer: { left: 40, right: 670, top: 30, bottom: 910 }, inner: { left: 80, right: 640, top: 66, bottom: 875 } },
  },
});

const AxesShown = z.object({ left_right: z.string(), top_bottom: z.string(), limiting_axis: z.enum(["left_right", "top_bottom"]) });

export const ConfirmResponse = z.object({
  data: z.object({ front: AxesShown, back: AxesShown.nullable(), ceilings: z.array(CeilingObject) }),
});

const EdgesOut = z.object({ left: z.number(), right: z.number(), top: z.number(), bottom: z.number() });

const Point = z.object({ x: z.number(), y: z.number() });

const Rectified = z.object({
  quad: z.array(Point).length(4).meta({ description: "The card's corners in pixels of the uploaded image: top-left, top-right, bottom-right, bottom-left." }),
  width: z.number().int(), height: z.number().int(),
  card: EdgesOut.meta({ description: "Where the corners land in the squared-up raster (width × height): the card's rectangle, a margin of the table around it." }),
});

export const MeasureResponse = z.object({
  data: z.object({
    ratios: Shown.meta({ description: "The left border's share of both side borders, and the top's of top and bottom, e.g. 53.5/46.5." }),
    left_right: z.number(), top_bottom: z.number(),
    uncertainty_pp: z.object({ left_right: z.number(), top_bottom: z.number() }).meta({ description: "One standard uncertainty of each ratio, in percentage points. A reading in doubt (an edge that may be the table's or the printed frame's, borders no card prints) answers at least 10; it, and one that cannot tell which way up the card lies, at least |ratio − 50|: such an answer does not say which side is the larger." }),
    geometry: z.object({
      width: z.number().int(), height: z.number().int(), outer: EdgesOut, inner: EdgesOut,
      rectified: Rectified.nullable().meta({ description: "Null for a flat scan, whose lines are in the uploaded image. For a photo with the card in perspective or tilted, the card was squared up first: outer and inner are then in pixels of that squared-up raster." }),
    }).meta({ description: "The card's outer edges and the frame lines, in pixels of the uploaded image (EXIF rotation applied; width × height) or, when rectified is set, of the squared-up raster: move them and send them to /v1/centering/confirm." }),
    limiting_axis: z.enum(["left_right", "top_bottom"]).meta({ description: "The axis furthest from 50/50: it limits the grade first." }),
    ceilings: z.array(CeilingObject),
  }),
});
