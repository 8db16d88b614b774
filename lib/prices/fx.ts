import { sql } from "drizzle-orm";
import { rows, type Db } from "@/lib/db/client";
import type { FxLookup } from "./composite";

// Euro reference rates in the ECB's CSV format (eurofxref-hist.csv): a header
// `Date,USD,JPY,...`, then one line per business day, units per 1 EUR, `N/A` where none.

export type FxRate = { day: string; currency: string; per_eur: number };

export function parseEcbCsv(text: string): { rates: FxRate[]; errors: string[] } {
  const lines = text.split(/\r?\n/).filter((l) => l.trim());
  const header = lines[0]?.split(",").map((h) => h.trim()) ?? [];
  const errors: string[] = [];
  if (header[0] !== "Date") return { rates: [], errors: ["the first column must be Date"] };
  const rates: FxRate[] = [];
  for (let i = 1; i < lines.length; i++) {
    const cells = lines[i]!.split(",").map((c) => c.trim());
    const day = cells[0]!;
    if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) {
      errors.push(`line ${i + 1}: bad date ${day}`);
      continue;
    }
    for (let j = 1; j < header.length; j++) {
      const currency = header[j];
      const v = cells[j];
      if (!currency || !v || v === "N/A") continue;
      const n = Number(v);
      if (!Number.isFinite(n) || n <= 0) errors.push(`line ${i + 1}: bad ${currency} rate ${v}`);
      else rates.push({ day, currency, per_eur: n });
    }
  }
  return { rates, errors };
}

export async function storeRates(rates: FxRate[], db?: Db): Promise<number> {
  for (let i = 0; i < rates.length; i += 5000) {
    const part = rates.slice(i, i + 5000);
    await rows(sql`
      insert into fx_rates (day, currency, per_eur)
      select d::date, c, r from unnest(${sql.param(part.map((x) => x.day))}::text[], ${sql.param(part.map((x) => x.currency))}::text[],
        ${sql.param(part.map((x) => x.per_eur))}::float8[]) as t(d, c, r)
      on conflict (currency, day) do update set per_eur = excluded.per_eur`, db);
  }
  return rates.length;
}

/** All rates in memory (a few thousand rows a year), looked up by the latest day at most 7 days before. */
export async function loadFx(db?: Db): Promise<FxLookup> {
  const all = await rows<{ currency: string; day: string; per_eur: number }>(sql`select currency, day::text as day, per_eur from fx_rates order by currency, day`, db);
  const by = new Map<string, { days: string[]; rates: number[] }>();
  for (const r of all) {
    const s = by.get(r.currency) ?? { days: [], rates: [] };
    s.days.push(r.day);
    s.rates.push(Number(r.per_eur));
    by.set(r.currency, s);
  }
  return (currency, day) => {
    const s = by.get(currency);
    if (!s) return undefined;
    let lo = 0;
    let hi = s.days.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (s.days[mid]! <= day) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    if (found < 0) return undefined;
    const age = (Date.parse(day) - Date.parse(s.days[found]!)) / 86_400_000;
    return age <= 7 ? s.rates[found] : undefined;
  };
}
