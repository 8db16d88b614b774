import Link from "next/link";
import { notFound } from "next/navigation";
import type { Metadata } from "next";
import type { Account } from "@/lib/accounts/types";
import { ApiError } from "@/lib/api/errors";
import { getCard } from "@/lib/catalog/cards/get";
import { stats, WINDOWS, type Window } from "@/lib/prices/history";
import { getCardPrices, headlineHistory } from "@/lib/prices/service";
import { DEMO_LABEL, demoIndexed, demoPreparing, isDemoProvenance, preparingText } from "../demo";
import { PriceChart } from "./price-chart";

// One card for collectors: its composite index over time and the current English, ungraded
// quotes (what a free trial key sees; graded and other-language rows come with a paid plan).

export const dynamic = "force-dynamic";

const BROWSER_VIEW = { plan: "trial" } as Account;
const eur = (v: number | null | undefined) => (v == null ? "–" : v.toLocaleString("en", { style: "currency", currency: "EUR" }));
const money = (v: number, currency: string) => v.toLocaleString("en", { style: "currency", currency });

async function load(id: string) {
  try {
    return (await getCard(id, { include: "index" })).body.data as Record<string, any>;
  } catch (err) {
    if (err instanceof ApiError && err.code === "CARD_NOT_FOUND") notFound();
    throw err;
  }
}

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  const card = await load(decodeURIComponent((await params).id));
  return { title: `${card.name} (${card.set.name} ${card.number}) · PokéPrice` };
}

export default async function CardPage({ params, searchParams }: {
  params: Promise<{ id: string }>; searchParams: Promise<{ window?: string }>;
}) {
  const id = decodeURIComponent((await params).id);
  const sp = await searchParams;
  const window: Window = (WINDOWS as readonly string[]).includes(sp.window ?? "") ? (sp.window as Window) : "1y";
  const card = await load(id);
  const [{ body: prices }, history, demoIndex] = await Promise.all([
    getCardPrices(card.id, {}, BROWSER_VIEW), headlineHistory(card.id, window), demoIndexed([card.id]),
  ]);
  const s = stats(history.points);
  const index = prices.data.index;
  // The index figures and the chart are the headline index; the quotes carry their own labels.
  const indexDemo = demoIndex.has(card.id);
  const demo = indexDemo || prices.data.quotes.some((q) => isDemoProvenance(q.provenance));
  const tag = indexDemo ? ` ${DEMO_LABEL}` : "";
  // The first start's demo prices are still being generated: what is missing is coming, not absent.
  const preparing = demoPreparing();
  const pending = preparing ? "being prepared" : "–";
  const fig = (v: number | null | undefined) => (v == null ? pending : eur(v));
  return (
    <>
      <p className="sub"><Link href="/cards">Cards</Link> / {card.set.name}</p>
      <h1>{card.name}</h1>
      <p className="sub">{card.set.name} · {card.number}{card.printed_total ? `/${card.printed_total}` : ""} · {card.rarity ?? "No rarity printed"} · <code>{card.id}</code></p>

      {preparing && <p className="preparing-note" role="status" data-testid="prices-preparing">{preparingText(preparing)}: this server generates a year of demo prices on its first start. Reload in a few minutes.</p>}
      <div className="facts">
        <div className="fact"><div className="k">Composite index{tag}</div><div className="v">{fig(index?.eur)}</div></div>
        <div className="fact"><div className="k">Sources agreeing</div><div className="v">{index?.sample_n ?? pending}</div></div>
        <div className="fact"><div className="k">Low / high ({window}){tag}</div><div className="v">{s.low == null && s.high == null && preparing ? pending : `${eur(s.low)} / ${eur(s.high)}`}</div></div>
        <div className="fact">
          <div className="k">Change ({window}){tag}</div>
          <div className={`v ${(s.change_pct ?? 0) >= 0 ? "up" : "down"}`}>{s.change_pct == null ? pending : `${s.change_pct > 0 ? "+" : ""}${s.change_pct.toFixed(1)} %`}</div>
        </div>
      </div>

      <nav className="windows" aria-label="Window">
        {WINDOWS.map((w) => (
          <Link key={w} href={`/cards/${encodeURIComponent(card.id)}?window=${w}`} aria-current={w === window ? "page" : undefined}>{w}</Link>
        ))}
      </nav>
      {preparing && !history.points.length
        ? <p className="muted">{preparingText(preparing)}.</p>
        : <PriceChart points={history.points.map(([date, v]) => ({ date, eur: v }))} demo={indexDemo} />}

      <h2>Current quotes</h2>
      <table className="quotes">
        <thead>
          <tr><th>Source</th><th>Variant</th><th className="opt">Printing</th><th className="opt">As of</th><th className="num">Price</th></tr>
        </thead>
        <tbody>
          {prices.data.quotes.map((q, i) => (
            <tr key={i}>
              <td>{q.provenance}</td>
              <td>{q.variant}</td>
              <td className="opt">{q.printing ?? "–"}</td>
              <td className="opt">{q.as_of}</td>
              <td className="num">{money(q.amount, q.currency)}</td>
            </tr>
          ))}
          {!prices.data.quotes.length && (
            <tr><td colSpan={5} className="muted">{preparing ? `${preparingText(preparing)}.` : "No observations for this card."}</td></tr>
          )}
        </tbody>
      </table>
      <p className="demo-note">
        English, ungraded figures; third-party figures appear 24 hours after they were observed. Graded medians and other
        languages come with a paid API plan.{demo ? " These figures are demo data generated by the service, not real observations." : ""}
      </p>
    </>
  );
}
