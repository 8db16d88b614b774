import { sql, type SQL } from "drizzle-orm";
import { dbKind, rows, type Db } from "./client";

// Jobs that rewrite many rows vacuum and analyse what they churned before they finish. Without
// it the next bulk write cannot reuse the dead rows' space, and plans go stale: an instance with
// autovacuum off (this machine's PostgreSQL, the embedded PGlite) would otherwise serve
// searches from a cards table that is 85 % dead rows after a few price runs.

const TABLES = ["cards", "sealed_products", "price_series", "price_months", "price_docs", "index_moves"] as const;
export type ChurnedTable = (typeof TABLES)[number];

export async function vacuumAnalyze(tables: ChurnedTable[]): Promise<void> {
  // Identifiers cannot be parameters; they come from the fixed list above only.
  const list = tables.filter((t) => (TABLES as readonly string[]).includes(t)).join(", ");
  if (list) await rows(sql.raw(`vacuum (analyze) ${list}`));
}

/**
 * The embedded first start's maintenance, beside a server on the same thread, in statements of
 * a fraction of a second: VACUUM would read every page of the price tables in one statement
 * (tens of seconds on PGlite for a demo year) and ANALYZE of every column of cards takes
 * seconds. So: cards and sealed products (their sort keys rewritten, some thirty indexes on
 * cards) are vacuumed without the index pass, which frees the dead rows' space and leaves their
 * index entries to be skipped; the price tables, written almost only once there, are analysed
 * without a vacuum. ANALYZE reads only the columns queries filter and join on (the sort keys of
 * cards went from none to all: the planner must know), from a smaller sample.
 */
export async function maintainPaced(db: Db): Promise<void> {
  await rows(sql`vacuum (index_cleanup off) cards, sealed_products`);
  await analyzeSampled(db, [sql`cards (index_eur, last_price_at)`, sql`sealed_products (index_eur, last_price_at)`]);
  await analyzePricesPaced(db);
  await analyzeSampled(db, [sql`price_docs (product_kind, product_id)`, sql`index_moves`]);
}

/** WAL written between two checkpoints of paced work on PGlite. */
const WAL_PER_CHECKPOINT = 256 * 2 ** 20;

/**
 * PGlite runs no checkpointer, so the WAL of a bulk load piles up (3 GB for a demo year) and a
 * checkpoint at the end of it held the database for over a second. Paced work calls this between
 * its pieces: a checkpoint once 256 MB of WAL were written since the last, each a fraction of a
 * second. PostgreSQL checkpoints by itself: nothing to do there.
 */
export async function checkpointWhenDue(): Promise<void> {
  if ((await dbKind()) !== "pglite") return;
  const [wal] = await rows<{ since: number }>(sql`select pg_wal_lsn_diff(pg_current_wal_lsn(), redo_lsn)::float8 as since from pg_control_checkpoint()`);
  if (Number(wal?.since ?? 0) > WAL_PER_CHECKPOINT) await rows(sql`checkpoint`);
}

/** The price tables' statistics, paced: only the columns queries filter and join on. */
export async function analyzePricesPaced(db: Db): Promise<void> {
  await analyzeSampled(db, [sql`price_series (product_kind, product_id, source, locale, printing, key_hash)`, sql`price_months (series_id, month)`]);
}

/**
 * ANALYZE of each target in a statement of its own, from 3,000 sampled rows instead of 30,000:
 * on a demo year's price_months the full sample reads a quarter of a gigabyte at random.
 */
async function analyzeSampled(db: Db, targets: SQL[]): Promise<void> {
  for (const target of targets) {
    await db.transaction(async (tx) => {
      await tx.execute(sql`set local default_statistics_target = 10`);
      await tx.execute(sql`analyze ${target}`);
    });
  }
}
