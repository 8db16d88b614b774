import { sql } from "drizzle-orm";
import { rows } from "./client";

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
