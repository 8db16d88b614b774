import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { describe as describeArt, fineDistance, sampleRegion } from "@/lib/vision/describe";
import { findCard, grayOf, orderCorners, type Quad } from "@/lib/vision/outline";
import { renderFace, type FaceCard } from "@/lib/vision/render";
import { cardsFromArt } from "@/lib/vision/window";

// A card whose outline cannot be closed (its top out of the frame, a finger over its left side)
// is still squared up from its artwork's window (window.ts), corners out of the frame included.

const CARD: FaceCard = { id: "t-window-1", name: "Charmander", hp: 50, number: "46", set_code: "base1", supertype: "Pokémon", types: ["Fire"], rarity: "Common", attacks: ["Ember"] };

/** Worst corner distance, either way up. */
function worst(found: Quad, truth: Quad): number {
  const t = orderCorners(truth);
  const f = orderCorners(found);
  const way = (k: number) => Math.max(...f.map((p, i) => Math.hypot(p.x - t[(i + k) % 4]!.x, p.y - t[(i + k) % 4]!.y)));
  return Math.min(way(0), way(2));
}

describe("cardsFromArt", () => {
  it("squares up a card with a side out of the frame and a finger over another from its artwork's window", async () => {
    const [cw, ch] = [300, 419];
    const [left, top] = [130, -36];
    const face = await sharp(await renderFace(CARD, { width: cw })).resize(cw, ch, { fit: "fill" }).extract({ left: 0, top: -top, width: cw, height: ch + top }).png().toBuffer();
    const [W, H] = [560, 440];
    const finger = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><rect x="-40" y="210" width="${left + 65}" height="46" rx="23" fill="#e0ac69"/><rect x="-40" y="290" width="${left + 55}" height="44" rx="22" fill="#c68642"/></svg>`);
    const table = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><rect width="${W}" height="${H}" fill="#6b5a48"/><rect x="0" y="400" width="${W}" height="6" fill="#544535"/><ellipse cx="500" cy="90" rx="50" ry="30" fill="#3a6ea5"/></svg>`);
    const photo = await sharp(table).composite([{ input: face, left, top: 0 }, { input: finger }]).jpeg({ quality: 80 }).toBuffer();
    const { data, info } = await sharp(photo).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const rgb = { data, w: info.width, h: info.height };
    const truth: Quad = [{ x: left - 0.5, y: top - 0.5 }, { x: left + cw - 0.5, y: top - 0.5 }, { x: left + cw - 0.5, y: top + ch - 0.5 }, { x: left - 0.5, y: top + ch - 0.5 }];
    // The artwork as read through a quad, and how far that is from the artwork read through the true corners.
    const art = (q: Quad) => describeArt(sampleRegion(rgb, q)).fine;
    const truthArt = art(truth);
    const off = (q: Quad) => Math.min(fineDistance(art(q), truthArt), fineDistance(art([q[2], q[3], q[0], q[1]]), truthArt));
    // The outline alone does not find it.
    const found = findCard(grayOf(rgb), { lines: 26 });
    expect(found === null || worst(found.quad, truth) > 0.05 * cw).toBe(true);
    const cards = cardsFromArt(grayOf(rgb), 2);
    const best = cards.reduce((b, q) => (off(q) < off(b) ? q : b));
    expect(worst(best, truth)).toBeLessThan(0.06 * cw);
    expect(off(best)).toBeLessThan(0.1);
  });
});
