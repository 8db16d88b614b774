import Link from "next/link";
import type { Metadata } from "next";
import { MAX_CSV_BYTES, MAX_CSV_LINES } from "@/lib/collection/csv";
import { LANGUAGE_NAMES, PRINTING_NAMES, type Language, type Printing } from "@/lib/collection/model";
import { cardsByIds, collectionView, watchView } from "@/lib/collection/service";
import { readNotice } from "@/lib/collection/notice";
import type { Window } from "@/lib/prices/history";
import { DEMO_LABEL, demoIndexed } from "../cards/demo";
import { AddToCollection } from "./add-button";
import { removeWatchForm, setWatchForm } from "./actions";
import { ImportForm } from "./import-form";
import { ItemsTable } from "./items-table";
import { Providers } from "./providers";
import { sessionAccount } from "./session";
import { ValueChart } from "./value-chart";
import "../collection.css";

// A signed-in collector's cards: today's value from the composite index, its history, the gain
// against the price paid, price alerts, CSV in and out (docs/collection.md).

export const metadata: Metadata = { title: "Your collection · PokéPrice" };
export const dynamic = "force-dynamic";

const WINDOWS = ["90d", "1y"] as const;
const eur = (v: number | null | undefined) => (v == null ? "–" : v.toLocaleString("en", { style: "currency", currency: "EUR" }));
const signed = (v: number) => `${v > 0 ? "+" : v < 0 ? "−" : ""}${eur(Math.abs(v))}`;

