import sharp from "sharp";

// Photos of things that are not cards, for eval-vision.ts and tune-identify.ts (each with its own seeds).

/** Things that are not cards: clutter alone, a blank note, a patterned box, a phone, a book. */
export async function nonCardPhoto(seed: string, hard = false): Promise<Buffer> {
  const { seeded } = await import("@/lib/vision/render");
  const { synthPhoto } = await import("@/lib/vision/synth");
  const { hardPhoto } = await import("@/lib/vision/synth-hard");
  const r = seeded(`noncard:${seed}`);
  const kind = Math.floor(r() * 4);
  const hue = () => Math.floor(r() * 360);
  const shapes = (n: number, w: number, h: number) => Array.from({ length: n }, () =>
    `<ellipse cx="${r() * w}" cy="${r() * h}" rx="${10 + r() * w * 0.3}" ry="${10 + r() * h * 0.2}" fill="hsl(${hue()},${30 + r() * 60}%,${20 + r() * 60}%)"/>`).join("");
  const [w, h] = [630, 880];
  const object = [
    `<rect width="${w}" height="${h}" fill="#f4f1e8"/>${Array.from({ length: 14 }, (_, i) => `<rect x="60" y="${90 + i * 52}" width="${200 + r() * 320}" height="14" fill="#333" opacity="0.7"/>`).join("")}`,
    `<rect width="${w}" height="${h}" fill="hsl(${hue()},40%,50%)"/>${shapes(25, w, h)}`,
    `<rect width="${w}" height="${h}" fill="#111"/><rect x="30" y="60" width="${w - 60}" height="${h - 140}" fill="hsl(${hue()},60%,60%)"/>${shapes(6, w, h)}`,
    `<rect width="${w}" height="${h}" fill="hsl(${hue()},50%,30%)"/><text x="60" y="200" font-size="70" font-family="DejaVu Serif" fill="#eee">A NOVEL</text>`,
  ][kind]!;
  const face = await sharp(Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">${object}</svg>`)).png().toBuffer();
  // Half through synth.ts, half through synth-hard.ts at the medium level.
  const { photo } = hard ? await hardPhoto(face, `noncard:${seed}`, "medium") : await synthPhoto(face, { seed: `noncard:${seed}` });
  if (r() < 0.25) {
    // No object at all: the background of the photo alone.
    return sharp(photo).extract({ left: 0, top: 0, width: 400, height: 400 }).resize(800, 800).jpeg({ quality: 80 }).toBuffer();
  }
  return photo;
}
