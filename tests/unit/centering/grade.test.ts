import { describe, expect, it } from "vitest";
import { ceilingFor, ceilings } from "@/lib/centering/grade";
import { HOUSES, STANDARDS } from "@/lib/centering/standards";

const axes = (lr: number, tb = 50) => ({ left_right: lr, top_bottom: tb });

describe("centering ceilings at every band boundary", () => {
  for (const s of STANDARDS) {
    s.bands.forEach((band, i) => {
      it(`${s.house} ${band.grade}: exactly ${band.front}/${100 - band.front} front and ${band.back}/${100 - band.back} back is inside; a tenth worse is not`, () => {
        // Both axes at the threshold, or the better one at the band's "one way" figure.
        const better = band.front_better_axis ?? band.front;
        const at = ceilingFor(s.house, axes(band.front, better), axes(50, band.back));
        expect(at.max_grade).toBe(band.grade);
        const worseFront = ceilingFor(s.house, axes(band.front + 0.1, better), axes(50, band.back));
        expect(worseFront.max_grade).toBe(s.bands.slice(i + 1).find((b) => b.front > band.front)?.grade ?? null);
        expect(worseFront.limited_by).toBe("front");
        expect(worseFront.to_next_band).toBeCloseTo(0.1, 5);
        const worseBack = ceilingFor(s.house, axes(band.front, better), axes(band.back + 0.1));
        const backBandIndex = s.bands.findIndex((b) => b.back >= band.back + 0.1);
        expect(worseBack.max_grade).toBe(backBandIndex < 0 ? null : s.bands[Math.max(i, backBandIndex)]!.grade);
      });
    });
  }
});

describe("ceilings", () => {
  it("reads either side of a ratio the same way and answers all four houses", () => {
    expect(ceilings(axes(46.5), axes(70))).toEqual(ceilings(axes(53.5), axes(30)));
    expect(ceilings(axes(50)).map((c) => c.house)).toEqual([...HOUSES]);
  });

  it("BGS 9.5 needs 50/50 one way: 55/45 both ways is a 9", () => {
    expect(ceilingFor("BGS", axes(55, 50)).max_grade).toBe("9.5");
    expect(ceilingFor("BGS", axes(55, 55)).max_grade).toBe("9");
  });

  it("names the front and back bands, the next band and the distance to it", () => {
    const c = ceilingFor("PSA", axes(57, 52), axes(80, 50));
    expect(c).toMatchObject({ max_grade: "9", front: { grade: "9" }, back: { grade: "9" }, next_grade: "10", limited_by: "back", to_next_band: 5 });
    expect(ceilingFor("PSA", axes(50), axes(50))).toMatchObject({ max_grade: "10", next_grade: null, to_next_band: null, limited_by: null });
    expect(ceilingFor("PSA", axes(95)).max_grade).toBeNull();
  });
});
