import { fail } from "@/lib/api/respond";
import { Readable, storage } from "@/lib/storage";
import { renderFace } from "@/lib/vision/render";
import { faceRow, recordImageChanges, storedImage } from "./queries/images";
import { SIZES, storeCardFront, type Size } from "./store";

// GET /images/cards/{id}/front-{size}.webp: the stored file, or for a card that has none yet
// its rendered face, drawn and stored on this first request (render-faces does all ahead).

const FILE = /^front-(small|normal|large)\.webp$/;

export async function serveCardImage(req: Request, cardId: string, file: string): Promise<Response> {
  const m = FILE.exec(file);
  if (!m) return fail(req, "NOT_FOUND", `No image ${file}: files are front-small.webp, front-normal.webp and front-large.webp.`);
  const size = m[1]!.toUpperCase() as Size;
  let found = await storedImage(cardId, "FRONT", size);
  if (!found) {
    const card = await faceRow(cardId);
    if (!card) return fail(req, "CARD_NOT_FOUND", `No card ${cardId}.`, { id: cardId });
    await storeCardFront(card.id, await renderFace(card, { width: SIZES.LARGE }), "rendered");
    await recordImageChanges([card.id]);
    found = await storedImage(cardId, "FRONT", size);
    if (!found) return fail(req, "INTERNAL_ERROR", "The rendered image could not be stored.");
  }
  const etag = `"${found.sha256}"`;
  const headers = { "content-type": "image/webp", etag, "cache-control": "public, max-age=86400", "access-control-allow-origin": "*" };
  if (req.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers });
  const obj = await (await storage()).get(found.storage_key);
  if (!obj) return fail(req, "NOT_FOUND", "The image is recorded but its file is missing; the images job will store it again.");
  return new Response(Readable.toWeb(obj.body) as ReadableStream, { headers: { ...headers, "content-length": String(obj.size) } });
}
