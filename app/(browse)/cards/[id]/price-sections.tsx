import type { CompositeIndex } from "@/lib/prices/composite";
import {
  conditionLabel, eur, gradeLabel, isThinIndex, isThinQuote, languageLabel, money, printingLabel, sourceLabel,
  THIN_INDEX_SOURCES, THIN_MARKET_RULE, THIN_QUOTE_OBSERVATIONS, variantLabel,
} from "@/lib/prices/labels";
import type { Quote } from "@/lib/prices/quotes";
import { DEMO_LABEL, isDemoProvenance } from "../demo";
import type { Agreement } from "./explorer-data";

// The server-rendered price sections shared by the card and sealed product pages: the composite
// index with its provenance, and the current quotes, raw per printing and graded per company
// and grade, each in its source's currency with the EUR figure beside it.

export function ThinFlag({ what }: { what: string }) {
  return <span className="thin-flag" data-testid="thin-market" title={THIN_MARKET_RULE}>Thin market<span className="visually-hidden">: {what}</span></span>;
}

const demoTag = (provenance: string) => (isDemoProvenance(provenance) ? <> <span className="demo-tag">{DEMO_LABEL}</span></> : null);

export function IndexSection({ index, agreement, indexDemo, pending }: {
  index: CompositeIndex | null; agreement: Agreement[]; indexDemo: boolean; pending: string;
}) {
  const tag = indexDemo ? ` ${DEMO_LABEL}` : "";
  const thin = index ? isThinIndex(index.sample_n) : false;
  return (
    <section aria-labelledby="index-heading" className="index-section">
      <h2 id="index-heading">Composite index</h2>
      <div className="facts">
        <div className="fact"><div className="k">Composite index{tag}</div><div className="v" data-testid="index-eur">{index ? eur(index.eur) : pending}</div></div>
        <div className="fact">
          <div className="k">Sources agreeing</div>
          <div className="v">{index?.sample_n ?? pending}{thin && <> <ThinFlag what={`only ${index!.sample_n} source`} /></>}</div>
        </div>
        <div className="fact"><div className="k">As of</div><div className="v">{index?.as_of ?? pending}</div></div>
      </div>
      {agreement.length > 0 && (
        <table className="quotes provenance" data-testid="index-provenance">
          <caption>How the index is made: per language and printing, the median of one figure per source, in EUR</caption>
          <thead>
            <tr><th scope="col">Language and printing</th><th scope="col" className="num">Index</th><th scope="col">Sources that agree</th><th scope="col" className="opt">As of</th><th scope="col" className="num">Sources</th></tr>
          </thead>
          <tbody>
            {agreement.map((a) => (
              <tr key={`${a.locale}|${a.printing}`}>
                <th scope="row">{languageLabel(a.locale)}, {printingLabel(a.printing).toLowerCase()}</th>
                <td className="num">{eur(a.eur)}{tag && <> <span className="demo-tag">{DEMO_LABEL}</span></>}</td>
                <td>
                  {a.members.length
                    ? <ul className="members">{a.members.map((m) => (
                        <li key={m.source}>
                          {sourceLabel(m.source)} ({variantLabel(m.variant).toLowerCase()}): {money(m.amount, m.currency)}
                          {m.currency !== "EUR" && <span className="conv"> ≈ {eur(m.eur)}</span>}{demoTag(m.provenance)}
                        </li>
                      ))}</ul>
                    : <span className="muted">{a.sample_n} source{a.sample_n === 1 ? "" : "s"} (figures no longer current)</span>}
                </td>
                <td className="opt">{a.as_of}</td>
                <td className="num">{a.sample_n}{isThinIndex(a.sample_n) && <> <ThinFlag what={`only ${a.sample_n} source`} /></>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

type Row = { q: Quote; eur: number | null };

function Figure({ r }: { r: Row }) {
  return (
    <>
      <td className="num">{money(r.q.amount, r.q.currency)}</td>
      <td className="num">{r.q.currency === "EUR" ? "" : r.eur == null ? "no rate" : `≈ ${eur(r.eur)}`}</td>
    </>
  );
}

function Observations({ n }: { n: number | null }) {
  return <td className="num opt">{n ?? "–"}{isThinQuote(n) && <> <ThinFlag what={`${n} observation${n === 1 ? "" : "s"}`} /></>}</td>;
}

/** Current quotes: raw ones grouped by printing, graded ones by company and grade. */
export function QuoteSections({ quotes, eurs, pending }: { quotes: Quote[]; eurs: (number | null)[]; pending?: string }) {
  const rows: Row[] = quotes.map((q, i) => ({ q, eur: eurs[i] ?? null })).filter((r) => r.q.source !== "INDEX");
  const raw = rows.filter((r) => !r.q.grading);
  const graded = rows.filter((r) => r.q.grading)
    .sort((a, b) => (a.q.grading!.company ?? "").localeCompare(b.q.grading!.company ?? "") || Number(b.q.grading!.score) - Number(a.q.grading!.score));
  const printings = [...new Set(raw.map((r) => r.q.printing))];
  return (
    <section aria-labelledby="quotes-heading">
      <h2 id="quotes-heading">Current quotes</h2>
      {!rows.length && <p className="muted">{pending ?? "No observations for this product."}</p>}
      {printings.map((p) => (
        <table className="quotes raw" key={p ?? "none"} data-printing={p ?? ""}>
          <caption>Raw (ungraded), {printingLabel(p).toLowerCase()}</caption>
          <thead>
            <tr><th scope="col">Source</th><th scope="col">Figure</th><th scope="col" className="opt">Language</th><th scope="col" className="opt">Condition</th>
              <th scope="col" className="num">Price</th><th scope="col" className="num">In EUR</th><th scope="col" className="opt">As of</th><th scope="col" className="num opt">Observations</th></tr>
          </thead>
          <tbody>
            {raw.filter((r) => r.q.printing === p).map((r, i) => (
              <tr key={i}>
                <td>{r.q.provenance}</td>
                <td>{variantLabel(r.q.variant)}</td>
                <td className="opt">{languageLabel(r.q.locale)}</td>
                <td className="opt">{conditionLabel(r.q.condition)}</td>
                <Figure r={r} />
                <td className="opt">{r.q.as_of}</td>
                <Observations n={r.q.sample_n} />
              </tr>
            ))}
          </tbody>
        </table>
      ))}
      {graded.length > 0 && (
        <table className="quotes graded" data-testid="graded-quotes">
          <caption>Graded, by grading company and grade</caption>
          <thead>
            <tr><th scope="col">Grade</th><th scope="col">Source</th><th scope="col" className="opt">Printing</th><th scope="col" className="opt">Language</th>
              <th scope="col" className="num">Price</th><th scope="col" className="num">In EUR</th><th scope="col" className="opt">As of</th><th scope="col" className="num opt">Observations</th></tr>
          </thead>
          <tbody>
            {graded.map((r, i) => (
              <tr key={i}>
                <td>{gradeLabel(r.q.grading)}</td>
                <td>{r.q.provenance}</td>
                <td className="opt">{printingLabel(r.q.printing)}</td>
                <td className="opt">{languageLabel(r.q.locale)}</td>
                <Figure r={r} />
                <td className="opt">{r.q.as_of}</td>
                <Observations n={r.q.sample_n} />
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p className="demo-note" data-testid="thin-rule">
        {THIN_MARKET_RULE} (An index needs {THIN_INDEX_SOURCES} sources, a quote {THIN_QUOTE_OBSERVATIONS} observations.)
        {" "}Third-party figures appear 24 hours after they were observed; amounts in another currency are converted at the
        ECB reference rate of their day.
      </p>
    </section>
  );
}
