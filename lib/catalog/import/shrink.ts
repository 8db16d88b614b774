import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import { existingHashes } from "@/lib/catalog/queries/sync";
import { cards, sealedProducts, sets } from "@/lib/db/schema";
import type { Db } from "@/lib/db/client";
import { ContractError } from "./read";
import type { Catalog } from "./transform";

// The upstream retires a handful of rows a delivery at most. One that loses more than a set
// share of a table is a truncated export or a broken join, not a mass retirement: applying it
// would soft-delete thousands of cards, take them off every mirror through the change feed and
// strand their prices. It is treated as a broken contract, unless the operator says otherwise.

export const DEFAULT_MAX_SHRINK = 0.05;

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
export type Shrink = { table: string; live: number; gone: number };

/** CATALOG_MAX_SHRINK as a share: `0.05` or `5%`. */
export function maxShrink(raw = process.env.CATALOG_MAX_SHRINK): number {
  if (raw === undefined || raw.trim() === "") return DEFAULT_MAX_SHRINK;
  const m = /^\s*(\d+(?:\.\d+)?)\s*(%?)\s*$/.exec(raw);
  const share = m ? Number(m[1]) / (m[2] ? 100 : 1) : NaN;
  if (!(share >= 0 && share <= 1)) throw new Error(`CATALOG_MAX_SHRINK must be a share from 0 to 1 (or 0% to 100%), not ${raw}`);
  return share;
}

/** The tables that would lose more than `max` of their live rows. */
export function excessive(shrinks: Shrink[], max: number): Shrink[] {
  return shrinks.filter((s) => s.live > 0 && s.gone / s.live > max);
}

async function shrinkOf(tx: Tx, table: string, t: PgTable, key: PgColumn, keys: string[]): Promise<Shrink> {
  const existing = await existingHashes(tx, t, key);
  const incoming = new Set(keys);
  let live = 0;
  let gone = 0;
  for (const [k, row] of existing) {
    if (row.deleted) continue;
    live++;
    if (!incoming.has(k)) gone++;
  }
  return { table, live, gone };
}

/** Counts what the import would soft-delete per table: keys as refresh-catalog's sync matches them. */
export async function measureShrink(tx: Tx, cat: Catalog): Promise<Shrink[]> {
  return [
    await shrinkOf(tx, "cards", cards, cards.id, cat.cards.map((r) => r.id)),
    await shrinkOf(tx, "sets", sets, sets.id, cat.sets.map((r) => r.id)),
    await shrinkOf(tx, "sealed products", sealedProducts, sealedProducts.slug, cat.sealed.map((r) => r.slug)),
  ];
}

const pct = (x: number) => `${(x * 100).toFixed(1).replace(/\.0$/, "")} %`;

export function describeShrink(over: Shrink[], max: number): string {
  const parts = over.map((s) => `${s.table} would lose ${s.gone} of ${s.live} (${pct(s.gone / s.live)})`);
  return `the upstream shrank by more than ${pct(max)} (CATALOG_MAX_SHRINK): ${parts.join("; ")}. ` +
    "If it really retired them, run refresh-catalog --allow-shrink";
}

/** Throws the contract error when a table would shrink too far; returns what it measured. */
export async function guardShrink(tx: Tx, cat: Catalog, allow: boolean): Promise<Shrink[]> {
  const max = maxShrink();
  const shrinks = await measureShrink(tx, cat);
  const over = excessive(shrinks, max);
  if (over.length && !allow) throw new ContractError(describeShrink(over, max));
  return over;
}
