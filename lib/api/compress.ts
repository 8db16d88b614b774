import { constants, gzipSync } from "node:zlib";
import type { Rendered } from "./response-cache";

// Large answers go out gzip-compressed to clients that accept it: a 250-card page is 350 KB of
// JSON and about a tenth of that compressed. A cached rendering keeps its compressed bytes
// beside the plain ones, so a popular page is compressed once per catalogue version; an answer
// rendered for one request is compressed at the fastest level. Only the bytes change: the meter,
// the cards counted and everything else of the answer are the same.

/** Below this, compression saves less than its headers and CPU cost. */
export const GZIP_MIN_BYTES = 2048;

/** Whether Accept-Encoding admits gzip (`gzip`, `x-gzip` or `*`, with a q above 0). */
export function acceptsGzip(header: string | null): boolean {
  if (!header) return false;
  let star = false;
  for (const part of header.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const allowed = !q || Number(q.slice(2)) > 0;
    if (name === "gzip" || name === "x-gzip") return allowed;
    if (name === "*") star = allowed;
  }
  return star;
}

/** The rendering's body gzip-compressed: once for a cached rendering, at the fastest level otherwise. */
export function gzipOf(r: Rendered): Buffer {
  if (!r.packed) return gzipSync(r.body, { level: constants.Z_BEST_SPEED });
  return (r.packed.gzip ??= gzipSync(r.body, { level: 6 }));
}

/** The compressed representation's strong validator: another one than the plain body's. */
export const gzipEtag = (etag: string) => (etag.endsWith('"') ? `${etag.slice(0, -1)}-gz"` : etag);
