import Link from "next/link";
import { badgeText, fmtDate, regionLabel, type SetRow } from "./catalogue";

// Sets as a list of rows: badge, name, release date, region and size. The catalogue's logos
// live on another host, which this site's pages do not load from: a text badge stands in.

export function SetList({ sets }: { sets: SetRow[] }) {
  return (
    <ul className="set-list">
      {sets.map((s) => (
        <li key={s.id}>
          <span className="set-badge" aria-hidden="true">{badgeText(s)}</span>
          <span className="set-main">
            <Link href={`/sets/${encodeURIComponent(s.id)}`}>{s.name}</Link>
            {s.name_en && s.name_en !== s.name && <span className="muted"> · {s.name_en}</span>}
          </span>
          <span className="set-facts">
            <time dateTime={s.release_date ?? undefined}>{fmtDate(s.release_date)}</time>
            <span>{regionLabel(s.print_region)}</span>
            <span>{s.card_count} cards</span>
          </span>
        </li>
      ))}
    </ul>
  );
}
