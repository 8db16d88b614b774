// Cache-Control per route, as SPEC.md gives it. Catalogue reads that SPEC.md does not name
// take the catalogue default.
export const CACHE = {
  catalog: "public, max-age=60, s-maxage=300, stale-while-revalidate=600",
  daily: "public, max-age=86400",
  status: "public, max-age=60",
  privatePrices: "private, max-age=300",
  // The change feed: always revalidated (a 304 is free), never served stale.
  feed: "private, no-cache",
  none: "no-store",
} as const;
