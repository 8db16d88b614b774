import { PromiseLru } from "@/lib/util/promise-lru";
import { catalogCache } from "./version";

// What the collector pages read from the catalogue (every set, a set's cards, a search's page),
// kept in this process per catalogue version, as the API's response cache keeps rendered
// answers (lib/api/response-cache.ts): the version (lib/catalog/version.ts) moves with every
// import and with every refresh-index that changed an index, so a page never shows data older
// than the catalogue's version it checked (polled at most once a second). A few minutes' limit
// besides bounds anything that changes without a version. Callers store small rows only: the
// fields a page shows, not whole cards.

const MAX_ENTRIES = 400;
const TTL_MS = 5 * 60_000;

const entries = new PromiseLru<unknown, { version: string; at: number }>(MAX_ENTRIES);

/** `load()`'s value for `key` at the catalogue's current version; a failure is not kept. */
export async function byCatalogVersion<T>(key: string, load: () => Promise<T>): Promise<T> {
  const version = await catalogCache.version();
  const now = Date.now();
  return entries.get(key, load, { version, at: now }, (kept) => kept.version === version && now - kept.at < TTL_MS) as Promise<T>;
}

/** Forget everything (tests). */
export function clearCatalogMemo(): void {
  entries.clear();
}
