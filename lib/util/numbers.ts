// Printed collector numbers, one rule for the import and for searches.

/** Numeric part of a printed number: 1S → 1, TG05 → 5, 022 → 22; none → null (sorts last). */
export function numberSort(number: string): number | null {
  const m = /\d+/.exec(number);
  if (!m) return null;
  const n = Number(m[0]);
  return Number.isSafeInteger(n) && n <= 2_147_483_647 ? n : null;
}

/** Leading zeros dropped from every digit run, lower case: 022 → 22, TG05 → tg5. */
export function normalizeNumber(n: string): string {
  return n.toLowerCase().replace(/(^|[^0-9])0+([0-9])/g, "$1$2");
}

/** normalizeNumber as SQL, for the same comparison inside PostgreSQL. */
export const NORMALIZE_NUMBER_SQL = (column: string) => `regexp_replace(lower(${column}), '(^|[^0-9])0+([0-9])', '\\1\\2', 'g')`;
