import Link from "next/link";
import type { Metadata } from "next";
import { ApiError } from "@/lib/api/errors";
import { listSealed, PRODUCT_TYPES } from "@/lib/catalog/lists";
import { byCatalogVersion } from "@/lib/catalog/memo";
import { seriesOfProducts } from "@/lib/prices/queries/read";
import { eur, productTypeLabel } from "@/lib/prices/labels";
import { DEMO_LABEL, demoPreparing, isDemoProvenance, isHeadlineIndex, preparingText } from "../cards/demo";
import "../explorer.css";

// Sealed products (booster boxes, ETBs, tins…) with their composite index, filtered by set and
// product type through GET /v1/sealed's own function.

export const metadata: Metadata = {
  title: "Sealed products and prices · PokéPrice",
  description: "Pokémon TCG booster boxes, Elite Trainer Boxes, tins and other sealed products with their composite price index in EUR.",
};
export const dynamic = "force-dynamic";

type Row = { slug: string; name: string; product_type: string; set: { id: string; name: string | null } | null; release_date: string | null; index_eur: number | null };

export default async function SealedPage({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  const sp = await searchParams;
  const set = sp.set?.trim() || undefined;
  const type = sp.type && (PRODUCT_TYPES as readonly string[]).includes(sp.type) ? sp.type : undefined;
  const q = sp.q?.trim() || undefined;
  const priced = sp.sort === "price";
  const preparing = demoPreparing();
  let rows: Row[] = [];
  let next: string | undefined;
  let error: string | undefined;
  let demo = new Set<string>();
  try {
    const link = (p: Record<string, string | number | undefined>) => {
      const u = new URLSearchParams();
      for (const [k, v] of Object.entries({ q, set, type, sort: sp.sort, cursor: p.cursor })) if (v) u.set(k, String(v));
      return `/sealed?${u}`;
    };
    const input = { q, set, product_type: type, include: "index", limit: 50, cursor: sp.cursor, orderBy: priced ? "-index_eur" : undefined };
    // Kept per catalogue version (lib/catalog/memo.ts): the same address again is read from memory.
    const found = await byCatalogVersion(`sealed:${JSON.stringify(input)}:${link({ cursor: "CURSOR" })}`, async () => {
      const { body } = await listSealed(input, link);
      const list = (body.data as unknown as Row[]).map((r) => ({
        slug: r.slug, name: r.name, product_type: r.product_type, set: r.set, release_date: r.release_date, index_eur: r.index_eur,
      }));
      const series = await seriesOfProducts("sealed", list.filter((r) => r.index_eur != null).map((r) => r.slug));
      return { list, next: body.links.next, demo: new Set(series.filter((s) => isHeadlineIndex(s) && isDemoProvenance(s.provenance)).map((s) => s.product_id)) };
    });
    rows = found.list;
    next = found.next;
    demo = found.demo;
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    error = err.code === "SET_NOT_FOUND" ? `No set with the code “${set}”.` : err.message;
  }
  return (
    <div className="explorer-page">
      <h1>Sealed products</h1>
      <p className="sub">Booster boxes, Elite Trainer Boxes, tins and more, with their composite index in EUR.</p>
      <form className="filters" action="/sealed" method="get" role="search" aria-label="Filter sealed products">
        <label>Name <input name="q" defaultValue={q} placeholder="booster box" size={16} /></label>
        <label>Set code <input name="set" defaultValue={set} placeholder="base1" size={10} /></label>
        <label>Product type
          <select name="type" defaultValue={type ?? ""}>
            <option value="">All types</option>
            {PRODUCT_TYPES.map((t) => <option key={t} value={t}>{productTypeLabel(t)}</option>)}
          </select>
        </label>
        <label>Order
          <select name="sort" defaultValue={sp.sort ?? ""}>
            <option value="">Newest first</option>
            <option value="price">Highest price first</option>
          </select>
        </label>
        <button type="submit">Show</button>
      </form>
      {error && <p className="error-note" role="alert">{error}</p>}
      {preparing && <p className="preparing-note" role="status">{preparingText(preparing)}.</p>}
      {!error && (
        <table className="cards" data-testid="sealed-list">
          <thead>
            <tr><th scope="col">Product</th><th scope="col" className="opt">Type</th><th scope="col" className="opt">Set</th><th scope="col" className="num">Index</th></tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.slug}>
                <td><Link href={`/sealed/${encodeURIComponent(r.slug)}`}>{r.name}</Link></td>
                <td className="opt">{productTypeLabel(r.product_type)}</td>
                <td className="opt">{r.set ? <Link href={`/sets/${encodeURIComponent(r.set.id)}`}>{r.set.name ?? r.set.id}</Link> : "–"}</td>
                <td className="num">{eur(r.index_eur)}{demo.has(r.slug) && <> <span className="demo-tag">{DEMO_LABEL}</span></>}</td>
              </tr>
            ))}
            {!rows.length && <tr><td colSpan={4} className="muted">No sealed product matches.</td></tr>}
          </tbody>
        </table>
      )}
      {next && <p className="pager"><Link href={next}>Next page →</Link></p>}
    </div>
  );
}
