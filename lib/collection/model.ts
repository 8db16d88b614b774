import { REFERENCE } from "@/lib/catalog/reference";

// The vocabulary of a collection item and the pure arithmetic of its value (docs/collection.md).

export const CONDITIONS = ["NM", "LP", "MP", "HP", "DMG"] as const;
export type Condition = (typeof CONDITIONS)[number];
export const CONDITION_NAMES: Record<Condition, string> = {
  NM: "Near mint", LP: "Lightly played", MP: "Moderately played", HP: "Heavily played", DMG: "Damaged",
};
export const PRINTINGS = REFERENCE.printings;
export type Printing = (typeof PRINTINGS)[number];
export const PRINTING_NAMES: Record<Printing, string> = {
  NORMAL: "Normal", HOLOFOIL: "Holofoil", REVERSE_HOLO: "Reverse holo", FIRST_EDITION: "1st edition",
  FIRST_EDITION_HOLOFOIL: "1st edition holofoil",
};
export const LANGUAGES = REFERENCE.locales;
export type Language = (typeof LANGUAGES)[number];
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: "English", ja: "Japanese", zh: "Chinese", fr: "French", de: "German", es: "Spanish", it: "Italian", pt: "Portuguese", ko: "Korean",
};
export const CURRENCIES = REFERENCE.currencies;
export type Currency = (typeof CURRENCIES)[number];

export const MAX_QUANTITY = 100_000;
/** Items one account may hold (imports included). */
export const MAX_ITEMS = 20_000;
/** Price alerts one account may hold. */
export const MAX_WATCHES = 200;
export const MAX_PRICE = 9_999_999_999.99;

/**
 * The printings a card exists in, from the catalogue's `variants` flags (normal, holo, reverse,
 * first_edition), in the reference order. Empty when the catalogue says nothing: then every
 * printing is allowed.
 */
export function printingsOf(variants: unknown): Printing[] {
  if (!variants || typeof variants !== "object") return [];
  const v = variants as Record<string, unknown>;
  const out = new Set<Printing>();
  if (v.normal === true) out.add("NORMAL");
  if (v.holo === true) out.add("HOLOFOIL");
  if (v.reverse === true) out.add("REVERSE_HOLO");
  if (v.first_edition === true) {
    if (v.holo === true) out.add("FIRST_EDITION_HOLOFOIL");
    if (v.normal === true || v.holo !== true) out.add("FIRST_EDITION");
  }
  return PRINTINGS.filter((p) => out.has(p));
}

/** The languages offered for a card: its own list first when the catalogue has one, else all. */
export function languagesOf(languages: string[] | null | undefined): Language[] {
  const own = (languages ?? []).map((l) => l.toLowerCase()).filter((l): l is Language => (LANGUAGES as readonly string[]).includes(l));
  return own.length ? own : [...LANGUAGES];
}

export type ItemInput = {
  cardId: string; quantity: number; condition: Condition; printing: Printing; language: Language;
  pricePaid: number | null; currency: Currency; addedAt?: string;
};

type Raw = { quantity?: unknown; condition?: unknown; printing?: unknown; language?: unknown; price_paid?: unknown; currency?: unknown };

const isOneOf = <T extends string>(list: readonly T[], v: unknown): v is T => typeof v === "string" && (list as readonly string[]).includes(v);

export function parseQuantity(v: unknown): number | string {
  const s = String(v ?? "").trim();
  if (!/^\d{1,6}$/.test(s)) return `quantity must be a whole number from 1 to ${MAX_QUANTITY}`;
  const n = Number(s);
  return n >= 1 && n <= MAX_QUANTITY ? n : `quantity must be a whole number from 1 to ${MAX_QUANTITY}`;
}

/** A money amount with at most two decimals ("12", "12.5", "12.50"); empty: null. */
export function parsePrice(v: unknown, what = "price_paid"): number | null | string {
  const s = String(v ?? "").trim();
  if (!s) return null;
  if (!/^\d{1,10}(\.\d{1,2})?$/.test(s)) return `${what} must be an amount like 12.50 (a dot, at most two decimals), not ${JSON.stringify(s.slice(0, 40))}`;
  return Number(s);
}

