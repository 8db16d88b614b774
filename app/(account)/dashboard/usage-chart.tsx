"use client";

import { Bar, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

// Credits (bars) and requests (line) per UTC day over the last 30 days.

export type UsageDay = { date: string; credits: number; requests: number; refunds: number };

const ACCENT = "#d6372b";
const INK = "#14161a";
const GRID = "#e3e6ea";
const MUTED = "#5b6270";

const short = (date: string) => {
  const d = new Date(`${date}T00:00:00Z`);
  return d.toLocaleDateString("en-GB", { day: "numeric", month: "short", timeZone: "UTC" });
};

export function UsageChart({ days }: { days: UsageDay[] }) {
  const empty = days.every((d) => d.requests === 0 && d.credits === 0);
  return (
    <div className="usage-chart" data-testid="usage-chart" role="img"
      aria-label={`Credits and requests per day, ${days[0]?.date ?? ""} to ${days.at(-1)?.date ?? ""}`}>
      <ResponsiveContainer width="100%" height={260} initialDimension={{ width: 720, height: 260 }}>
        <ComposedChart data={days} margin={{ top: 8, right: 8, bottom: 0, left: -8 }}>
          <CartesianGrid stroke={GRID} vertical={false} />
          <XAxis dataKey="date" tickFormatter={short} tick={{ fill: MUTED, fontSize: 12 }} tickLine={false}
            axisLine={{ stroke: GRID }} minTickGap={18} />
          <YAxis yAxisId="credits" allowDecimals={false} tick={{ fill: MUTED, fontSize: 12 }} tickLine={false} axisLine={false} width={48} />
          <YAxis yAxisId="requests" orientation="right" allowDecimals={false} tick={{ fill: MUTED, fontSize: 12 }} tickLine={false}
            axisLine={false} width={48} />
          <Tooltip labelFormatter={(label) => short(String(label))} cursor={{ fill: "rgba(20, 22, 26, 0.05)" }}
            contentStyle={{ borderRadius: 8, borderColor: GRID, fontSize: 13 }} />
          <Legend verticalAlign="top" align="right" height={28} iconType="circle" wrapperStyle={{ fontSize: 13 }} />
          <Bar yAxisId="credits" dataKey="credits" name="Credits" fill={ACCENT} radius={[3, 3, 0, 0]} maxBarSize={18} isAnimationActive={false} />
          <Line yAxisId="requests" dataKey="requests" name="Requests" type="linear" stroke={INK} strokeWidth={2} dot={false} activeDot={{ r: 4 }}
            isAnimationActive={false} />
        </ComposedChart>
      </ResponsiveContainer>
      {empty && <p className="chart-empty muted">No calls in the last 30 days yet.</p>}
    </div>
  );
}
