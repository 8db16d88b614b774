import Link from "next/link";
import { notFound } from "next/navigation";
import { segment } from "../../segment";
import type { Metadata } from "next";
import { ApiError } from "@/lib/api/errors";
import { listCards } from "@/lib/catalog/cards/list";
import { getArtist } from "@/lib/catalog/lists";
import { eur } from "@/lib/prices/labels";
import { DEMO_LABEL, demoIndexed } from "../../cards/demo";
import "../../explorer.css";

// One illustrator: their cards with faces and composite index, dearest first or by release.

export const dynamic = "force-dynamic";

type Artist = { slug: string; name: string; card_count: number; set_count: number; first_release_date: string | null; last_release_date: string | null };
type Card = { id: string; name: string; number: string; set: { id: string; name: string }; index_eur: number | null; release_date: string | null };

async function load(slug: string) {
  try {
    return (await getArtist(slug)).body.data as Artist;
  } catch (err) {
    if (err instanceof ApiError && err.code === "ARTIST_NOT_FOUND") notFound();
    throw err;
  }
}

export async function generateMetadata({ params }: { params: Promise<{ slug: string }> }): Promise<Metadata> {
  const a = await load(segment((await params).slug) ?? notFound());
  return {
    title: `${a.name}: Pokémon cards and prices · PokéPrice`,
    description: `${a.card_count} Pokémon cards illustrated by ${a.name} in ${a.set_count} sets, with their composite price index in EUR.`,
  };
}

export default async function ArtistPage({ params, searchParams }: {
  params: Promise<{ slug: string }>; searchParams: Promise<Record<string, string | undefined>>;
}) {
  const a = await load(segment((await params).slug) ?? notFound());
  const sp = await searchParams;
  const byPrice = sp.sort !== "release";
  const link = (p: Record<string, string | number | undefined>) => {
    const u = new URLSearchParams();
    if (sp.sort) u.set("sort", sp.sort);
    if (p.cursor) u.set("cursor", String(p.cursor));
    return `/artists/${encodeURIComponent(a.slug)}?${u}`;
  };
  const phrase = `"${a.name.replace(/["\\]/g, " ").trim()}"`;
  let cards: Card[] = [];
  let next: string | undefined;
  // Dearest first lists the priced cards (as the card search's price order does); none priced: newest first.
  let priced = byPrice;
  try {
    const page = (p: boolean) => listCards({
      q: `artist:${phrase}`, include: "index", limit: 48, cursor: sp.cursor, orderBy: p ? "-index_eur,release_date" : "-release_date", priced: p,
    }, link);
    let { body } = await page(priced);
    if (priced && !body.data.length && !sp.cursor) {
      priced = false;
      ({ body } = await page(false));
    }
    cards = body.data as unknown as Card[];
    next = body.links.next;
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
  }
  const demo = await demoIndexed(cards.filter((c) => c.index_eur != null).map((c) => c.id));
  const years = [a.first_release_date?.slice(0, 4), a.last_release_date?.slice(0, 4)].filter(Boolean);
  return (
    <div className="explorer-page">
      <p className="sub crumbs"><Link href="/artists">Artists</Link> / {a.name}</p>
      <h1>{a.name}</h1>
      <p className="sub">{a.card_count} card{a.card_count === 1 ? "" : "s"} in {a.set_count} set{a.set_count === 1 ? "" : "s"}{years.length === 2 ? `, ${years[0]}–${years[1]}` : ""}.</p>
      <nav className="windows" aria-label="Order">
        <Link href={`/artists/${encodeURIComponent(a.slug)}`} aria-current={byPrice ? "page" : undefined}>Dearest first</Link>
        <Link href={`/artists/${encodeURIComponent(a.slug)}?sort=release`} aria-current={byPrice ? undefined : "page"}>Newest first</Link>
      </nav>
      <p className="muted small">{priced ? "Cards with a composite index, dearest first." : "Every card, newest first."}</p>
      <ul className="card-grid" data-testid="artist-cards">
        {cards.map((c, i) => (
          <li key={c.id}>
            <Link href={`/cards/${encodeURIComponent(c.id)}`}>
              <img src={`/images/cards/${encodeURIComponent(c.id)}/front-small.webp`} width={245} height={342} alt="" loading={i < 6 ? "eager" : "lazy"} />
              {c.name}
            </Link>
            <div className="muted">{c.set.name} {c.number}</div>
            <div className="price">{c.index_eur == null ? <span className="muted">No price yet</span> : <>{eur(c.index_eur)}{demo.has(c.id) && <> <span className="demo-tag">{DEMO_LABEL}</span></>}</>}</div>
          </li>
        ))}
      </ul>
      {!cards.length && <p className="muted">No card of this artist is in the catalogue.</p>}
      {next && <p className="pager"><Link href={next}>More cards →</Link></p>}
    </div>
  );
}
