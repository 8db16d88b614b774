import type { z } from "zod";
import { ApiError } from "@/lib/api/errors";
import type { Ok, Upload } from "@/lib/api/route";
import { takeSlot } from "./capacity";
import { ceilings, type Axes } from "./grade";
import { measureCentering, MeasureError, ratiosOf } from "./measure";
import type { ConfirmBody, GradeBody } from "./schemas";
import { STANDARDS } from "./standards";

// The centering routes: a photo measured, person-reviewed lines confirmed, known ratios graded,
// and the houses' tables.

const ratio = (share: number) => {
  const a = Math.round(share * 10) / 10;
  return `${a}/${Math.round((100 - a) * 10) / 10}`;
};
const shown = (a: Axes) => ({ left_right: ratio(a.left_right), top_bottom: ratio(a.top_bottom) });

export function gradeRatios(body: z.output<typeof GradeBody>): Ok {
  return {
    body: { data: { front: shown(body.front), back: body.back ? shown(body.back) : null, ceilings: ceilings(body.front, body.back) } },
  };
}

export function listStandards(): Ok {
  const data = STANDARDS.map((s) => ({
    house: s.house, name: s.name, sources: s.sources,
    bands: s.bands.map((b) => ({
      grade: b.grade, label: b.label, front: ratio(b.front), front_better_axis: b.front_better_axis === undefined ? null : ratio(b.front_better_axis),
      back: ratio(b.back), status: b.status, note: b.note ?? null,
    })),
  }));
  return { body: { data, count: data.length } };
}

/** The axis whose worse side is furthest from 50/50: what limits a grade first. */
const limiting = (a: Axes) => (Math.abs(a.left_right - 50) >= Math.abs(a.top_bottom - 50) ? "left_right" : "top_bottom");

/**
 * POST /v1/centering/measure. At most two measurements run and two wait per deployment; beyond
 * that 503 PROVIDER_UNAVAILABLE, which the pipeline refunds like every 5xx.
 */
export async function measure(upload: Upload): Promise<Ok> {
  const slot = await takeSlot();
  if (!slot) throw new ApiError("PROVIDER_UNAVAILABLE", "Centering is at capacity: two measurements running and two waiting. Retry shortly.", undefined, { "retry-after": "2" });
  try {
    const m = await measureCentering(upload.bytes);
    const axes = { left_right: m.left_right, top_bottom: m.top_bottom };
    return {
      body: {
        data: {
          ratios: shown(axes), left_right: m.left_right, top_bottom: m.top_bottom, uncertainty_pp: m.uncertainty,
          geometry: { width: m.width, height: m.height, outer: m.outer, inner: m.inner, rectified: m.rectified },
          limiting_axis: limiting(axes), ceilings: ceilings(axes),
        },
      },
    };
  } catch (err) {
    if (err instanceof MeasureError) throw new ApiError("INVALID_IMAGE", err.message, { parameter: "image" });
    throw new ApiError("INVALID_IMAGE", "The image could not be decoded.", { parameter: "image" });
  } finally {
    await slot.release();
  }
}

/** POST /v1/centering/confirm: the edges as a person placed them, front and optionally back. */
export function confirm(body: z.output<typeof ConfirmBody>): Ok {
  try {
    const front = ratiosOf(body.front.outer, body.front.inner);
    const back = body.back ? ratiosOf(body.back.outer, body.back.inner) : undefined;
    return {
      body: { data: { front: { ...shown(front), limiting_axis: limiting(front) }, back: back ? { ...shown(back), limiting_axis: limiting(back) } : null, ceilings: ceilings(front, back) } },
    };
  } catch (err) {
    if (err instanceof MeasureError) throw new ApiError("INVALID_PARAMETER", err.message, { parameter: "inner" });
    throw err;
  }
}
