import { sql } from "drizzle-orm";
import { rows } from "@/lib/db/client";

export async function catalogCounts() {
  const [r] = await rows<{ sets: number; cards: number; sealed: number; artists: number }>(sql`
    select (select count(*)::int from sets where deleted_at is null) as sets,
           (select count(*)::int from cards where deleted_at is null) as cards,
           (select count(*)::int from sealed_products where deleted_at is null) as sealed,
           (select count(*)::int from artists where deleted_at is null) as artists`);
  return r!;
}

export async function ping(): Promise<boolean> {
  const [r] = await rows<{ ok: number }>(sql`select 1 as ok`);
  return r?.ok === 1;
}
