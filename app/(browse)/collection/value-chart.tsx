"use client";

import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

// The collection's value per day (today's quantities at each day's index). Over demo figures
// its title and tooltip say "(demo data)".

const ACCENT = "#d6372b";
const GRID = "#e3e6ea";
const MUTED = "#5b6270";

const short = (date: string) =>
  new Date(`${date}T00:00:00Z`).toLocaleDateString("en-GB", { day: "numeric", month: "short", year: "2-digit", timeZone: "UTC" });
const eur = (v: number) => v.toLocaleString("en", { style: "currency", currency: "EUR" });

export function ValueChart({ points, demo = false }: { points: { date: string; eur: number }[]; demo?: boolean }) {
  if (!points.length) return <p className="muted" data-testid="value-chart-empty">No price history for these cards in this window yet.</p>;
  const series = demo ? "Collection value (demo data)" : "Collection value";
  return (
    <div className="price-chart" data-testid="value-chart" role="img"
      aria-label={`${series} in EUR from ${points[0]!.date} to ${points.at(-1)!.date}: ${eur(points[0]!.eur)} to ${eur(points.at(-1)!.eur)}`}>
      <p className="chart-title"><span className="chart-key" style={{ background: ACCENT }} /> {series}, EUR</p>
      <ResponsiveContainer width="100%" height={260} initialDimension={{ width: 900, height: 260 }}>
        <LineChart data={points} margin={{ top: 8, right: 8, bottom: 0, left: 8 }}>
          <CartesianGrid stroke={GRID} vertical={false} />
          <XAxis dataKey="date" tickFormatter={short} tick={{ fill: MUTED, fontSize: 12 }} tickLine={false} axisLine={{ stroke: GRID }} minTickGap={28} />
          <YAxis tickFormatter={(v: number) => eur(v)} tick={{ fill: MUTED, fontSize: 12 }} tickLine={false} axisLine={false} width={80} domain={["auto", "auto"]} />
          <Tooltip labelFormatter={(l) => short(String(l))} formatter={(v) => [eur(Number(v)), series]} contentStyle={{ borderRadius: 8, borderColor: GRID, fontSize: 13 }} />
          <Line dataKey="eur" name={series} type="monotone" stroke={ACCENT} strokeWidth={2} dot={false} isAnimationActive={false} />
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
