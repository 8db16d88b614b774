import type { z } from "zod";
import type { Ok } from "@/lib/api/route";
import { ceilings, type Axes } from "./grade";
import type { GradeBody } from "./schemas";
import { STANDARDS } from "./standards";

// The centering routes that need no photo: grade ceilings from known ratios, and the tables.

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
