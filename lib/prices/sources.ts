// The seven price sources of CONTRACT.md section 1, ordered by code: what
// GET /v1/prices/sources serves, what the `source` filter accepts, what the delay rule reads.

export type SourceCode = "CARDMARKET" | "COMMUNITY" | "EBAY" | "INDEX" | "PRICECHARTING" | "SNKRDUNK" | "TCGPLAYER";

export type PriceSource = { source: SourceCode; label: string; min_delay_hours: number; is_own: boolean };

export const SOURCES: readonly PriceSource[] = [
  { source: "CARDMARKET", label: "Cardmarket", min_delay_hours: 24, is_own: false },
  { source: "COMMUNITY", label: "Community reports", min_delay_hours: 0, is_own: false },
  { source: "EBAY", label: "eBay sold listings", min_delay_hours: 24, is_own: false },
  { source: "INDEX", label: "Composite index", min_delay_hours: 0, is_own: true },
  { source: "PRICECHARTING", label: "PriceCharting", min_delay_hours: 24, is_own: false },
  { source: "SNKRDUNK", label: "SNKRDUNK", min_delay_hours: 24, is_own: false },
  { source: "TCGPLAYER", label: "TCGplayer", min_delay_hours: 24, is_own: false },
];

export const SOURCE_CODES = SOURCES.map((s) => s.source) as [SourceCode, ...SourceCode[]];
export const THIRD_PARTY = SOURCES.filter((s) => !s.is_own).map((s) => s.source);
const BY_CODE = new Map(SOURCES.map((s) => [s.source, s]));

export const sourceOf = (code: string): PriceSource | undefined => BY_CODE.get(code as SourceCode);
export const delayHours = (code: string): number => BY_CODE.get(code as SourceCode)?.min_delay_hours ?? 0;
