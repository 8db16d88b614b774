// The demo market, as pure functions: which series a product has and how its price walks.
// No licensed feed exists here; every figure made from this model says so in its provenance.

import { mulberry32 } from "@/lib/random";

export type Rng = () => number;

/** mulberry32 over the seed's FNV-1a hash. */
export function rng(seed: string): Rng {
  let h = 2166136261;
  for (let i = 0; i < seed.length; i++) h = Math.imul(h ^ seed.charCodeAt(i), 16777619);
  return mulberry32(h);
}

export const gauss = (r: Rng) => Math.sqrt(-2 * Math.log(r() || 1e-12)) * Math.cos(2 * Math.PI * r());

export type DemoCard = {
  id: string; rarity: string | null; printRegion: string | null; releaseDate: string | null;
  variants: { normal?: boolean; holo?: boolean; reverse?: boolean; first_edition?: boolean } | null;
};

const RARITY_EUR: [RegExp, number][] = [
  [/special illustration|hyper|gold|secret|ultra premium|rainbow/i, 40], [/illustration rare|character/i, 14],
  [/ultra|double rare|ex|gx|vmax|vstar|\bv\b|full art|shiny/i, 5], [/holo|star|prism|legend|ace spec|amazing|radiant/i, 2.5],
  [/promo/i, 1.5], [/rare/i, 0.8], [/uncommon/i, 0.15], [/common/i, 0.08],
];

/** A card's level in EUR today: rarity, then age, then a card-own factor. */
export function baseLevel(card: DemoCard, r: Rng): number {
  const rarity = RARITY_EUR.find(([re]) => re.test(card.rarity ?? ""))?.[1] ?? 0.3;
  const year = Number((card.releaseDate ?? "2020").slice(0, 4));
  const era = year < 2003 ? 9 : year < 2010 ? 3.5 : year < 2017 ? 1.6 : 1;
  return Math.max(0.05, rarity * era * Math.exp(gauss(r) * 0.8));
}

export const isRare = (card: DemoCard) => /rare|holo|ultra|secret|illustration|promo|ex|gx|v/i.test(card.rarity ?? "");

/** Printings of a card as the catalogue's variants flags name them; the leading one first. */
export function printings(card: DemoCard): string[] {
  const v = card.variants ?? {};
  const out: string[] = [];
  if (v.holo) out.push("HOLOFOIL");
  if (v.normal) out.push("NORMAL");
  if (v.reverse) out.push("REVERSE_HOLO");
  if (v.first_edition) out.push(v.holo ? "FIRST_EDITION_HOLOFOIL" : "FIRST_EDITION");
  if (!out.length) out.push(isRare(card) ? "HOLOFOIL" : "NORMAL");
  return out;
}

export const PRINTING_FACTOR: Record<string, number> = {
  NORMAL: 1, HOLOFOIL: 1, REVERSE_HOLO: 1.4, FIRST_EDITION: 3, FIRST_EDITION_HOLOFOIL: 4,
};

/**
 * A year of daily levels (oldest first): a random walk with the card's own drift, and now and
 * then a spike that fades over a few weeks.
 */
export function walk(level: number, days: number, r: Rng): Float64Array {
  const out = new Float64Array(days);
  const drift = (gauss(r) * 0.35) / 365;
  const vol = 0.008 + r() * 0.015;
  let logv = 0;
  let spike = 0;
  for (let d = 0; d < days; d++) {
    logv += drift + gauss(r) * vol;
    if (r() < 0.002) spike += 0.2 + r() * 0.5;
    spike *= 0.93;
    out[d] = logv + spike;
  }
  // Anchored so that today's level is `level`.
  const end = out[days - 1]!;
  for (let d = 0; d < days; d++) out[d] = level * Math.exp(out[d]! - end);
  return out;
}

/** Graded medians: multipliers over the raw price, the chase cards with the whole ladder. */
export const GRADES_COMMON: [string, number][] = [["PSA 10", 4], ["PSA 9", 1.8], ["BGS 9.5", 2.6], ["CGC 10", 3]];
export const GRADES_LADDER: [string, number][] = [
  ...["PSA", "BGS", "CGC", "SGC", "TAG", "ACE"].flatMap((c, ci) =>
    [["10", 4.5], ["9.5", 2.8], ["9", 1.9], ["8.5", 1.5], ["8", 1.3], ["7", 1.1], ["6", 0.95], ["5", 0.8]].map(
      ([s, m]) => [`${c} ${s}`, (m as number) * (1 - ci * 0.06)] as [string, number],
    )),
];
