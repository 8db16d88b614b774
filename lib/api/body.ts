import { ApiError } from "./errors";
import type { Upload } from "./route";

// Step 5 of the pipeline: the request body, read only once the caller is known and the plan lets
// it in, and never more of it than the route accepts. A chunked body announces no length, so
// the limit is counted on the stream itself: the reading stops at the first chunk past it.

export const MAX_JSON_BODY = 1_000_000;
/** Room for the multipart boundaries and part headers around the uploaded file. */
export const MULTIPART_OVERHEAD = 64 * 1024;

const declaredLength = (req: Request) => Number(req.headers.get("content-length") ?? 0);

const tooLarge = (what: string, maxBytes: number) =>
  new ApiError("PAYLOAD_TOO_LARGE", `${what} are limited to ${maxBytes} bytes.`, { max_bytes: maxBytes });

/**
 * The whole body, or the `refuse` error as soon as more than `limit` bytes arrived (a declared
 * Content-Length above it refuses without reading anything). The stream is cancelled so its
 * source stops producing; the server decides what becomes of the connection.
 */
export async function readBounded(req: Request, limit: number, refuse: () => ApiError): Promise<Uint8Array<ArrayBuffer>> {
  if (declaredLength(req) > limit) throw refuse();
  if (!req.body) return new Uint8Array(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      // Not awaited: the answer must not wait on a source that is slow to stop.
      reader.cancel().catch(() => {});
      throw refuse();
    }
    chunks.push(value);
  }
  return concat(chunks, size);
}

function concat(chunks: Uint8Array[], size: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/**
 * A GET's body is never read (its routes take none), but one declared past MAX_JSON_BODY is
 * refused as on every other route: a header read, nothing awaited.
 */
export function refuseDeclaredBody(req: Request): void {
  if (declaredLength(req) > MAX_JSON_BODY) throw tooLarge("Bodies", MAX_JSON_BODY);
}

/** A body schema that takes no body at all (`.optional()`): an empty request body is then no body. */
export const bodyOptional = (schema: { safeParse(v: unknown): { success: boolean } }) => schema.safeParse(undefined).success;

/**
 * A JSON body: 413 past MAX_JSON_BODY, 400 when not JSON or holding a NUL, and when empty unless
 * the route's body is optional (then undefined).
 */
export async function readJson(req: Request, optional = false): Promise<unknown> {
  const text = new TextDecoder().decode(await readBounded(req, MAX_JSON_BODY, () => tooLarge("Bodies", MAX_JSON_BODY)));
  if (!text.trim()) {
    if (optional) return undefined;
    throw new ApiError("INVALID_PARAMETER", "A JSON body is required.", { parameter: "body" });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ApiError("INVALID_PARAMETER", "The body is not valid JSON.", { parameter: "body" });
  }
  // PostgreSQL text cannot hold U+0000, escaped or not.
  if (text.includes("\\u0000") || text.includes("\u0000")) throw new ApiError("INVALID_PARAMETER", "The body contains a NUL character.", { parameter: "body" });
  return parsed;
}

const invalidImage = (message: string) => new ApiError("INVALID_IMAGE", message, { parameter: "image" });

/** The `image` field of a multipart upload: 413 when too large, 400 INVALID_IMAGE when absent or not an image. */
export async function readUpload(req: Request, maxBytes: number): Promise<Upload> {
  const refuse = () => tooLarge("Uploads", maxBytes);
  if (declaredLength(req) > maxBytes + MULTIPART_OVERHEAD) throw refuse();
  const contentType = req.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data/i.test(contentType)) throw invalidImage("Send the photo as multipart/form-data with the file in the field 'image'.");
  const file = await imageField(req, contentType, maxBytes + MULTIPART_OVERHEAD, refuse);
  if (file.size > maxBytes) throw refuse();
  const bytes = Buffer.from(await file.arrayBuffer());
  // The bytes decide, not the declared type: a PNG sent as image/jpg is still a PNG.
  const sniffed = sniff(bytes);
  if (!sniffed) throw invalidImage("The file is not a JPEG, PNG or WebP image.");
  return { bytes, contentType: sniffed };
}

/** The multipart body read within its bound, then parsed from those bytes alone. */
async function imageField(req: Request, contentType: string, limit: number, refuse: () => ApiError): Promise<File> {
  let field: FormDataEntryValue | null;
  try {
    const bytes = await readBounded(req, limit, refuse);
    field = (await new Response(bytes, { headers: { "content-type": contentType } }).formData()).get("image");
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw invalidImage("The multipart body could not be read.");
  }
  if (!field || typeof field === "string") throw invalidImage("The field 'image' must hold a file.");
  return field;
}

function sniff(b: Buffer): string | undefined {
  if (b.length > 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return "image/jpeg";
  if (b.length > 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return "image/png";
  if (b.length > 12 && b.toString("ascii", 0, 4) === "RIFF" && b.toString("ascii", 8, 12) === "WEBP") return "image/webp";
  return undefined;
}
