import Link from "next/link";
import { notFound } from "next/navigation";
import { segment } from "../../segment";
import type { Metadata } from "next";
import { ApiError } from "@/lib/api/errors";
import { getSet } from "@/lib/catalog/sets";
import { trend } from "@/lib/prices/labels";
import { CardGrid, CardTable, eur } from "../../cards/card-views";
import { demoIndexed, demoPreparing, DEMO_LABEL, preparingText } from "../../cards/demo";
import { byCatalogVersion } from "@/lib/catalog/memo";
import { badgeText, fmtDate, regionLabel, setCards, SetSymbol, setValue, type SetRow } from "../catalogue";

// One set: its cards in number order (1, 2 … 10, never 1, 10, 100) with their index, the set's
// value (the sum of its cards' indexes) and how it moved over 30 days, and its dearest cards.

export const dynamic = "force-dynamic";

async function load(code: string): Promise<SetRow> {
  try {
    return await byCatalogVersion(`set:${code.toLowerCase()}`, async () => (await getSet(code, {})).body.data as unknown as SetRow);
  } catch (err) {
    if (err instanceof ApiError && err.code === "SET_NOT_FOUND") notFound();
    throw err;
  }
}

export async function generateMetadata({ params }: { params: Promise<{ code: string }> }): Promise<Metadata> {
  const set = await load(segment((await params).code) ?? notFound());
  return {
    title: `${set.name} (${badgeText(set)}) · Sets · PokéPrice`,
    description: `All ${set.card_count} cards of ${set.name}, ${set.series.name} series, released ${fmtDate(set.release_date)}, with their prices and the set's total value.`,
  };
}

export default async function SetPage({ params, searchParams }: {
  params: Promise<{ code: string }>; searchParams: Promise<{ view?: string }>;
}) {
  const set = await load(segment((await params).code) ?? notFound());
  const view = (await searchParams).view === "table" ? "table" : "grid";
  const cards = await setCards(set.id);
  const [value, demo] = await Promise.all([
    setValue(set.id, cards),
    byCatalogVersion(`set-demo:${set.id}`, () => demoIndexed(cards.filter((c) => c.index_eur != null).map((c) => c.id))),
  ]);
  const preparing = demoPreparing();
  const top = cards.filter((c) => c.index_eur != null).sort((a, b) => b.index_eur! - a.index_eur!).slice(0, 5);
  const tag = demo.size ? ` ${DEMO_LABEL}` : "";
  const base = `/sets/${encodeURIComponent(set.id)}`;
  return (
    <>
      <p className="sub"><Link href="/sets">Sets</Link> / <Link href={`/series/${encodeURIComponent(set.series.id)}`}>{set.series.name}</Link></p>
      <h1 className="set-title"><SetSymbol set={set} size="large" /> <span>{set.name}</span></h1>
      <p className="sub">
        Released {fmtDate(set.release_date)} · {regionLabel(set.print_region)} · {set.card_count} cards
        {set.printed_total ? ` (${set.printed_total} numbered)` : ""} · <code>{set.id}</code>{badgeText(set).toLowerCase() !== set.id.toLowerCase() && <> · <span className="nowrap">printed code <code>{badgeText(set)}</code></span></>}
      </p>
      {preparing && <p className="preparing-note" role="status">{preparingText(preparing)}.</p>}
      <div className="facts">
        <div className="fact" data-testid="set-total"><div className="k">Total value{tag}</div><div className="v">{value.priced ? eur(value.total_eur) : "–"}</div></div>
        <div className="fact"><div className="k">Cards priced</div><div className="v">{value.priced} of {cards.length}</div></div>
        <div className="fact" data-testid="set-change">
          <div className="k">Change (30d){tag}</div>
          <div className={`v${trend(value.change_eur)}`}>
            {value.change_eur == null ? "–" : `${value.change_eur >= 0 ? "+" : "−"}${eur(Math.abs(value.change_eur))}${value.change_pct == null ? "" : ` (${value.change_pct >= 0 ? "+" : ""}${value.change_pct.toFixed(1)} %)`}`}
          </div>
        </div>
      </div>
      {top.length > 0 && (
        <section aria-labelledby="top-h">
          <h2 id="top-h">Most valuable</h2>
          <ol className="top-cards" data-testid="top-cards">
            {top.map((c) => (
              <li key={c.id}><Link href={`/cards/${encodeURIComponent(c.id)}`}>{c.name}</Link> <span className="muted">{c.number}</span> <span className="num">{eur(c.index_eur)}</span></li>
            ))}
          </ol>
        </section>
      )}
      <h2>Cards</h2>
      <nav className="view-toggle" aria-label="View">
        <Link href={base} aria-current={view === "grid" ? "page" : undefined}>Grid</Link>
        <Link href={`${base}?view=table`} aria-current={view === "table" ? "page" : undefined}>Table</Link>
      </nav>
      {view === "grid"
        ? <CardGrid rows={cards} demo={demo} pending={!!preparing} showSet={false} eagerFirst={4} />
        : <CardTable rows={cards} demo={demo} pending={!!preparing} />}
      {demo.size > 0 && <p className="demo-note">Figures marked {DEMO_LABEL} come from the service&apos;s demo market, not from real observations.</p>}
    </>
  );
}
