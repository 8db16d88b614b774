// Keys for looking up identifiers (card and set ids, slugs, SKUs, printed codes, series).
//
// Only ASCII compares case-insensitively. Unicode case mapping (String#toLowerCase and
// toUpperCase, PostgreSQL's lower() and upper() on the caller's text) turns other letters into
// ASCII ones or changes the length: ß → SS, ﬁ → FI, the Kelvin sign → k, dotless ı → I,
// İ → i̇. /v1/sets/ß then answered the set printed SS. So text is normalised to NFC first (the
// one canonical form of the same characters: the Kelvin sign is canonically K), and only then,
// if it is ASCII, are its A-Z/a-z folded and nothing else; other text is compared exactly.

const ASCII = /^[\x00-\x7f]*$/;
export const isAscii = (s: string) => ASCII.test(s);

/** Lower-cases A-Z and nothing else. */
export function asciiLower(raw: string): string {
  return raw.replace(/[A-Z]+/g, (s) => s.toLowerCase());
}

/** Upper-cases a-z and nothing else (closed vocabularies printed in capitals). */
export function asciiUpper(raw: string): string {
  return raw.replace(/[a-z]+/g, (s) => s.toUpperCase());
}

function key(raw: string, fold: (s: string) => string): string {
  const nfc = ASCII.test(raw) ? raw : raw.normalize("NFC");
  return ASCII.test(nfc) ? fold(nfc) : nfc;
}

/**
 * The key of an identifier compared with a lower-cased stored one (`id_lower`, `lower(alt_id)`,
 * a slug).
 */
export const identifierKey = (raw: string): string | null => key(raw, asciiLower);

/** The same for identifiers stored in capitals (printed set codes). */
export const printedCodeKey = (raw: string): string | null => key(raw, asciiUpper);
