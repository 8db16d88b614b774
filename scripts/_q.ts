import { sql } from "drizzle-orm";
import { getDb, rows, closeDb } from "@/lib/db/client";
import { cardQuery } from "@/lib/query";
async function main() {
  await getDb();
  for (const q of process.argv.slice(2)) {
    try {
      const { where } = cardQuery(q);
      const t = performance.now();
      const r = await rows<{ id: string; name: string; n: number }>(sql`select c.id, c.name, count(*) over ()::int as n from cards c where c.deleted_at is null and ${where} order by c.id limit 5`);
      console.log(q, "→", r[0]?.n ?? 0, r.map((x) => `${x.id}:${x.name}`).join(" | "), `${(performance.now() - t).toFixed(1)}ms`);
    } catch (e) { console.log(q, "ERR", (e as any).code, (e as Error).message, JSON.stringify((e as any).details)); }
  }
  await closeDb();
}
main();
