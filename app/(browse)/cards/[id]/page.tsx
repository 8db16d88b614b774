import Link from "next/link";
import { notFound } from "next/navigation";
import { segment } from "../../segment";
import type { Metadata } from "next";
import { ApiError } from "@/lib/api/errors";
import { getCard } from "@/lib/catalog/cards/get";
import { byCatalogVersion } from "@/lib/catalog/memo";
import { listCards } from "@/lib/catalog/cards/list";
import { languageLabel, printingLabel, regionLabel } from "@/lib/prices/labels";
import { getCardPrices } from "@/lib/prices/service";
import { DEMO_LABEL, demoIndexed, demoPreparing, demoSpan, isDemoProvenance, preparingText } from "../demo";
import { chartData, eurOf, FULL_VIEW, indexAgreement, parseRange } from "./explorer-data";
import { PriceExplorer } from "./price-explorer";
import { IndexSection, QuoteSections } from "./price-sections";
import "../../explorer.css";

// One card for collectors: its face, its catalogue data and other printings, the composite
// index with the sources behind it, the history of the index and of each source (range links
// that work without JavaScript), and every current quote, raw per printing and graded.

export const dynamic = "force-dynamic";

type CardData = {
  id: string; name: string; number: string; printed_total: number | null; rarity: string | null; release_date: string | null;
  languages: string[]; supertype: string | null; hp: number | null; types: string[];
  set: { id: string; name: string; print_region: string | null; series?: { id: string; name: string } };
  artist: { slug: string | null; name: string } | string | null;
  translations?: Record<string, { name: string }>;
  images?: { size: string; url: string; origin: string; width: number | null }[];
};

async function load(id: string) {
  try {
    // Kept per catalogue version (lib/catalog/memo.ts), as everything this page reads: refresh-prices
    // and refresh-index move the version when they change a product's figures.
    return await byCatalogVersion(`card:${id.toLowerCase()}`, async () =>
      (await getCard(id, { include: "index,images,translations,artist" })).body.data as unknown as CardData);
  } catch (err) {
    if (err instanceof ApiError && err.code === "CARD_NOT_FOUND") notFound();
    throw err;
  }
}

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  const card = await load(segment((await params).id) ?? notFound());
  const where = `${card.set.name} ${card.number}${card.printed_total ? `/${card.printed_total}` : ""}`;
  return {
    title: `${card.name} (${where}) price · PokéPrice`,
    description: `${card.name}, ${where}${card.rarity ? `, ${card.rarity}` : ""}: composite price index in EUR, price history per source, raw and graded prices.`,
  };
}

/** Other printings the catalogue relates: the same name by the same artist in other sets or numbers. */
async function otherPrintings(card: CardData, artistName: string | null) {
  if (!artistName) return [];
  const quote = (s: string) => `"${s.replace(/["\\]/g, " ").trim()}"`;
  try {
    const { body } = await listCards({ q: `name:${quote(card.name)} artist:${quote(artistName)}`, limit: 60, orderBy: "release_date" }, () => "");
    return (body.data as unknown as CardData[]).filter((r) => r.id !== card.id && r.name === card.name);
  } catch (err) {
    if (err instanceof ApiError) return [];
    throw err;
  }
}

