import { hasNul } from "@/lib/util/text";
import { parseItemFields, type Condition, type Currency, type Language, type Printing } from "./model";

// The collection's CSV (docs/collection.md): RFC 4180 (commas, double quotes around a field
// that holds a comma, quote or line break, a quote doubled inside), UTF-8, a header line naming
// exactly these columns in this order. Parsing is pure: the card ids are checked against the
// catalogue by the import, which adds every line or none.

export const CSV_COLUMNS = ["card_id", "quantity", "condition", "printing", "language", "price_paid", "currency", "added_at"] as const;
export const MAX_CSV_BYTES = 1_000_000;
export const MAX_CSV_LINES = 5_000;
/** Errors listed at most; the count says how many there were. */
export const MAX_REPORTED_ERRORS = 100;

export type CsvItem = {
  cardId: string; quantity: number; condition: Condition; printing: Printing; language: Language;
  pricePaid: number | null; currency: Currency; addedAt: string | null;
};
export type CsvLine = { line: number; item: CsvItem };
export type CsvError = { line: number; message: string };
export type CsvParse = { ok: true; lines: CsvLine[] } | { ok: false; errors: CsvError[]; fatal?: string };

/** Records with the line each starts on (1-based); a quoted field may span lines. */
export function csvRecords(text: string): { line: number; cells: string[] }[] | CsvError {
  const out: { line: number; cells: string[] }[] = [];
  let line = 1;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const start = line;
    const cells: string[] = [];
    let cell = "";
    let quoted = false;
    let wasQuoted = false;
    for (;;) {
      if (i >= n) {
        if (quoted) return { line: start, message: "a quoted field is not closed" };
        cells.push(cell);
        break;
      }
      const c = text[i]!;
      if (quoted) {
        if (c === '"') {
          if (text[i + 1] === '"') {
            cell += '"';
            i += 2;
          } else {
            quoted = false;
            i++;
          }
        } else {
          if (c === "\n") line++;
          cell += c;
          i++;
        }
        continue;
      }
      if (c === '"') {
        if (cell !== "" || wasQuoted) return { line, message: "a quote inside an unquoted field (quote the whole field and double the quote)" };
        quoted = true;
        wasQuoted = true;
        i++;
      } else if (c === ",") {
        cells.push(cell);
        cell = "";
        wasQuoted = false;
        i++;
      } else if (c === "\r" || c === "\n") {
        cells.push(cell);
        i += c === "\r" && text[i + 1] === "\n" ? 2 : 1;
        line++;
        break;
      } else {
        if (wasQuoted) return { line, message: "text after a closing quote" };
        cell += c;
        i++;
      }
    }
    // PostgreSQL's text cannot hold a NUL: the line is refused here, with its number.
    if (cells.some(hasNul)) return { line: start, message: "a field holds a NUL character" };
    // Blank lines are skipped (an editor's trailing newline, a gap).
    if (!(cells.length === 1 && cells[0]!.trim() === "")) out.push({ line: start, cells });
  }
  return out;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/;

/** added_at: empty (the import's time), a date (midnight UTC) or a date and time with its zone; as ISO UTC. */
export function parseAddedAt(v: string, now = Date.now()): string | null | { error: string } {
  const s = v.trim();
  if (!s) return null;
  if (!ISO_DATE.test(s) && !ISO_TIME.test(s)) return { error: `added_at must be a date (2026-01-31) or an ISO 8601 time with its zone (2026-01-31T09:30:00Z), not ${JSON.stringify(s.slice(0, 40))}` };
  const t = Date.parse(ISO_DATE.test(s) ? `${s}T00:00:00Z` : s);
  // Date.parse rolls 2026-02-30 over to March, with a time as without: the day written must be
  // a day of the calendar.
  const day = s.slice(0, 10);
  const rolled = Number.isFinite(t) && new Date(Date.parse(`${day}T00:00:00Z`)).toISOString().slice(0, 10) !== day;
  if (!Number.isFinite(t) || rolled || t < Date.UTC(1990, 0, 1)) return { error: `added_at ${JSON.stringify(s)} is not a real date after 1990` };
  if (t > now + 86_400_000) return { error: `added_at ${s} is in the future` };
  return new Date(t).toISOString();
}

/**
 * Parses a whole file: the header, then one item per record. Every bad line is reported with its
 * number (up to MAX_REPORTED_ERRORS); any error means nothing is to be imported.
 */
