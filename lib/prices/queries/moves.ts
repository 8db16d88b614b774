import { sql, type SQL } from "drizzle-orm";
import { getDb, rows } from "@/lib/db/client";
import type { Move } from "../moves";
import { amongProducts, type ProductRef } from "./index-job";

export type Headline = { id: number; product_kind: string; product_id: string; last_as_of: string };

/** Every product's headline index series, or those of `products`. */
export async function headlineSeries(o: { products?: ProductRef[] } = {}): Promise<Headline[]> {
  return rows<Headline>(sql`select id, product_kind, product_id, last_as_of::text as last_as_of from price_series
    where source = 'INDEX' and locale is null and printing is null ${amongProducts(o.products)}`);
}

export async function monthRows(ids: number[], months: number[]): Promise<{ series_id: number; month: number; hex: string }[]> {
  const out: { series_id: number; month: number; hex: string }[] = [];
  for (let i = 0; i < ids.length; i += 5000) {
    out.push(...await rows<{ series_id: number; month: number; hex: string }>(sql`
      select series_id, month, encode(amounts, 'hex') as hex from price_months
      where series_id = any(${sql.param(ids.slice(i, i + 5000))}::int[]) and month = any(${sql.param(months)}::int[])`));
  }
  return out;
}

type ProductMove = Move & { product_kind: string; product_id: string };

function insertMoves(part: ProductMove[]): SQL {
  const c = <K extends keyof ProductMove>(k: K) => sql.param(part.map((m) => m[k]));
  return sql`insert into index_moves ("window", product_kind, product_id, from_date, from_eur, to_date, to_eur, change_pct)
    select * from unnest(${c("window")}::text[], ${c("product_kind")}::text[], ${c("product_id")}::text[], ${c("from_date")}::date[],
      ${c("from_eur")}::float8[], ${c("to_date")}::date[], ${c("to_eur")}::float8[], ${c("change_pct")}::float8[])`;
}

/**
 * The movers' table replaced in one transaction. `paced` (the embedded first start): in
 * statements of 500 rows, each committed alone, since the embedded database admits nothing else
 * while a transaction is open; a reader may meanwhile see part of the new ranking.
 */
export async function replaceMoves(moves: ProductMove[], opts: { paced?: boolean } = {}): Promise<void> {
  if (opts.paced) {
    const per = 500;
    for (;;) {
      const gone = await rows(sql`delete from index_moves where ctid = any(array(select ctid from index_moves limit ${per})) returning 1`);
      if (gone.length < per) break;
    }
    for (let i = 0; i < moves.length; i += per) await rows(insertMoves(moves.slice(i, i + per)));
    return;
  }
  const db = await getDb();
  await db.transaction(async (tx) => {
    await tx.execute(sql`delete from index_moves`);
    for (let i = 0; i < moves.length; i += 5000) await tx.execute(insertMoves(moves.slice(i, i + 5000)));
  });
}

/** Cards an update of the change sort keys covers per statement when paced. */
const CHANGE_PAGE = 2000;

/**
 * The cards' change sort keys (change_7d_pct, change_30d_pct) from the movers' table, written
 * only where they differ. `paced`: in pages of CHANGE_PAGE cards by id, each its own statement.
 */
export async function setCardChanges(opts: { paced?: boolean } = {}): Promise<number> {
  const update = (range: SQL) => rows<{ id: string }>(sql`
    update cards c set change_7d_pct = x.p7, change_30d_pct = x.p30
    from (
      select c2.id, m7.change_pct as p7, m30.change_pct as p30 from cards c2
      left join index_moves m7 on m7."window" = '7d' and m7.product_kind = 'card' and m7.product_id = c2.id
      left join index_moves m30 on m30."window" = '30d' and m30.product_kind = 'card' and m30.product_id = c2.id
      where ${range}
        and (c2.change_7d_pct is distinct from m7.change_pct or c2.change_30d_pct is distinct from m30.change_pct)
    ) x
    where c.id = x.id returning c.id`);
  if (!opts.paced) return (await update(sql`true`)).length;
  let changed = 0;
  for (let after = "";;) {
    const page = await rows<{ id: string }>(sql`select id from cards where id > ${after} order by id limit ${CHANGE_PAGE}`);
    if (!page.length) return changed;
    const last = page.at(-1)!.id;
    changed += (await update(sql`c2.id > ${after} and c2.id <= ${last}`)).length;
    after = last;
  }
}

export type MoverRow = {
  product_id: string; from_date: string; from_eur: number; to_date: string; to_eur: number; change_pct: number;
  name: string; number: string | null; rarity: string | null; set_id: string | null; set_name: string | null; print_region: string | null;
  provenance: string | null;
};

/** The biggest moves one way, among cards or sealed products that pass the filters. */
export async function selectMovers(o: {
  window: string; kind: "card" | "sealed"; up: boolean; limit: number; minEur: number; region?: string; setId?: string;
}): Promise<MoverRow[]> {
  const filters: SQL[] = [sql`m."window" = ${o.window}`, sql`m.product_kind = ${o.kind}`, sql`m.to_eur >= ${o.minEur}`, sql`m.from_eur >= ${o.minEur / 2}`];
  filters.push(o.up ? sql`m.change_pct > 0` : sql`m.change_pct < 0`);
  const order = o.up ? sql`m.change_pct desc, m.product_id` : sql`m.change_pct asc, m.product_id`;
  // The headline index series' label: '(demo data)' in it when the demo generator made it.
  const cols = sql`m.product_id, m.from_date::text as from_date, m.from_eur, m.to_date::text as to_date, m.to_eur, m.change_pct,
    (select ps.provenance from price_series ps where ps.source = 'INDEX' and ps.product_kind = m.product_kind and ps.product_id = m.product_id
      and ps.locale is null and ps.printing is null limit 1) as provenance`;
  if (o.kind === "card") {
    if (o.region) filters.push(sql`c.print_region = ${o.region}`);
    if (o.setId) filters.push(sql`c.set_id = ${o.setId}`);
    return rows<MoverRow>(sql`select ${cols}, c.name, c.number, c.rarity, c.set_id, s.name as set_name, c.print_region
      from index_moves m join cards c on c.id = m.product_id and c.deleted_at is null join sets s on s.id = c.set_id
      where ${sql.join(filters, sql` and `)} order by ${order} limit ${o.limit}`);
  }
  if (o.setId) filters.push(sql`p.set_id = ${o.setId}`);
  if (o.region) filters.push(sql`s.print_region = ${o.region}`);
  return rows<MoverRow>(sql`select ${cols}, p.name, null as number, null as rarity, p.set_id, s.name as set_name, s.print_region
    from index_moves m join sealed_products p on p.slug = m.product_id and p.deleted_at is null left join sets s on s.id = p.set_id
    where ${sql.join(filters, sql` and `)} order by ${order} limit ${o.limit}`);
}