export default async function CollectionPage({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  const sp = await searchParams;
  const notice = readNotice(sp);
  const account = await sessionAccount();
  if (!account) {
    return (
      <>
        <h1>Your collection</h1>
        <p className="sub">Keep the cards you own, see what they are worth today and over time, and get a mail when a price crosses your alert.</p>
        <p><Link href="/sign-in">Sign in</Link> or <Link href="/sign-up">create an account</Link> to keep a collection. Browsing the cards needs neither.</p>
      </>
    );
  }
  const window: Window = sp.window === "1y" ? "1y" : "90d";
  const [view, watches] = await Promise.all([collectionView(account.id, window), watchView(account.id)]);
  const demo = (await demoIndexed([...new Set([...view.items.map((i) => i.cardId), ...watches.map((w) => w.cardId)])])).size > 0;
  const tag = demo ? ` ${DEMO_LABEL}` : "";
  const t = view.totals;
  const addId = sp.add?.trim().slice(0, 100);
  const addCard = addId ? (await cardsByIds([addId])).get(addId) : undefined;
  return (
    <Providers>
      <h1>Your collection</h1>
      <p className="sub">Valued at each card&apos;s composite index in EUR (its language and printing when the index has one, else the card&apos;s). Condition does not change the value shown.</p>

      {notice.done && <p className="ok-note" role="status">{notice.done.slice(0, 200)}</p>}
      {notice.error && <p className="error-note" role="alert">{notice.error.slice(0, 300)}</p>}

      <div className="facts" data-testid="collection-totals">
        <div className="fact"><div className="k">Value today{tag}</div><div className="v" data-testid="collection-value">{eur(t.value)}</div></div>
        <div className="fact"><div className="k">Cards</div><div className="v">{t.copies.toLocaleString("en")} <span className="unit">in {t.items} {t.items === 1 ? "entry" : "entries"}</span></div></div>
        <div className="fact"><div className="k">Paid{t.compared < t.items ? ` (${t.compared} of ${t.items} with a price)` : ""}</div><div className="v">{eur(t.cost)}</div></div>
        <div className="fact">
          <div className="k">Gain / loss{tag}</div>
          <div className={`v ${t.gain >= 0 ? "up" : "down"}`} data-testid="collection-gain">
            {t.compared ? <><span className="signed">{signed(t.gain)}</span>{t.gainPct != null && <> <span className="unit">{t.gainPct > 0 ? "+" : ""}{t.gainPct.toFixed(1)} %</span></>}</> : "–"}
          </div>
        </div>
      </div>

      <h2>Value over time</h2>
      <nav className="windows" aria-label="Window">
        {WINDOWS.map((w) => <Link key={w} href={`/collection?window=${w}`} aria-current={w === window ? "page" : undefined}>{w}</Link>)}
      </nav>
      <ValueChart points={view.history} demo={demo} />

      <h2>Cards</h2>
      {view.items.length
        ? <ItemsTable items={view.items.map((i) => ({ ...i, printingName: PRINTING_NAMES[i.printing as Printing] ?? i.printing, languageName: LANGUAGE_NAMES[i.language as Language] ?? i.language }))} />
        : <p className="muted" data-testid="collection-empty">No cards yet. Add one from its page, or by its id below, or import a CSV file.</p>}

      <section className="panel" aria-labelledby="add-title">
        <h2 id="add-title">Add a card</h2>
        <form action="/collection" className="inline-form">
          <label>Card id<input name="add" defaultValue={addId} placeholder="base1-4" required maxLength={100} /></label>
          <button type="submit">Find</button>
        </form>
        {addId && <AddToCollection cardId={addId} />}
        {addId && !addCard && <p className="error-note" role="alert">No card {addId} in the catalogue.</p>}
      </section>

      <section className="panel" id="alerts" aria-labelledby="alerts-title">
        <h2 id="alerts-title">Price alerts</h2>
        <p className="muted">A mail to {account.email} when a card&apos;s composite index crosses your price: once per crossing, again after it has gone back and crosses anew. Checked after each price refresh.</p>
        {notice.alert_error && <p className="error-note" role="alert">{notice.alert_error.slice(0, 300)}</p>}
        <form action={setWatchForm} className="inline-form" data-testid="alert-form">
          <label>Card id<input name="card_id" required maxLength={100} placeholder="base1-4" /></label>
          <label>When the price is
            <select name="direction" defaultValue="above"><option value="above">at or above</option><option value="below">at or below</option></select>
          </label>
          <label>Price (EUR)<input name="threshold" inputMode="decimal" pattern="\d{1,10}(\.\d{1,2})?" required placeholder="250" /></label>
          <button type="submit">Set alert</button>
        </form>
        {watches.length > 0 && (
          <table className="cards watch" data-testid="alerts">
            <thead><tr><th>Card</th><th>Alert</th><th className="num">Index today{tag}</th><th className="opt">State</th><th><span className="visually-hidden">Remove</span></th></tr></thead>
            <tbody>
              {watches.map((w) => (
                <tr key={w.id}>
                  <td><Link href={`/cards/${encodeURIComponent(w.cardId)}`}>{w.name}</Link></td>
                  <td>{w.direction === "above" ? "≥" : "≤"} {eur(w.threshold)}</td>
                  <td className="num">{eur(w.priceEur)}</td>
                  <td className="opt">{w.armed ? "Waiting" : `Mailed${w.lastAlertedAt ? ` ${w.lastAlertedAt.slice(0, 10)}` : ""}`}</td>
                  <td>
                    <form action={removeWatchForm}>
                      <input type="hidden" name="id" value={w.id} />
                      <button type="submit" className="link-button" aria-label={`Remove the alert on ${w.name}`}>Remove</button>
                    </form>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      <section className="panel" id="import" aria-labelledby="csv-title">
        <h2 id="csv-title">CSV</h2>
        <p className="muted">
          Columns <code>card_id,quantity,condition,printing,language,price_paid,currency,added_at</code> with that header line; at most
          {" "}{(MAX_CSV_BYTES / 1_000_000).toFixed(0)} MB and {MAX_CSV_LINES.toLocaleString("en")} lines. An import adds every line or none.
        </p>
        <p><a href="/collection/export" download data-testid="export-csv">Export CSV</a></p>
        <ImportForm imported={notice.imported} errors={notice.import_errors?.split("\n")} errorCount={Number(notice.import_error_count ?? 0)} />
      </section>
    </Providers>
  );
}
