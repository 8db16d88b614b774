import type Stripe from "stripe";
import { callStripe, stripe } from "./stripe";

// Plans map to Stripe prices by lookup_key (`developer_month`, `growth_year`, …), never by a
// hard-coded id: the same code runs against test mode, live mode and the local fake.

export const PAID_PLANS = ["developer", "growth", "professional"] as const;
export type PaidPlan = (typeof PAID_PLANS)[number];
export const INTERVALS = ["month", "year"] as const;
export type Interval = (typeof INTERVALS)[number];

export const lookupKey = (plan: PaidPlan, interval: Interval) => `${plan}_${interval}`;

/** The plan and interval a price stands for, from its lookup_key; undefined for any other price. */
export function planOfPrice(price: Pick<Stripe.Price, "lookup_key"> | null | undefined): { plan: PaidPlan; interval: Interval } | undefined {
  const m = /^(developer|growth|professional)_(month|year)$/.exec(price?.lookup_key ?? "");
  return m ? { plan: m[1] as PaidPlan, interval: m[2] as Interval } : undefined;
}

const TTL_MS = 10 * 60_000;
const slot = globalThis as unknown as { __prices?: { at: number; base: string; byKey: Map<string, Stripe.Price>; byId: Map<string, Stripe.Price> } };
// Prices of one Stripe account: a change of STRIPE_API_BASE (tests, the fake) reads them again.
const base = () => `${process.env.STRIPE_API_BASE ?? ""}|${process.env.STRIPE_SECRET_KEY ?? ""}`;

async function catalogue(): Promise<NonNullable<typeof slot.__prices>> {
  if (slot.__prices && slot.__prices.base === base() && Date.now() - slot.__prices.at < TTL_MS) return slot.__prices;
  const keys = PAID_PLANS.flatMap((p) => INTERVALS.map((i) => lookupKey(p, i)));
  const list = await callStripe(() => stripe().prices.list({ lookup_keys: keys, active: true, limit: 100 }));
  const byKey = new Map(list.data.filter((p) => p.lookup_key).map((p) => [p.lookup_key!, p]));
  const byId = new Map(list.data.map((p) => [p.id, p]));
  slot.__prices = { at: Date.now(), base: base(), byKey, byId };
  return slot.__prices;
}

/** The active price of a plan and interval; throws when Stripe has none with its lookup_key. */
export async function priceFor(plan: PaidPlan, interval: Interval): Promise<Stripe.Price> {
  const price = (await catalogue()).byKey.get(lookupKey(plan, interval));
  if (!price) throw new Error(`Stripe has no active price with lookup_key ${lookupKey(plan, interval)}`);
  return price;
}

/** A price by id (a schedule's phase names its price by id only). */
export async function priceById(id: string): Promise<Stripe.Price> {
  const hit = (await catalogue()).byId.get(id);
  return hit ?? callStripe(() => stripe().prices.retrieve(id));
}

export const isPaidPlan = (p: string): p is PaidPlan => (PAID_PLANS as readonly string[]).includes(p);
