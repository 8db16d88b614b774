import { decoded, hasNul } from "@/lib/util/text";

/**
 * A page's path segment as it is looked up, or null when it can name nothing. The segment comes
 * decoded once by Next, so `%2500` arrives as `%00`, which decodes again to a NUL (PostgreSQL text
 * cannot hold one: a 500 from the query), and `%25E0` as `%E0`, which does not decode at all.
 * Addresses broken before that are refused by proxy.ts.
 */
export function segment(raw: string): string | null {
  const s = decoded(raw);
  return s === null || hasNul(s) ? null : s;
}