export function parseCollectionCsv(input: string | Uint8Array, now = Date.now()): CsvParse {
  const bytes = typeof input === "string" ? Buffer.byteLength(input) : input.byteLength;
  if (bytes > MAX_CSV_BYTES) {
    return { ok: false, errors: [], fatal: `The file is ${bytes.toLocaleString("en")} bytes; an import takes at most ${MAX_CSV_BYTES.toLocaleString("en")} bytes (1 MB). Split it into several files.` };
  }
  let text = typeof input === "string" ? input : new TextDecoder("utf-8", { fatal: false }).decode(input);
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.includes("\uFFFD")) return { ok: false, errors: [], fatal: "The file is not UTF-8 text." };
  const records = csvRecords(text);
  if (!Array.isArray(records)) return { ok: false, errors: [records] };
  const [head, ...body] = records;
  if (!head) return { ok: false, errors: [], fatal: `The file is empty: it needs the header line ${CSV_COLUMNS.join(",")}.` };
  const header = head.cells.map((c) => c.trim().toLowerCase());
  if (header.join(",") !== CSV_COLUMNS.join(",")) {
    return { ok: false, errors: [{ line: head.line, message: `the header must be exactly ${CSV_COLUMNS.join(",")} (got ${JSON.stringify(head.cells.join(",").slice(0, 200))})` }] };
  }
  if (body.length > MAX_CSV_LINES) {
    return { ok: false, errors: [], fatal: `The file has ${body.length.toLocaleString("en")} lines of cards; an import takes at most ${MAX_CSV_LINES.toLocaleString("en")}. Split it into several files.` };
  }
  if (!body.length) return { ok: false, errors: [], fatal: "The file has a header but no cards." };
  const errors: CsvError[] = [];
  const lines: CsvLine[] = [];
  for (const r of body) {
    if (r.cells.length !== CSV_COLUMNS.length) {
      errors.push({ line: r.line, message: `expected ${CSV_COLUMNS.length} fields, found ${r.cells.length}` });
      continue;
    }
    const [cardId, quantity, condition, printing, language, price_paid, currency, added] = r.cells.map((c) => c.trim()) as string[] as [string, string, string, string, string, string, string, string];
    if (!cardId) {
      errors.push({ line: r.line, message: "card_id is empty" });
      continue;
    }
    if (cardId.length > 100) {
      errors.push({ line: r.line, message: "card_id is longer than 100 characters" });
      continue;
    }
    const fields = parseItemFields({ quantity, condition, printing, language, price_paid, currency });
    if (typeof fields === "string") {
      errors.push({ line: r.line, message: fields });
      continue;
    }
    const addedAt = parseAddedAt(added, now);
    if (addedAt && typeof addedAt === "object") {
      errors.push({ line: r.line, message: addedAt.error });
      continue;
    }
    lines.push({ line: r.line, item: { cardId, ...fields, addedAt } });
  }
  return errors.length ? { ok: false, errors } : { ok: true, lines };
}

/** A field as CSV: quoted when it holds a comma, quote or line break (and a leading =,+,-,@ is left as is: values are ours). */
export function csvField(v: string): string {
  return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

export type ExportRow = {
  cardId: string; quantity: number; condition: string; printing: string; language: string;
  pricePaid: number | null; currency: string; addedAt: string;
};

/** Price paid as written on export: two decimals, a dot, nothing when unknown. */
export const formatPrice = (v: number | null) => (v == null ? "" : v.toFixed(2));

/** The file: the header and one line per item, CRLF-free (\n), ending in a newline. */
export function formatCollectionCsv(items: ExportRow[]): string {
  const out = [CSV_COLUMNS.join(",")];
  for (const it of items) {
    out.push([it.cardId, String(it.quantity), it.condition, it.printing, it.language, formatPrice(it.pricePaid), it.currency, new Date(it.addedAt).toISOString()]
      .map(csvField).join(","));
  }
  return out.join("\n") + "\n";
}

/** Errors as text lines for a person: "line 4: condition must be …", and how many more. */
export function describeErrors(errors: CsvError[], total = errors.length): string[] {
  const shown = [...errors].sort((a, b) => a.line - b.line).slice(0, MAX_REPORTED_ERRORS).map((e) => `line ${e.line}: ${e.message}`);
  if (total > shown.length) shown.push(`… and ${total - shown.length} more`);
  return shown;
}
