// A month of daily amounts packed as little-endian float32, NaN where a day has no point.
// float32 keeps 7 significant digits: a 123,456.78 price survives to the cent.

export const monthKey = (day: string): number => Number(day.slice(0, 4)) * 100 + Number(day.slice(5, 7));
export const dayIndex = (day: string): number => Number(day.slice(8, 10)) - 1;

export function daysInMonth(month: number): number {
  return new Date(Date.UTC(Math.floor(month / 100), month % 100, 0)).getUTCDate();
}

export function emptyMonth(month: number): Buffer {
  const b = Buffer.alloc(daysInMonth(month) * 4);
  for (let i = 0; i < b.length; i += 4) b.writeFloatLE(Number.NaN, i);
  return b;
}

export function setDay(buf: Buffer, index: number, amount: number): void {
  buf.writeFloatLE(amount, index * 4);
}

/** The month's points as [day, amount] pairs, days without a point left out. */
export function unpack(month: number, buf: Buffer): [string, number][] {
  const prefix = `${Math.floor(month / 100)}-${String(month % 100).padStart(2, "0")}-`;
  const out: [string, number][] = [];
  for (let i = 0; i + 4 <= buf.length; i += 4) {
    const v = buf.readFloatLE(i);
    if (!Number.isNaN(v)) out.push([prefix + String(i / 4 + 1).padStart(2, "0"), roundAmount(v)]);
  }
  return out;
}

/** float32 noise off: amounts are money, at most 2 decimals (JPY none, but 2 do no harm). */
export const roundAmount = (v: number): number => Math.round(v * 100) / 100;

export function monthsBetween(from: string, to: string): number[] {
  const out: number[] = [];
  let y = Number(from.slice(0, 4));
  let m = Number(from.slice(5, 7));
  const end = monthKey(to);
  while (y * 100 + m <= end) {
    out.push(y * 100 + m);
    if (++m > 12) {
      m = 1;
      y++;
    }
  }
  return out;
}

/** `day` plus `n` days (YYYY-MM-DD, UTC). */
export const addDays = (day: string, n: number): string => new Date(Date.parse(day) + n * 86_400_000).toISOString().slice(0, 10);

/**
 * Calls `fn` for `n` consecutive days from `from` with each day's month key and index in its
 * month, by counting instead of formatting dates: history files hold hundreds of millions.
 */
export function eachDay(from: string, n: number, fn: (i: number, month: number, index: number) => void): void {
  let month = monthKey(from);
  let index = dayIndex(from);
  let length = daysInMonth(month);
  for (let i = 0; i < n; i++) {
    fn(i, month, index);
    if (++index === length) {
      index = 0;
      month = month % 100 === 12 ? month + 89 : month + 1;
      length = daysInMonth(month);
    }
  }
}
