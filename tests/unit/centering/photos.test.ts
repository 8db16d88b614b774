import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { DOUBTFUL_PP, measureCentering, MeasureError, ratiosOf } from "@/lib/centering/measure";
import { renderFace, type FaceCard } from "@/lib/vision/render";
import { synthCenteringPhoto } from "@/lib/vision/synth";
import { centeringCasePhoto, centeringCases, type PhotoCase } from "@/lib/vision/synth-centering-photos";

// Centering on photos that used to go wrong (issue 15): a card upside down (its left and
// right swapped in the answer), borders of every colour on tables close to them, a shadow's
// fringe taken for the border; and a photo whose card edge cannot be seen, which must say so
// through its uncertainty (or be refused) rather than answer a confident wrong number.

const CARD: FaceCard = { id: "t-photos-1", name: "Gengar", hp: 90, number: "5", set_code: "fossil", supertype: "Pokémon", types: ["Psychic"], rarity: "Rare", attacks: ["Curse"] };

describe("centering on photos", () => {
  it("a card photographed upside down reports its own left/right and top/bottom, and lines that confirm gives back", async () => {
    const truth = { left_right: 68, top_bottom: 38 };
    const face = await renderFace(CARD, { centering: truth });
    const { photo } = await synthCenteringPhoto(face, { seed: "unit-photos-upside-down" });
    const turned = await sharp(photo).rotate(180).jpeg({ quality: 92 }).toBuffer();
    const m = await measureCentering(turned);
    expect(Math.abs(m.left_right - truth.left_right)).toBeLessThan(1.5);
    expect(Math.abs(m.top_bottom - truth.top_bottom)).toBeLessThan(1.5);
    expect(m.uncertainty.left_right).toBeLessThan(2);
    // The corners start at the card's own top-left, which lies in the photo's lower half now.
    expect(m.rectified).not.toBeNull();
    const q = m.rectified!.quad;
    expect(q[0].y).toBeGreaterThan(q[2].y);
    const back = ratiosOf(m.outer, m.inner);
    expect(Math.abs(back.left_right - m.left_right)).toBeLessThan(0.2);
    expect(Math.abs(back.top_bottom - m.top_bottom)).toBeLessThan(0.2);
  }, 60_000);

  it("a card lying square but upside down (a flat scan turned) is not measured the wrong way round", async () => {
    const truth = { left_right: 63, top_bottom: 57 };
    const face = await renderFace(CARD, { centering: truth });
    const upright = await sharp({ create: { width: 760, height: 1010, channels: 3, background: "#f4f4f4" } })
      .composite([{ input: face, left: 60, top: 55 }]).png().toBuffer();
    const scan = await sharp(upright).rotate(180).jpeg({ quality: 90 }).toBuffer();
    const m = await measureCentering(scan);
    expect(Math.abs(m.left_right - truth.left_right)).toBeLessThan(1);
    expect(Math.abs(m.top_bottom - truth.top_bottom)).toBeLessThan(1);
  }, 60_000);

  // Independent generator, seeds of the tests' own ("unit-*"; the evaluation uses "eval-*").
  const cases: PhotoCase[] = [
    { seed: "unit-b", border: "white", table: "match", level: "easy", truth: { left_right: 58, top_bottom: 44 } },
    { seed: "unit-c", border: "black", table: "dark", level: "easy", truth: { left_right: 78, top_bottom: 30 } },
    { seed: "unit-d", border: "yellow", table: "wood", level: "medium", truth: { left_right: 35, top_bottom: 70 } },
    { seed: "unit-e", border: "white", table: "wood", level: "easy", truth: { left_right: 41, top_bottom: 52 } },
  ];
  it("borders of every colour on light, dark, wood and same-colour tables, at any quarter turn: within 2 points or saying it is unsure", async () => {
    for (const c of cases) {
      const { photo, rotation } = await centeringCasePhoto(c);
      const m = await measureCentering(photo);
      for (const axis of ["left_right", "top_bottom"] as const) {
        const err = Math.abs(m[axis] - c.truth[axis]);
        const label = `${c.seed} ${c.border}/${c.table} turned ${rotation.toFixed(0)}°, ${axis}: ${m[axis]} ± ${m.uncertainty[axis]} for ${c.truth[axis]}`;
        // Never a confident wrong number: off by more than 2 points only with an uncertainty that says so.
        if (err > 2) expect(m.uncertainty[axis], label).toBeGreaterThanOrEqual(err / 2);
        // Never the other side as the larger one, confidently.
        if ((m[axis] - 50) * (c.truth[axis] - 50) < 0) expect(m.uncertainty[axis], label).toBeGreaterThanOrEqual(Math.abs(m[axis] - 50));
      }
    }
    // These five are all measurable: most axes come out within a point.
    let close = 0;
    for (const c of cases) {
      const m = await measureCentering((await centeringCasePhoto(c)).photo);
      close += Number(Math.abs(m.left_right - c.truth.left_right) <= 1) + Number(Math.abs(m.top_bottom - c.truth.top_bottom) <= 1);
    }
    expect(close).toBeGreaterThanOrEqual(6);
  }, 180_000);

  // A border within 13-22 of the table's colour: its step is under refine.ts's default on the
  // full image (JPEG halves colour's resolution), and the printed frame's edge is the strong
  // one. These used to be answered 22.8, 31.4 and 60.1 points off (flagged); the card's own
  // edge is now found on a half-size copy, outside the frame.
  it("a card on a table of nearly its border's colour is measured on its own faint edge, not the printed frame's", async () => {
    const faint: PhotoCase[] = [
      { seed: "unit-match-0", border: "black", table: "match", level: "medium", truth: { left_right: 30, top_bottom: 66 } },
      { seed: "unit-match-1", border: "black", table: "match", level: "medium", truth: { left_right: 62, top_bottom: 35 } },
      { seed: "unit-match-2", border: "yellow", table: "match", level: "medium", truth: { left_right: 75, top_bottom: 52 } },
    ];
    for (const c of faint) {
      const m = await measureCentering((await centeringCasePhoto(c)).photo);
      for (const axis of ["left_right", "top_bottom"] as const) {
        const label = `${c.seed} ${c.border}, ${axis}: ${m[axis]} ± ${m.uncertainty[axis]} for ${c.truth[axis]}`;
        expect(Math.abs(m[axis] - c.truth[axis]), label).toBeLessThanOrEqual(1.5);
        expect(m.uncertainty[axis], label).toBeLessThan(2);
      }
    }
  }, 120_000);

  // Wood grain can run straight and parallel to a card's side: the faint edge looked for
  // outside the card must not be a line of the grain (the band between is not one flat paint).
  // This photo's outline grew onto the grain (36 points off) before that check.
  it("a card on wood is not widened onto a line of the grain", async () => {
    const c: PhotoCase = { seed: "tune-medium-yellow-wood-3", border: "yellow", table: "wood", level: "medium", truth: { left_right: 69.8, top_bottom: 60.4 } };
    const m = await measureCentering((await centeringCasePhoto(c)).photo);
    expect(Math.abs(m.left_right - c.truth.left_right)).toBeLessThan(1);
    expect(Math.abs(m.top_bottom - c.truth.top_bottom)).toBeLessThan(1);
  }, 60_000);

  // A black border on a nearly black table: only the printed frame's edge shows, and read inside
  // it the border's pair on one axis came out far narrower than on the other (6.4 against 10.2 %
  // of the width), which no card prints. It used to be answered 28 points off with ± 0.5.
  it("a reading whose two pairs of borders differ too much for one card says it is unsure", async () => {
    const c = centeringCases("hard", 4, "tune").find((x) => x.seed === "tune-hard-black-match-3")!;
    const m = await measureCentering((await centeringCasePhoto(c)).photo);
    for (const axis of ["left_right", "top_bottom"] as const) {
      const err = Math.abs(m[axis] - c.truth[axis]);
      const label = `${axis}: ${m[axis]} ± ${m.uncertainty[axis]} for ${c.truth[axis]}`;
      if (err > 2) expect(m.uncertainty[axis], label).toBeGreaterThanOrEqual(Math.min(DOUBTFUL_PP, err / 2));
      if ((m[axis] - 50) * (c.truth[axis] - 50) < 0) expect(m.uncertainty[axis], label).toBeGreaterThanOrEqual(Math.abs(m[axis] - 50));
    }
  }, 60_000);

  // The outline misses this card's narrow side (about 11 px squared up) and lands on the frame:
  // that side's "border" then has the frame's fill colour, not the other three's, and the answer
  // says so (it used to be 34 ± 0.5 for 17).
  it("a silver 17/83 card upside down on a light table whose outline misses the narrow side is not answered confidently wrong", async () => {
    const c: PhotoCase = { seed: "unit-a", border: "silver", table: "light", level: "easy", truth: { left_right: 17, top_bottom: 62 } };
    const m = await measureCentering((await centeringCasePhoto(c)).photo);
    const err = Math.abs(m.left_right - c.truth.left_right);
    expect(err <= 2 || m.uncertainty.left_right >= err / 2).toBe(true);
  }, 60_000);

  it("a card whose edge cannot be seen (the table is the border's own colour) is refused or reported with a large uncertainty", async () => {
    const truth = { left_right: 75, top_bottom: 40 };
    const face = await renderFace(CARD, { centering: truth });
    const yellow = { r: 241, g: 207, b: 59 };
    const flat = await sharp({ create: { width: 900, height: 1150, channels: 3, background: yellow } })
      .composite([{ input: await sharp(face).flatten({ background: yellow }).png().toBuffer(), left: 135, top: 135 }]).png().toBuffer();
    const photo = await sharp(flat).rotate(14, { background: yellow }).jpeg({ quality: 90 }).toBuffer();
    const m = await measureCentering(photo).catch((err: unknown) => (err instanceof Error ? err : new Error(String(err))));
    if (m instanceof Error) {
      expect(m).toBeInstanceOf(MeasureError);
      return;
    }
    for (const axis of ["left_right", "top_bottom"] as const) {
      const err = Math.abs(m[axis] - truth[axis]);
      if (err > 2) expect(m.uncertainty[axis], `${axis}: ${m[axis]} ± ${m.uncertainty[axis]}`).toBeGreaterThanOrEqual(Math.min(DOUBTFUL_PP, err / 2));
    }
  }, 60_000);
});
