import Link from "next/link";
import type { Metadata } from "next";
import { ApiError } from "@/lib/api/errors";
import { MOVE_WINDOWS, type MoveWindow } from "@/lib/prices/moves";
import { eur, percent, regionLabel, REGION_LABELS } from "@/lib/prices/labels";
import { listMovers } from "@/lib/prices/movers";
import { DEMO_LABEL, demoPreparing, isDemoProvenance, isHeadlineIndex, preparingText } from "../cards/demo";
import { seriesOfProducts } from "@/lib/prices/queries/read";
import "../explorer.css";

// The biggest risers and fallers of the composite index (GET /v1/prices/movers' own function),
// filtered by set and print region, for cards or sealed products. A plain GET form: works
// without JavaScript, and every view has its own address.

export const metadata: Metadata = {
  title: "Price movers: biggest risers and fallers · PokéPrice",
  description: "The Pokémon cards and sealed products whose composite price index rose or fell most over 24 hours, 7 days, 30 days, 90 days or a year, by set and region.",
};
export const dynamic = "force-dynamic";

const WINDOW_TEXT: Record<MoveWindow, string> = { "24h": "24 hours", "7d": "7 days", "30d": "30 days", "90d": "90 days", "1y": "1 year" };
type Mover = Awaited<ReturnType<typeof listMovers>>["body"]["data"]["rose"][number];

export default async function MoversPage({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  const sp = await searchParams;
  const window: MoveWindow = (MOVE_WINDOWS as readonly string[]).includes(sp.window ?? "") ? (sp.window as MoveWindow) : "7d";
  const product = sp.product === "sealed" ? "sealed" : "card";
  // Own keys only: `constructor` or `toString` is in every object.
  const region = sp.region && Object.hasOwn(REGION_LABELS, sp.region) ? sp.region : undefined;
  const set = sp.set?.trim() || undefined;
  const preparing = demoPreparing();
  let rose: Mover[] = [];
  let fell: Mover[] = [];
  let error: string | undefined;
  let demo = new Set<string>();
  try {
    const { body } = await listMovers({ window, product, limit: 25, min_eur: 1, region, set });
    rose = body.data.rose;
    fell = body.data.fell;
    const series = await seriesOfProducts(product, [...rose, ...fell].map((m) => m.id));
    demo = new Set(series.filter((s) => isHeadlineIndex(s) && isDemoProvenance(s.provenance)).map((s) => s.product_id));
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    error = err.code === "SET_NOT_FOUND" ? `No set with the code “${set}”. Try a code such as base1 or sv3pt5.` : err.message;
  }
  const href = (o: Record<string, string | undefined>) => {
    const u = new URLSearchParams();
    for (const [k, v] of Object.entries({ window, product, region, set, ...o })) if (v) u.set(k, v);
    return `/movers?${u}`;
  };
  const base = product === "sealed" ? "/sealed" : "/cards";
  const table = (rows: Mover[], caption: string, testid: string) => (
    <table className="quotes movers" data-testid={testid}>
      <caption>{caption}</caption>
      <thead>
        <tr><th scope="col">{product === "sealed" ? "Product" : "Card"}</th><th scope="col" className="opt">Set</th>
          <th scope="col" className="num opt">From</th><th scope="col" className="num">Now</th><th scope="col" className="num">Change</th></tr>
      </thead>
      <tbody>
        {rows.map((m) => (
          <tr key={m.id}>
            <td><Link href={`${base}/${encodeURIComponent(m.id)}`}>{m.name}</Link>{m.number && <span className="muted"> {m.number}</span>}</td>
            <td className="opt">{m.set ? <Link href={`/sets/${encodeURIComponent(m.set.id)}`}>{m.set.name}</Link> : "–"}</td>
            <td className="num opt">{eur(m.from.eur)}</td>
            <td className="num">{eur(m.to.eur)}{demo.has(m.id) && <> <span className="demo-tag">{DEMO_LABEL}</span></>}</td>
            <td className={`num ${m.change_pct >= 0 ? "up" : "down"}`}>{percent(m.change_pct)}</td>
          </tr>
        ))}
        {!rows.length && <tr><td colSpan={5} className="muted">{preparing ? `${preparingText(preparing)}.` : "Nothing moved this way with these filters."}</td></tr>}
      </tbody>
    </table>
  );
  return (
    <div className="explorer-page">
      <h1>Price movers</h1>
      <p className="sub">The composite index&apos;s biggest risers and fallers over {WINDOW_TEXT[window]}, in EUR. Products under €1 are left out: on cheap cards a few cents look like huge moves.</p>
      <nav className="windows" aria-label="Window">
        {MOVE_WINDOWS.map((w) => <Link key={w} href={href({ window: w })} aria-current={w === window ? "page" : undefined}>{w}</Link>)}
      </nav>
      <form className="filters" action="/movers" method="get" role="search" aria-label="Filter movers">
        <input type="hidden" name="window" value={window} />
        <label>Products
          <select name="product" defaultValue={product}>
            <option value="card">Cards</option>
            <option value="sealed">Sealed products</option>
          </select>
        </label>
        <label>Region
          <select name="region" defaultValue={region ?? ""}>
            <option value="">All regions</option>
            {Object.entries(REGION_LABELS).map(([k, v]) => <option key={k} value={k}>{v}</option>)}
          </select>
        </label>
        <label>Set code
          <input name="set" defaultValue={set} placeholder="base1" size={10} />
        </label>
        <button type="submit">Show</button>
      </form>
      {(set || region) && !error && (
        <p className="muted" data-testid="movers-filter">Showing {product === "sealed" ? "sealed products" : "cards"}{set ? ` of set ${set}` : ""}{region ? `, ${regionLabel(region)} prints` : ""}. <Link href={href({ set: "", region: "" })}>Clear filters</Link></p>
      )}
      {error && <p className="error-note" role="alert">{error}</p>}
      {!error && (
        <div className="movers-grid">
          <section>{table(rose, `Risers over ${WINDOW_TEXT[window]}`, "risers")}</section>
          <section>{table(fell, `Fallers over ${WINDOW_TEXT[window]}`, "fallers")}</section>
        </div>
      )}
      <p className="demo-note">Movers are computed once a day from the composite index; 24h compares the newest day&apos;s index with the day before&apos;s. {demo.size > 0 && <>Figures marked {DEMO_LABEL} are demo data generated by the service.</>}</p>
    </div>
  );
}
