import Link from "next/link";
import type { Metadata } from "next";
import { allSeries, fmtDate } from "../sets/catalogue";

// The 17 series, newest era first, each with its span of years and its size.

export const metadata: Metadata = {
  title: "Series · PokéPrice",
  description: "The Pokémon TCG series from Base to Scarlet & Violet, with their sets and card counts.",
};
export const dynamic = "force-dynamic";

export default async function SeriesPage() {
  const series = await allSeries();
  return (
    <>
      <h1>Series</h1>
      <p className="sub">{series.length} series. Japanese and other Asian sets join the Western era they were printed in.</p>
      <ul className="series-list">
        {series.map((r) => (
          <li key={r.id}>
            <Link href={`/series/${encodeURIComponent(r.id)}`}>{r.name}</Link>
            <span className="muted">{fmtDate(r.first_release_date)} – {fmtDate(r.last_release_date)} · {r.set_count} sets · {r.card_count.toLocaleString("en")} cards</span>
          </li>
        ))}
      </ul>
    </>
  );
}
