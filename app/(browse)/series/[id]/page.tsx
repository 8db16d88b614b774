import Link from "next/link";
import { notFound } from "next/navigation";
import { segment } from "../../segment";
import type { Metadata } from "next";
import { allSeries, allSets, fmtDate } from "../../sets/catalogue";
import { SetList } from "../../sets/set-list";

// One series: its sets, newest first.

export const dynamic = "force-dynamic";

async function load(id: string) {
  const series = (await allSeries()).find((r) => r.id.toLowerCase() === id.toLowerCase());
  if (!series) notFound();
  return series;
}

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  const r = await load(segment((await params).id) ?? notFound());
  return {
    title: `${r.name} series · PokéPrice`,
    description: `The ${r.set_count} sets of the ${r.name} series (${fmtDate(r.first_release_date)} to ${fmtDate(r.last_release_date)}), ${r.card_count} cards.`,
  };
}

export default async function OneSeriesPage({ params }: { params: Promise<{ id: string }> }) {
  const r = await load(segment((await params).id) ?? notFound());
  const sets = await allSets(r.id);
  return (
    <>
      <p className="sub"><Link href="/series">Series</Link></p>
      <h1>{r.name}</h1>
      <p className="sub">{fmtDate(r.first_release_date)} – {fmtDate(r.last_release_date)} · {sets.length} sets · {r.card_count.toLocaleString("en")} cards</p>
      <SetList sets={sets} listKey={`series:${r.id}`} />
      <p><Link href={`/cards?series=${encodeURIComponent(r.id)}`}>Search the cards of this series →</Link></p>
    </>
  );
}
