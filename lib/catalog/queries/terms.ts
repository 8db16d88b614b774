import { sql } from "drizzle-orm";
import { rows } from "@/lib/db/client";
import { BROAD_PATTERN_TERMS } from "@/lib/query";

/** The name patterns that match BROAD_PATTERN_TERMS dictionary words or more (counted up to that). */
export async function broadPatterns(patterns: string[]): Promise<Set<string>> {
  if (!patterns.length) return new Set();
  const found = await rows<{ p: string; n: number }>(sql`
    select p, (select count(*)::int from (select 1 from card_terms where term like p limit ${BROAD_PATTERN_TERMS}) x) as n
    from unnest(${sql.param([...new Set(patterns)])}::text[]) as p`);
  return new Set(found.filter((r) => r.n >= BROAD_PATTERN_TERMS).map((r) => r.p));
}
