import Link from "next/link";
import { DEMO_LABEL } from "./demo";

// Card results as a grid of faces or as a table; shared by the search and the set pages.
// Faces are the app's own SMALL images (stored, or rendered on first request), lazy-loaded
// with their size set so the page does not jump while they arrive.

export type CardRow = {
  id: string; name: string; number: string; rarity: string | null; set: { id: string; name: string };
  index_eur?: number | null; release_date?: string | null;
};

export const FACE = { width: 245, height: 342 } as const;
export const faceUrl = (id: string) => `/images/cards/${encodeURIComponent(id)}/front-small.webp`;
export const eur = (v: number | null | undefined) => (v == null ? "–" : v.toLocaleString("en", { style: "currency", currency: "EUR" }));

type Opts = { demo: Set<string>; pending?: boolean; showSet?: boolean; eagerFirst?: number };

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
          <span className="c-price"><Price row={r} {...o} /></span>
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
          <tr><th>Card</th><th className="opt">Set</th><th className="opt">No.</th><th className="opt">Rarity</th><th className="num">Index</th></tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.id}>
              <td><Link href={`/cards/${encodeURIComponent(r.id)}`}>{r.name}</Link></td>
              <td className="opt">{r.set.name}</td>
              <td className="opt">{r.number}</td>
              <td className="opt">{r.rarity ?? "–"}</td>
              <td className="num"><Price row={r} {...o} /></td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
