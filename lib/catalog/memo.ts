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

type Entry = { version: string; at: number; value: Promise<unknown> };
const entries = new Map<string, Entry>();

/** `load()`'s value for `key` at the catalogue's current version; a failure is not kept. */
export async function byCatalogVersion<T>(key: string, load: () => Promise<T>): Promise<T> {
  const version = await catalogCache.version();
  const hit = entries.get(key);
  if (hit && hit.version === version && Date.now() - hit.at < TTL_MS) {
    // Most recently used last: the first key is the one to evict.
    entries.delete(key);
    entries.set(key, hit);
    return hit.value as Promise<T>;
  }
  const value = load();
  entries.set(key, { version, at: Date.now(), value });
  value.catch(() => {
    if (entries.get(key)?.value === value) entries.delete(key);
  });
  while (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value!);
  return value;
}

/** Forget everything (tests). */
export function clearCatalogMemo(): void {
  entries.clear();
}