/** Validates the fields of an item (not the card, which needs the catalogue): the value or the first error. */
export function parseItemFields(raw: Raw): Omit<ItemInput, "cardId" | "addedAt"> | string {
  const quantity = parseQuantity(raw.quantity);
  if (typeof quantity === "string") return quantity;
  const condition = String(raw.condition ?? "").trim().toUpperCase();
  if (!isOneOf(CONDITIONS, condition)) return `condition must be one of ${CONDITIONS.join(", ")}`;
  const printing = String(raw.printing ?? "").trim().toUpperCase();
  if (!isOneOf(PRINTINGS, printing)) return `printing must be one of ${PRINTINGS.join(", ")}`;
  const language = String(raw.language ?? "").trim().toLowerCase();
  if (!isOneOf(LANGUAGES, language)) return `language must be one of ${LANGUAGES.join(", ")}`;
  const pricePaid = parsePrice(raw.price_paid);
  if (typeof pricePaid === "string") return pricePaid;
  const currency = String(raw.currency ?? "").trim().toUpperCase() || "EUR";
  if (!isOneOf(CURRENCIES, currency)) return `currency must be one of ${CURRENCIES.join(", ")}`;
  return { quantity, condition, printing, language, pricePaid, currency };
}

// ── value ────────────────────────────────────────────────────────────────────

export const cents = (v: number) => Math.round(v * 100) / 100;

export type Valued = {
  quantity: number;
  /** Today's index price of one copy in EUR; null when the card has no index. */
  unitEur: number | null;
  /** The price paid per copy converted to EUR; null when not given (or its currency has no rate). */
  paidEur: number | null;
};

export type ItemValue = { value: number | null; cost: number | null; gain: number | null; gainPct: number | null };

export function itemValue(v: Valued): ItemValue {
  const value = v.unitEur == null ? null : cents(v.quantity * v.unitEur);
  const cost = v.paidEur == null ? null : cents(v.quantity * v.paidEur);
  const gain = value != null && cost != null ? cents(value - cost) : null;
  return { value, cost, gain, gainPct: gain != null && cost ? Math.round((gain / cost) * 10_000) / 100 : null };
}

export type Totals = {
  items: number; copies: number; value: number; priced: number;
  /** Sums over the items with both a price paid and an index price: what the gain compares. */
  cost: number; costValue: number; gain: number; gainPct: number | null; compared: number;
};

export function totals(items: Valued[]): Totals {
  let copies = 0, value = 0, priced = 0, cost = 0, costValue = 0, compared = 0;
  for (const it of items) {
    copies += it.quantity;
    const v = itemValue(it);
    if (v.value != null) {
      value += v.value;
      priced++;
    }
    if (v.value != null && v.cost != null) {
      cost += v.cost;
      costValue += v.value;
      compared++;
    }
  }
  const gain = cents(costValue - cost);
  return {
    items: items.length, copies, value: cents(value), priced, cost: cents(cost), costValue: cents(costValue), gain,
    gainPct: cost > 0 ? Math.round((gain / cost) * 10_000) / 100 : null, compared,
  };
}

/**
 * The collection's value per day: each item's quantity times its series' amount that day (carried
 * from the last known day), summed; a day on which no item has a price yet is left out.
 */
export function valueByDay(items: { quantity: number; points: { date: string; amount: number }[] }[]): { date: string; eur: number }[] {
  const sum = new Map<string, number>();
  for (const it of items) for (const p of it.points) sum.set(p.date, (sum.get(p.date) ?? 0) + it.quantity * p.amount);
  return [...sum].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([date, eur]) => ({ date, eur: cents(eur) }));
}

/** Whether an alert's condition holds at `price`. */
export function alertMet(direction: "above" | "below", threshold: number, price: number): boolean {
  return direction === "above" ? price >= threshold : price <= threshold;
}

/**
 * What a check does with one alert: mail (armed and the condition holds: the crossing), re-arm
 * (disarmed and the price is back on the other side), or nothing.
 */
export function alertStep(a: { direction: "above" | "below"; threshold: number; armed: boolean }, price: number | null): "mail" | "rearm" | "none" {
  if (price == null) return "none";
  const met = alertMet(a.direction, a.threshold, price);
  if (met && a.armed) return "mail";
  if (!met && !a.armed) return "rearm";
  return "none";
}
