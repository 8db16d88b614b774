import Link from "next/link";
import { percent } from "@/lib/prices/labels";
import { DEMO_LABEL } from "./demo";

// Card results as a grid of faces or as a table; shared by the search and the set pages.
// Faces are the app's own SMALL images (stored, or rendered on first request), lazy-loaded
// with their size set so the page does not jump while they arrive.

export type CardRow = {
  id: string; name: string; number: string; rarity: string | null; set: { id: string; name: string };
  index_eur?: number | null; release_date?: string | null; change_7d_pct?: number | null; change_30d_pct?: number | null;
};

/** A list row reduced to what the views show (what the pages keep per catalogue version). */
export const cardRow = (r: CardRow): CardRow => ({
  id: r.id, name: r.name, number: r.number, rarity: r.rarity, set: { id: r.set.id, name: r.set.name },
  index_eur: r.index_eur, release_date: r.release_date, change_7d_pct: r.change_7d_pct, change_30d_pct: r.change_30d_pct,
});

export const FACE = { width: 245, height: 342 } as const;
export const faceUrl = (id: string) => `/images/cards/${encodeURIComponent(id)}/front-small.webp`;
export const eur = (v: number | null | undefined) => (v == null ? "–" : v.toLocaleString("en", { style: "currency", currency: "EUR" }));

/** `change`: the window whose move each row shows (the change sorts). */
type Opts = { demo: Set<string>; pending?: boolean; showSet?: boolean; eagerFirst?: number; change?: "7d" | "30d" };

const changeValue = (row: CardRow, w: "7d" | "30d") => (w === "7d" ? row.change_7d_pct : row.change_30d_pct);

function Change({ row, w }: { row: CardRow; w: "7d" | "30d" }) {
  const v = changeValue(row, w);
  if (v == null) return <span className="muted">–</span>;
  return <span className={v >= 0 ? "up" : "down"}>{percent(v)}<span className="visually-hidden"> over {w === "7d" ? "7 days" : "30 days"}</span></span>;
}

function Price({ row, demo, pending }: { row: CardRow } & Opts) {
  if (row.index_eur == null && pending) return <span className="muted">being prepared</span>;
  return <>{eur(row.index_eur)}{demo.has(row.id) && <> <span className="demo-tag">{DEMO_LABEL}</span></>}</>;
}

export function CardGrid({ rows, ...o }: { rows: CardRow[] } & Opts) {
  return (
    <ul className="card-grid" data-testid="card-grid">
      {rows.map((r, i) => (
        <li key={r.id}>
          <Link href={`/cards/${encodeURIComponent(r.id)}`}>
            {/* The name below says what the face shows. */}
            <img src={faceUrl(r.id)} alt="" width={FACE.width} height={FACE.height} loading={i < (o.eagerFirst ?? 0) ? "eager" : "lazy"} decoding="async" />
            <span className="c-name">{r.name}</span>
          </Link>
          <span className="c-meta">{o.showSet !== false ? `${r.set.name} · ` : ""}{r.number}</span>
          <span className="c-price"><Price row={r} {...o} />{o.change && <> <Change row={r} w={o.change} /></>}</span>
        </li>
      ))}
    </ul>
  );
}

export function CardTable({ rows, ...o }: { rows: CardRow[] } & Opts) {
  return (
    <div className="table-wrap">
      <table className="cards">
        <thead>
          <tr><th>Card</th><th className="opt">Set</th><th className="opt">No.</th><th className="opt">Rarity</th><th className="num">Index</th>{o.change && <th className="num">{o.change} change</th>}</tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.id}>
              <td><Link href={`/cards/${encodeURIComponent(r.id)}`}>{r.name}</Link></td>
              <td className="opt">{r.set.name}</td>
              <td className="opt">{r.number}</td>
              <td className="opt">{r.rarity ?? "–"}</td>
              <td className="num"><Price row={r} {...o} /></td>
              {o.change && <td className="num"><Change row={r} w={o.change} /></td>}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
