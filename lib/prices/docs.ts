import { sql } from "drizzle-orm";
import { rows, type Db } from "@/lib/db/client";

// A product's series as one JSON document (price_docs): written whenever its series change,
// read by every quote. The element order is DOC_FIELDS'.

export const DOC_ELEMENT = sql`json_build_array(id, source, variant, basis, currency, locale, condition, printing, grading_company,
  grading_score, provenance, recent, last_as_of::text)`;

/** Rebuilds the documents of these products from their series (all products when `products` is omitted). */
export async function rebuildDocs(products?: { kind: string; id: string }[], db?: Db): Promise<void> {
  if (!products) {
    await rows(sql`insert into price_docs (product_kind, product_id, doc)
      select product_kind, product_id, json_agg(${DOC_ELEMENT} order by id)::text from price_series group by product_kind, product_id
      on conflict (product_kind, product_id) do update set doc = excluded.doc`, db);
    return;
  }
  for (let i = 0; i < products.length; i += 2000) {
    const part = products.slice(i, i + 2000);
    await rows(sql`insert into price_docs (product_kind, product_id, doc)
      select s.product_kind, s.product_id, json_agg(${DOC_ELEMENT} order by s.id)::text
      from price_series s join unnest(${sql.param(part.map((p) => p.kind))}::text[], ${sql.param(part.map((p) => p.id))}::text[]) as t(k, pid)
        on s.product_kind = t.k and s.product_id = t.pid
      group by s.product_kind, s.product_id
      on conflict (product_kind, product_id) do update set doc = excluded.doc`, db);
  }
}