export default async function CardPage({ params, searchParams }: {
  params: Promise<{ id: string }>; searchParams: Promise<{ window?: string; printing?: string }>;
}) {
  const id = segment((await params).id) ?? notFound();
  const sp = await searchParams;
  const range = parseRange(sp.window);
  const card = await load(id);
  const artist = typeof card.artist === "string" ? { slug: null, name: card.artist } : card.artist;
  const [{ body: prices }, demoIndex, printings] = await byCatalogVersion(`card-prices:${card.id}`, () => Promise.all([
    getCardPrices(card.id, {}, FULL_VIEW), demoIndexed([card.id]), otherPrintings(card, artist?.name ?? null),
  ]));
  const index = prices.data.index;
  const quotes = prices.data.quotes;
  const quotePrintings = [...new Set(quotes.filter((q) => q.printing && q.source !== "INDEX").map((q) => q.printing!))];
  const chosen = sp.printing && quotePrintings.includes(sp.printing) ? sp.printing : null;
  const [chart, agreement, eurs] = await byCatalogVersion(`card-chart:${card.id}:${range}:${chosen ?? ""}`, () => Promise.all([
    chartData("card", card.id, card.set.print_region, range, chosen), indexAgreement(index, quotes), eurOf(quotes),
  ]));
  const printing = chart.printing;
  const indexDemo = demoIndex.has(card.id);
  const demo = indexDemo || quotes.some((q) => isDemoProvenance(q.provenance));
  const preparing = demoPreparing();
  const pending = preparing ? "being prepared" : "–";
  const basePath = `/cards/${encodeURIComponent(card.id)}`;
  const large = card.images?.find((i) => i.size === "LARGE");
  const stored = !!large && large.width !== null;
  const upstreamScan = large && large.origin === "upstream" && !stored ? large.url : null;
  const names = card.translations ?? {};
  return (
    <div className="explorer-page">
      <p className="sub crumbs"><Link href="/cards">Cards</Link> / <Link href={`/sets/${encodeURIComponent(card.set.id)}`}>{card.set.name}</Link></p>
      <div className="card-head">
        <figure className="card-image">
          {/* The app's own image route: the stored scan, or a face rendered on first request. */}
          <img src={`/images/cards/${encodeURIComponent(card.id)}/front-large.webp`} width={734} height={1024}
            alt={`${card.name}, ${card.set.name} ${card.number}: the card's front`} fetchPriority="high" data-testid="card-image" />
          <figcaption className="muted">
            {stored ? (large!.origin === "rendered" ? "A rendered face: no scan of this card is stored yet." : "Scan of the card's front.")
              : "A rendered face until the scan is stored."}
            {upstreamScan && <> <a href={upstreamScan} rel="noreferrer">Official scan</a></>}
          </figcaption>
        </figure>
        <div className="card-data">
          <h1>{card.name}</h1>
          <dl className="card-facts">
            <dt>Set</dt><dd><Link href={`/sets/${encodeURIComponent(card.set.id)}`} data-testid="set-link">{card.set.name}</Link>{card.set.print_region && <span className="muted"> ({regionLabel(card.set.print_region)})</span>}</dd>
            <dt>Number</dt><dd>{card.number}{card.printed_total ? `/${card.printed_total}` : ""}</dd>
            <dt>Rarity</dt><dd>{card.rarity ?? "No rarity printed"}</dd>
            <dt>Artist</dt><dd>{artist?.slug ? <Link href={`/artists/${encodeURIComponent(artist.slug)}`} data-testid="artist-link">{artist.name}</Link> : artist?.name ?? "Not credited"}</dd>
            {card.release_date && <><dt>Released</dt><dd>{card.release_date}</dd></>}
            <dt>Languages</dt>
            <dd data-testid="languages">
              <ul className="inline-list">
                {card.languages.map((l) => <li key={l} lang={l}>{languageLabel(l)}{names[l]?.name && names[l]!.name !== card.name ? `: ${names[l]!.name}` : ""}</li>)}
              </ul>
            </dd>
            <dt>Card id</dt><dd><code>{card.id}</code></dd>
          </dl>
          <section aria-labelledby="printings-heading" data-testid="printings">
            <h2 id="printings-heading">Other printings</h2>
            {printings.length
              ? <ul className="printings">{printings.map((p) => (
                  <li key={p.id}><Link href={`/cards/${encodeURIComponent(p.id)}`}>{p.set.name} {p.number}</Link>{p.release_date && <span className="muted"> ({p.release_date.slice(0, 4)})</span>}</li>
                ))}</ul>
              : <p className="muted">The catalogue relates no other printing of this card.</p>}
            <p className="muted small">Printings are the cards of the same name by the same artist; the catalogue does not link
              Western and Asian prints of a card.</p>
          </section>
        </div>
      </div>

      {preparing && <p className="preparing-note" role="status" data-testid="prices-preparing">{preparingText(preparing)}: this server generates {demoSpan()} of demo prices on its first start. Reload in a few minutes.</p>}
      <IndexSection index={index} agreement={agreement} indexDemo={indexDemo} pending={pending} />

      {quotePrintings.length > 1 && (
        <nav className="windows printing-switch" aria-label="Printing shown in the chart">
          {quotePrintings.map((p) => (
            <Link key={p} href={`${basePath}?window=${range}&printing=${p}`} aria-current={p === printing ? "page" : undefined}>{printingLabel(p)}</Link>
          ))}
        </nav>
      )}
      <PriceExplorer key={`${range}|${printing}`} initial={chart} basePath={basePath} pending={preparing ? preparingText(preparing) : undefined} />

      <QuoteSections quotes={quotes} eurs={eurs} pending={preparing ? `${preparingText(preparing)}.` : undefined} />
      {demo && <p className="demo-note">Figures marked {DEMO_LABEL} are demo data generated by the service, not real observations.</p>}
    </div>
  );
}
