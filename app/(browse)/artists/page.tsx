import Link from "next/link";
import type { Metadata } from "next";
import { ApiError } from "@/lib/api/errors";
import { listArtists } from "@/lib/catalog/lists";
import "../explorer.css";

// The illustrators of the catalogue, most cards first, searchable by name (GET /v1/artists' function).

export const metadata: Metadata = {
  title: "Pokémon card artists · PokéPrice",
  description: "The 431 illustrators of the Pokémon Trading Card Game, with their cards and prices.",
};
export const dynamic = "force-dynamic";

export default async function ArtistsPage({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  const sp = await searchParams;
  const q = sp.q?.trim() || undefined;
  const order = sp.sort === "name" ? "name" : undefined;
  let rows: { slug: string; name: string; card_count: number }[] = [];
  let next: string | undefined;
  let total = 0;
  let error: string | undefined;
  try {
    const link = (p: Record<string, string | number | undefined>) => {
      const u = new URLSearchParams();
      for (const [k, v] of Object.entries({ q, sort: sp.sort, cursor: p.cursor })) if (v) u.set(k, String(v));
      return `/artists?${u}`;
    };
    const { body } = await listArtists({ q, limit: 120, cursor: sp.cursor, orderBy: order }, link);
    rows = body.data;
    next = body.links.next;
    total = Number(body.meta.total_count ?? rows.length);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    error = err.message;
  }
  return (
    <div className="explorer-page">
      <h1>Artists</h1>
      <p className="sub">{total} illustrator{total === 1 ? "" : "s"}{q ? ` matching “${q}”` : ""}, {order ? "by name" : "most cards first"}.</p>
      <form className="filters" action="/artists" method="get" role="search" aria-label="Search artists">
        <label>Name <input name="q" defaultValue={q} placeholder="Arita" size={18} /></label>
        <label>Order
          <select name="sort" defaultValue={sp.sort ?? ""}>
            <option value="">Most cards first</option>
            <option value="name">By name</option>
          </select>
        </label>
        <button type="submit">Show</button>
      </form>
      {error && <p className="error-note" role="alert">{error}</p>}
      <ul className="artist-list" data-testid="artist-list">
        {rows.map((a) => (
          <li key={a.slug}><Link href={`/artists/${encodeURIComponent(a.slug)}`}>{a.name}</Link> <span className="muted">{a.card_count}</span></li>
        ))}
      </ul>
      {!rows.length && !error && <p className="muted">No artist matches.</p>}
      {next && <p className="pager"><Link href={next}>Next page →</Link></p>}
    </div>
  );
}
