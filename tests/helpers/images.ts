import sharp from "sharp";
import { withPrinting } from "@/lib/vision/art";
import { renderFace, type FaceCard } from "@/lib/vision/render";
import { synthCenteringPhoto, synthPhoto } from "@/lib/vision/synth";

// Photos for the upload routes: a rendered face laid flat on a plain background, as a scanner
// would deliver it, with the frame placed at known ratios.

export const SAMPLE_CARD: FaceCard = {
  id: "base1-4", name: "Charizard", hp: 120, number: "4", set_code: "base1", supertype: "Pokémon", types: ["Fire"], rarity: "Rare Holo",
  attacks: ["Energy Burn", "Fire Spin"],
};

export async function cardScan(centering = { left_right: 50, top_bottom: 50 }, card: FaceCard = SAMPLE_CARD): Promise<Buffer> {
  const face = await renderFace(card, { width: 630, centering });
  return sharp({ create: { width: 760, height: 1010, channels: 3, background: "#f4f4f4" } })
    .composite([{ input: face, left: 60, top: 55 }]).jpeg({ quality: 90 }).toBuffer();
}

export function imageForm(bytes: Buffer, type = "image/jpeg", name = "scan.jpg"): FormData {
  const form = new FormData();
  form.append("image", new Blob([new Uint8Array(bytes)], { type }), name);
  return form;
}

/**
 * A phone photo of `card`'s rendered face: perspective, clutter, glare, JPEG (lib/vision/synth.ts).
 * The face is drawn as the catalogue's card would be (its shared art seed and printed line, from
 * the test database), unless `card` says otherwise.
 */
export async function cardPhoto(card: FaceCard = SAMPLE_CARD, seed = "test"): Promise<Buffer> {
  return (await synthPhoto(await renderFace(await withPrinting(card)), { seed })).photo;
}

/** A photo with no card in it: blurred coloured shapes. */
export async function noCardPhoto(): Promise<Buffer> {
  const shapes = Array.from({ length: 30 }, (_, i) => `<circle cx="${(i * 137) % 800}" cy="${(i * 251) % 800}" r="${40 + (i % 7) * 20}" fill="hsl(${(i * 47) % 360},50%,50%)"/>`).join("");
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="800"><rect width="800" height="800" fill="#556"/>${shapes}</svg>`;
  return sharp(Buffer.from(svg)).blur(3).jpeg({ quality: 80 }).toBuffer();
}

/** A phone photo taken to check centering: the card tilted and in perspective on a table. */
export async function centeringPhoto(centering = { left_right: 58, top_bottom: 47 }, card: FaceCard = SAMPLE_CARD): Promise<Buffer> {
  return (await synthCenteringPhoto(await renderFace(card, { centering }), { seed: "test" })).photo;
}
