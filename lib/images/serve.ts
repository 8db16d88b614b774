import { limitIp } from "@/lib/accounts/abuse";
import type { ApiError } from "@/lib/api/errors";
import { clientIp } from "@/lib/api/client-ip";
import { errorResponse, fail, requestId } from "@/lib/api/respond";
import { Readable, storage } from "@/lib/storage";
import { withPrinting } from "@/lib/vision/art";
import { renderFace } from "@/lib/vision/render";
import { faceRow, recordImageChanges, storedImage, type FaceRow } from "./queries/images";
import { SIZES, storeCardFront, type Size } from "./store";

// GET /images/cards/{id}/front-{size}.webp: the stored file, or for a card that has none yet
// its rendered face, drawn and stored on this first request (render-faces does all ahead).
// A stored file costs a read; a render costs the CPU of drawing and encoding three sizes. So
// renders alone count against the caller's address (RATE_LIMIT_IMAGES), and concurrent first
// requests for one card wait for one render instead of each drawing their own.

const FILE = /^front-(small|normal|large)\.webp$/;

type Render = { ok: true } | { ok: false; ip: string; refusal: ApiError };

// Renders under way in this process, by card id.
const slot = globalThis as unknown as { __faceRenders?: Map<string, Promise<Render>> };
const inFlight = () => (slot.__faceRenders ??= new Map());

export async function serveCardImage(req: Request, cardId: string, file: string): Promise<Response> {
  const m = FILE.exec(file);
  if (!m) return fail(req, "NOT_FOUND", `No image ${file}: files are front-small.webp, front-normal.webp and front-large.webp.`);
  const size = m[1]!.toUpperCase() as Size;
  let found = await storedImage(cardId, "FRONT", size);
  if (!found) {
    const card = await faceRow(cardId);
    if (!card) return fail(req, "CARD_NOT_FOUND", `No card ${cardId}.`, { id: cardId });
    const rendered = await renderOnce(req, card);
    if (!rendered.ok) return errorResponse(rendered.refusal, requestId(req));
    found = await storedImage(cardId, "FRONT", size);
    if (!found) return fail(req, "INTERNAL_ERROR", "The rendered image could not be stored.");
  }
  const headersOf = (sha256: string) =>
    ({ "content-type": "image/webp", etag: `"${sha256}"`, "cache-control": "public, max-age=86400", "access-control-allow-origin": "*" });
  if (req.headers.get("if-none-match") === `"${found.sha256}"`) return new Response(null, { status: 304, headers: headersOf(found.sha256) });
  let obj = await (await storage()).get(found.storage_key);
  if (!obj) {
    // The record outlived its file (a storage folder wiped or not shared with this instance): the
    // face is drawn again rather than the card answering 404; the images job brings a scan back.
    const card = await faceRow(cardId);
    const rendered = card ? await renderOnce(req, card) : undefined;
    if (rendered && !rendered.ok) return errorResponse(rendered.refusal, requestId(req));
    const again = await storedImage(cardId, "FRONT", size);
    obj = again ? await (await storage()).get(again.storage_key) : null;
    if (!again || !obj) return fail(req, "NOT_FOUND", "The image is recorded but its file is missing; the images job will store it again.");
    found = again;
  }
  return new Response(Readable.toWeb(obj.body) as ReadableStream, { headers: { ...headersOf(found.sha256), "content-length": String(obj.size) } });
}

async function hasFile(key: string): Promise<boolean> {
  const obj = await (await storage()).get(key);
  obj?.body.destroy();
  return !!obj;
}

/** Joins the card's render under way, or starts one in this caller's name. */
async function renderOnce(req: Request, card: FaceRow): Promise<Render> {
  const ip = clientIp(req);
  for (let running = inFlight().get(card.id); running; running = inFlight().get(card.id)) {
    const outcome = await running;
    // A render refused to another address answers nothing for this one: it asks in its own name.
    if (outcome.ok || outcome.ip === ip) return outcome;
  }
  // Registered before the first await, so every request that arrives meanwhile joins it.
  const flight = renderFor(req, ip, card).finally(() => inFlight().delete(card.id));
  inFlight().set(card.id, flight);
  return flight;
}

async function renderFor(req: Request, ip: string, card: FaceRow): Promise<Render> {
  // A request that looked just before the previous render stored the face finds it now, free.
  const stored = await storedImage(card.id, "FRONT", "LARGE");
  if (stored && (await hasFile(stored.storage_key))) return { ok: true };
  const limit = await limitIp(req, "images");
  if (!limit.ok) return { ok: false, ip, refusal: limit.error };
  await storeCardFront(card.id, await renderFace(await withPrinting(card), { width: SIZES.LARGE }), "rendered");
  await recordImageChanges([card.id]);
  return { ok: true };
}
