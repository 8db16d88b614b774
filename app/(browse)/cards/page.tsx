import Link from "next/link";
import type { Metadata } from "next";
import { ApiError } from "@/lib/api/errors";
import { listCards } from "@/lib/catalog/cards/list";
import { DEMO_LABEL, demoIndexed, demoPreparing, preparingText } from "./demo";

// Search the catalogue with the API's own q language; prices are the composite index in EUR.
// Catalogue order is the API's set-card order within each set: (number_sort, number, id), so
// 2 follows 1 and 10 follows 9, never 1, 10, 100, 101, 11 as text.

const ORDERS = { catalogue: "set,number", price: "-index_eur" } as const;

export const metadata: Metadata = { title: "Cards · PokéPrice" };
export const dynamic = "force-dynamic";

type Row = { id: string; name: string; number: string; rarity: string | null; set: { id: string; name: string }; index_eur?: number | null };

const eur = (v: number | null | undefined) => (v == null ? "–" : v.toLocaleString("en", { style: "currency", currency: "EUR" }));

export default async function CardsPage({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  const sp = await searchParams;
  const q = sp.q?.trim() || undefined;
  const preparing = demoPreparing();
  const price = sp.sort === "price";
  let rows: Row[] = [];
  let demo = new Set<string>();
  let next: string | undefined;
  let error: string | undefined;
  try {
    const link = (p: Record<string, string | number | undefined>) => {
      const u = new URLSearchParams();
      if (q) u.set("q", q);
      if (sp.sort) u.set("sort", sp.sort);
      if (p.cursor) u.set("cursor", String(p.cursor));
      return `/cards?${u}`;
    };
    const orderBy = price ? ORDERS.price : ORDERS.catalogue;
    const { body } = await listCards({ q, limit: 50, include: "index", cursor: sp.cursor, orderBy, priced: price }, link);
    rows = body.data as unknown as Row[];
    next = body.links.next;
    demo = await demoIndexed(rows.filter((r) => r.index_eur != null).map((r) => r.id));
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    error = err.message;
  }
  return (
    <>
      <h1>Cards</h1>
      <p className="sub">Search 39,000 cards with the API&apos;s <code>q</code> language. Prices are the composite index in EUR.</p>
      <form className="search" action="/cards" role="search">
        <input name="q" defaultValue={q} placeholder='name:charizard set.region:JP' aria-label="Search cards" />
        <select name="sort" defaultValue={sp.sort ?? ""} aria-label="Sort">
          <option value="">Catalogue order</option>
          <option value="price">Highest price first</option>
        </select>
        <button type="submit">Search</button>
      </form>
      <p className="search-hint">Try <code>name:pikachu</code>, <code>set.code:sv3pt5 rarity:&quot;special illustration rare&quot;</code> or <code>hp:[200 TO *] types:fire</code>.</p>
      {error && <p className="error-note" role="alert">{error}</p>}
      {preparing && (
        <p className="preparing-note" role="status" data-testid="prices-preparing">
          {preparingText(preparing)}: this server generates a year of demo prices on its first start. Cards without an index yet get one when it is done.
        </p>
      )}
      {!error && (
        <table className="cards">
          <thead>
            <tr><th>Card</th><th className="opt">Set</th><th className="opt">No.</th><th className="opt">Rarity</th><th className="num">Index</th></tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.id}>
                <td><Link href={`/cards/${encodeURIComponent(r.id)}`}>{r.name}</Link></td>
                <td className="opt">{r.set.name}</td>
                <td className="opt">{r.number}</td>
                <td className="opt">{r.rarity ?? "–"}</td>
                <td className="num">
                  {r.index_eur == null && preparing
                    ? <span className="muted">being prepared</span>
                    : <>{eur(r.index_eur)}{demo.has(r.id) && <> <span className="demo-tag">{DEMO_LABEL}</span></>}</>}
                </td>
              </tr>
            ))}
            {!rows.length && <tr><td colSpan={5} className="muted">{preparing && price ? "No card has an index yet." : "No card matches."}</td></tr>}
          </tbody>
        </table>
      )}
      {demo.size > 0 && <p className="demo-note">Figures marked {DEMO_LABEL} come from the service&apos;s demo market, not from real observations.</p>}
      {next && <p className="pager"><Link href={next}>Next page →</Link></p>}
    </>
  );
}
