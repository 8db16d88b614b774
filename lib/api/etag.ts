import crypto, { createHash } from "node:crypto";

const oneShot = (crypto as { hash?: (algorithm: string, data: string | Uint8Array, encoding: "base64url") => string }).hash;

/** Strong validator of the exact bytes sent: same body, same ETag, on any instance (text is hashed as its UTF-8). */
export function etagOf(body: string | Uint8Array): string {
  return `"${oneShot ? oneShot("sha1", body, "base64url") : createHash("sha1").update(body).digest("base64url")}"`;
}

/**
 * If-None-Match uses the weak comparison (RFC 9110 §13.1.2): W/ prefixes are ignored,
 * `*` matches any current representation, and the header may list several tags.
 */
export function matchesIfNoneMatch(header: string | null, etag: string): boolean {
  if (!header) return false;
  const wanted = etag.replace(/^W\//, "");
  return header.split(",").some((raw) => {
    const tag = raw.trim();
    return tag === "*" || tag.replace(/^W\//, "") === wanted;
  });
}
