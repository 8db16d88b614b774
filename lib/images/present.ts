import { currentOrigin } from "@/lib/api/context";
import type { CardImageRow } from "@/lib/catalog/queries/cards";
import { SIZES, type Size } from "./store";

// A card's image links in include=images. Stored files are served by the app itself in the
// three sizes; a card with only upstream links gives those until the images job fetches them;
// a card with neither gets the app's links, where its face is rendered on first request.

export type ImageLink = { face: string; size: Size; url: string; origin: string; width: number | null; height: number | null };

export const appImageUrl = (cardId: string, size: Size) =>
  `${currentOrigin()}/images/cards/${encodeURIComponent(cardId)}/front-${size.toLowerCase()}.webp`;

export function presentImages(cardId: string, rows: CardImageRow[]): ImageLink[] {
  const front = rows.filter((r) => r.face === "FRONT");
  const stored = front.filter((r) => r.storage_key);
  // A face rendered on request (the app's link asked for before the images job ran) is no
  // photograph: the catalogue's own links go on being given until the real image is stored.
  const real = stored.filter((r) => r.origin !== "rendered");
  const upstream = front.filter((r) => r.source_url);
  const shown = real.length || !upstream.length ? stored : [];
  if (shown.length) {
    return shown.map((r) => ({ face: "FRONT", size: r.size as Size, url: appImageUrl(cardId, r.size as Size), origin: r.origin, width: r.width, height: r.height }));
  }
  if (upstream.length) return upstream.map((r) => ({ face: "FRONT", size: r.size as Size, url: r.source_url!, origin: "upstream", width: null, height: null }));
  return (Object.keys(SIZES) as Size[]).map((size) => ({ face: "FRONT", size, url: appImageUrl(cardId, size), origin: "rendered", width: null, height: null }));
}
