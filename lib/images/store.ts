import { createHash } from "node:crypto";
import sharp from "sharp";
import { storage, Readable } from "@/lib/storage";
import { saveStoredImages, type StoredImage } from "./queries/images";

// A card's front in the three sizes of the reference vocabulary, as WebP in storage (local
// disk or S3). Whatever the source (a download, an operator's scan, a rendered face), one
// decode, then one resize per size.

export const SIZES = { SMALL: 245, NORMAL: 488, LARGE: 734 } as const;
export type Size = keyof typeof SIZES;
export type Origin = "upstream" | "scan" | "rendered";

export const imageKey = (cardId: string, size: Size) => `images/cards/${encodeURIComponent(cardId)}/front-${size.toLowerCase()}.webp`;

/** Stores the three sizes; throws when `input` is not a decodable image. */
export async function storeCardFront(cardId: string, input: Buffer, origin: Origin): Promise<StoredImage[]> {
  const st = await storage();
  // EXIF orientation honoured: a phone scan stored sideways would be served sideways.
  const source = sharp(input, { failOn: "error" }).rotate();
  const out: StoredImage[] = [];
  for (const [size, width] of Object.entries(SIZES) as [Size, number][]) {
    const { data, info } = await source.clone().resize({ width, withoutEnlargement: false }).webp({ quality: 82 }).toBuffer({ resolveWithObject: true });
    const key = imageKey(cardId, size);
    await st.put(key, Readable.from(data), "image/webp");
    out.push({
      owner_id: cardId, face: "FRONT", size, storage_key: key, origin, width: info.width, height: info.height,
      sha256: createHash("sha256").update(data).digest("hex"),
    });
  }
  await saveStoredImages(out);
  return out;
}
