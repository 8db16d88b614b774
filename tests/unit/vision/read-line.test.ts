import sharp from "sharp";
import { describe, expect, it } from "vitest";
import type { Quad } from "@/lib/vision/outline";
import { GLYPHS, N, lineCells } from "@/lib/vision/read";
import { codeLines, rankLines, readCells, type CellReading } from "@/lib/vision/read-line";
import { FACE, renderFace, type FaceCard } from "@/lib/vision/render";

// The printed line read with no candidates given (read-line.ts): every cell against every glyph,
// then any line's fit a lookup a cell, so the whole index's lines can be ranked.

const CARD: FaceCard = {
  id: "t-line-1", name: "Charmander", hp: 50, number: "46", set_code: "base1", supertype: "Pokémon", types: ["Fire"],
  rarity: "Common", attacks: ["Ember"], code: "BS", total: 102, lang: "JA",
};
// As the index records them: text, a tab, the language mark.
const LINES = ["BS 46/102\tJA", "BS 46/102\tEN", "BS 48/102\tJA", "MEW 6/165\tEN", "SV2a 046/165\tJA", "BS 4/102\tJA"];

/** A reading that costs 0.1 for `text`'s glyph in every cell and 1 for any other. */
function readingOf(line: string): CellReading {
  const coded = codeLines([line]);
  const costs = Array.from({ length: N }, (_, i) => {
    const c = new Float64Array(i >= N - 2 ? 27 : 69).fill(1);
    c[coded[i]!] = 0.1;
    return c;
  });
  return { costs, floor: 0.1 * N, text: line, quality: 1 };
}

describe("rankLines", () => {
  it("puts the line read first at cost 0, then lines by how many cells they miss", () => {
    const ranked = rankLines(readingOf(LINES[0]!), codeLines(LINES), 4);
    expect(ranked.map((r) => LINES[r.row])).toEqual([LINES[0], LINES[2], LINES[1], LINES[5]]);
    // Each cell missed adds 0.9 over the floor of 1.8: one digit; both cells of the language
    // mark; five cells where "4/102" sits one cell left of "46/102".
    expect(ranked.map((r) => r.cost)).toEqual([0, 0.5, 1, 2.5].map((c) => expect.closeTo(c, 6)));
  });

  it("charges a character the font lacks its cell's worst glyph", () => {
    const lines = ["BS 46/1é2\tJA", "BS 46/1x2\tJA"];
    expect(codeLines(lines)[7]).toBe(255);
    const ranked = rankLines(readingOf(LINES[0]!), codeLines(lines), 2);
    expect(ranked.map((r) => r.row)).toEqual([0, 1]);
    expect(ranked[0]!.cost).toBeCloseTo(ranked[1]!.cost, 6);
  });

  it("codes a line cell by cell as read.ts lays it out", () => {
    const glyph = (c: string, lang: boolean) => (lang ? [..."ABCDEFGHIJKLMNOPQRSTUVWXYZ "] : [...GLYPHS]).indexOf(c);
    const expected = (text: string, lang: string) => lineCells(text, lang).map((c, i) => glyph(c, i >= N - 2));
    for (const [line, text, lang] of [["MEW 6/165\tEN", "MEW 6/165", "EN"], ["SV2a 046/165\tJA", "SV2a 046/165", "JA"], ["PROMO", "PROMO", "EN"], ["SWSH12PT5GG GG25/GG70\tEN", "SWSH12PT5GG GG25/GG70", "EN"]] as const) {
      expect(Array.from(codeLines([line]))).toEqual(expected(text, lang));
    }
    // Rows one after another.
    expect(Array.from(codeLines(["A\tEN", "B\tJA"]).subarray(N))).toEqual(expected("B", "JA"));
  });
});

describe("readCells", () => {
  it("reads a rendered face's line as printed, and ranks the right line first", async () => {
    const width = 500;
    const face = await sharp(await renderFace(CARD, { width })).raw().toBuffer({ resolveWithObject: true });
    const rgb = { data: face.data.subarray(0), w: face.info.width, h: face.info.height };
    const stride = face.info.channels;
    const data = Buffer.alloc(rgb.w * rgb.h * 3);
    for (let p = 0; p < rgb.w * rgb.h; p++) for (let c = 0; c < 3; c++) data[p * 3 + c] = face.data[p * stride + c]!;
    const quad: Quad = [{ x: -0.5, y: -0.5 }, { x: rgb.w - 0.5, y: -0.5 }, { x: rgb.w - 0.5, y: rgb.h - 0.5 }, { x: -0.5, y: rgb.h - 0.5 }];
    const r = await readCells({ data, w: rgb.w, h: rgb.h }, quad, width / FACE.width);
    expect(r.text.trimEnd()).toBe("BS 46/102       JA");
    expect(r.quality).toBeGreaterThan(0.8);
    expect(LINES[rankLines(r, codeLines(LINES), 1)[0]!.row]).toBe(LINES[0]);
    // The same card read the other way up shows no printed line where the line should be.
    const upside: Quad = [quad[2], quad[3], quad[0], quad[1]];
    expect((await readCells({ data, w: rgb.w, h: rgb.h }, upside, width / FACE.width)).quality).toBeLessThan(0.4);
  });
});
