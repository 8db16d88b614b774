import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { FACE_MATCH, faceDistance, faceReference, photoFace } from "@/lib/vision/face";
import { credible } from "@/lib/vision/identify";
import { renderFace, type FaceCard } from "@/lib/vision/render";
import { hardPhoto } from "@/lib/vision/synth-hard";

// The whole face tells apart cards whose artworks are alike: the frame's colours, the name, the
// attacks. Here two cards carry the very same artwork (one illustration seed) and differ in all
// the rest, so the artwork alone cannot choose between them.

const fire: FaceCard = { id: "face-a", art: "one-illustration", name: "Charizard", hp: 120, number: "4", set_code: "base1", supertype: "Pokémon", types: ["Fire"], rarity: "Rare Holo", attacks: ["Fire Spin"] };
const water: FaceCard = { id: "face-b", art: "one-illustration", name: "Blastoise", hp: 100, number: "2", set_code: "base1", supertype: "Pokémon", types: ["Water"], rarity: "Rare Holo", attacks: ["Hydro Pump", "Withdraw"] };

async function photoOf(card: FaceCard, seed: string) {
  const { photo, quad } = await hardPhoto(await renderFace(card), seed, "medium");
  const { data, info } = await sharp(photo).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { rgb: { data, w: info.width, h: info.height }, quad };
}

/** The rule a face passes, as identify applies it. */
const faceMatch = (best: number | undefined, next: number | undefined) => credible(best, next, FACE_MATCH);

describe("the whole face", () => {
  it("is nearer the photographed card's face than another card's with the same artwork", async () => {
    const refs = { fire: await faceReference(fire), water: await faceReference(water) };
    for (const [card, own, other] of [[fire, refs.fire, refs.water], [water, refs.water, refs.fire]] as const) {
      for (const seed of ["face-1", "face-2", "face-3"]) {
        const { rgb, quad } = await photoOf(card, seed);
        const photo = photoFace(rgb, quad);
        const [d, elsewhere] = [faceDistance(photo, own), faceDistance(photo, other)];
        expect(d, `${card.name} ${seed}`).toBeLessThan(FACE_MATCH.maxDistance);
        expect(d, `${card.name} ${seed}`).toBeLessThan(FACE_MATCH.maxRatio * elsewhere);
      }
    }
    // Six photos drawn and two faces rendered: about a second alone, over five on a loaded machine.
  }, 30_000);

  it("a face is answered only when near and standing out from the next artwork's", () => {
    expect(faceMatch(0.15, 0.3)).toBe(true);
    expect(faceMatch(0.15, undefined)).toBe(true);
    expect(faceMatch(undefined, undefined)).toBe(false);
    // Near, but the next artwork's face is about as near: a photo of neither.
    expect(faceMatch(0.15, 0.2)).toBe(false);
    // Standing out, but far: the photo is not of a card of these faces.
    expect(faceMatch(FACE_MATCH.maxDistance + 0.01, 1)).toBe(false);
    expect(faceMatch(Number.NaN, 1)).toBe(false);
  });
});
