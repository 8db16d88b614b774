import Link from "next/link";
import type { Metadata } from "next";
import { allSeries, allSets } from "./catalogue";
import { SetList } from "./set-list";

// Every set, grouped by series (newest era first), newest set first within each.

export const metadata: Metadata = {
  title: "Sets · PokéPrice",
  description: "Every Pokémon TCG set, Western, Japanese, Chinese and Korean, grouped by series with release dates and card counts.",
};
export const dynamic = "force-dynamic";

export default async function SetsPage() {
  const [sets, series] = await Promise.all([allSets(), allSeries()]);
  const bySeries = new Map<string, typeof sets>();
  for (const s of sets) {
    const list = bySeries.get(s.series.id);
    if (list) list.push(s);
    else bySeries.set(s.series.id, [s]);
  }
  return (
    <>
      <h1>Sets</h1>
      <p className="sub">{sets.length} sets in {series.length} series. Japanese and other Asian sets sit in the era they were printed in.</p>
      <nav className="jump" aria-label="Series">
        {series.map((r) => <a key={r.id} href={`#series-${r.id}`}>{r.name}</a>)}
      </nav>
      {series.map((r) => (
        <section key={r.id} id={`series-${r.id}`} aria-labelledby={`h-${r.id}`}>
          <h2 id={`h-${r.id}`}><Link href={`/series/${encodeURIComponent(r.id)}`}>{r.name}</Link> <span className="muted count">{r.set_count} sets</span></h2>
          <SetList sets={bySeries.get(r.id) ?? []} listKey={`all:${r.id}`} />
        </section>
      ))}
    </>
  );
}
