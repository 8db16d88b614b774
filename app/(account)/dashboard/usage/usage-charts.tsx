"use client";

import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { n, type Analytics, type Sums } from "../format";
import { RouteText } from "../route-label";

// The usage page's charts: per bucket, credits charged and requests, each stacked by the chosen
// group; refunded calls apart, in their own chart (they cost nothing and are not in a stack).
// Buckets without calls are drawn as zeros.

const PALETTE = ["#d6372b", "#1f6feb", "#1f8a3f", "#c98a00", "#7b3fc4", "#0f8b8d", "#8c95a3"];
const REFUND = "#8c95a3";
const GRID = "#e3e6ea";
const MUTED = "#5b6270";
const TOP = 6;
const HOUR = 3_600_000;
const DAY = 86_400_000;

type Slice = { key: string; label: string; color: string };
type Row = Record<string, number | string> & { start: string };

const ZERO: Sums = { requests: 0, credits: 0, refunds: 0, cards_added: 0 };

function tick(granularity: "hour" | "day") {
  return (iso: string) => {
    const d = new Date(iso);
    return granularity === "hour"
      ? d.toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit", hour12: false, timeZone: "UTC" })
      : d.toLocaleDateString("en-GB", { day: "numeric", month: "short", timeZone: "UTC" });
  };
}

function label(granularity: "hour" | "day") {
  return (iso: string) => {
    const d = new Date(iso);
    const date = d.toLocaleDateString("en-GB", { weekday: "short", day: "numeric", month: "short", timeZone: "UTC" });
    return granularity === "hour" ? `${date}, ${tick("hour")(iso)} UTC` : `${date} (UTC)`;
  };
}

// Statuses keep their class's colour (2xx green, 3xx slate, 4xx amber, 5xx red), a shade per code.
const STATUS_SHADES: Record<string, string[]> = {
  "2": ["#1f8a3f", "#5cb878", "#0f5c28"], "3": ["#5b6270", "#8c95a3"], "4": ["#c98a00", "#e0b040", "#8a5d00", "#f0d080"], "5": ["#a8261d", "#d6372b", "#e8847c"],
};
function statusColor(group: string, nth: Map<string, number>): string {
  const shades = STATUS_SHADES[group[0] ?? ""] ?? [PALETTE[TOP]!];
  const i = nth.get(group[0] ?? "") ?? 0;
  nth.set(group[0] ?? "", i + 1);
  return shades[i % shades.length]!;
}

/** The biggest groups by name; the rest summed as one. */
function slices(a: Analytics): { shown: Slice[]; slot: Map<string, string> } {
  const ranked = [...a.groups].sort((x, y) => y.credits - x.credits || y.requests - x.requests || x.label.localeCompare(y.label));
  const keep = ranked.length > TOP + 1 ? ranked.slice(0, TOP) : ranked;
  const nth = new Map<string, number>();
  const shown: Slice[] = keep.map((g, i) => ({
    key: `g${i}`, label: g.label || g.group || "—", color: a.group_by === "status" ? statusColor(g.group, nth) : PALETTE[i % PALETTE.length]!,
  }));
  const slot = new Map(keep.map((g, i) => [g.group, `g${i}`]));
  if (ranked.length > keep.length) shown.push({ key: "other", label: `${ranked.length - keep.length} others`, color: PALETTE[TOP]! });
  return { shown, slot };
}

/** Every bucket of the window up to now, in the API's order and shape. */
function buckets(a: Analytics): { start: string; sums: Sums; groups?: Record<string, Sums> }[] {
  const step = a.granularity === "hour" ? HOUR : DAY;
  const byStart = new Map(a.series.map((s) => [Date.parse(s.start), s]));
  const from = Date.parse(a.from);
  const end = Math.min(Date.parse(a.to), Date.now());
  const out: ReturnType<typeof buckets> = [];
  // Aligned to the API's first bucket when there is one, else to the window's start.
  const first = a.series.length ? Math.min(...a.series.map((s) => Date.parse(s.start))) : from;
  let t = first - Math.ceil((first - from) / step) * step;
  for (let i = 0; t < end && i < 2000; t += step, i++) {
    const s = byStart.get(t);
    out.push({ start: new Date(t).toISOString(), sums: s ?? ZERO, groups: s?.groups });
  }
  // A bucket the API returned outside the grid (it should not happen) is still drawn.
  for (const s of a.series) if (!out.some((o) => Date.parse(o.start) === Date.parse(s.start))) out.push({ start: s.start, sums: s, groups: s.groups });
  return out.sort((x, y) => x.start.localeCompare(y.start));
}

function rows(a: Analytics, slot: Map<string, string>, shown: Slice[]): { credits: Row[]; requests: Row[] } {
  const credits: Row[] = [];
  const requests: Row[] = [];
  for (const b of buckets(a)) {
    const c: Row = { start: b.start };
    const r: Row = { start: b.start, refunded: b.sums.refunds };
    for (const s of shown) c[s.key] = r[s.key] = 0;
    if (b.groups && shown.length) {
      for (const [g, v] of Object.entries(b.groups)) {
        const k = slot.get(g) ?? "other";
        c[k] = (c[k] as number ?? 0) + v.credits;
        r[k] = (r[k] as number ?? 0) + v.requests - v.refunds;
      }
    } else {
      c.all = b.sums.credits;
      r.all = b.sums.requests - b.sums.refunds;
    }
    credits.push(c);
    requests.push(r);
  }
  return { credits, requests };
}

function Stacked({ data, series, granularity, height, unit, testId, empty }: {
  data: Row[]; series: Slice[]; granularity: "hour" | "day"; height: number; unit: string; testId: string; empty?: string;
}) {
  return (
    <div className="usage-chart" data-testid={testId} style={{ minHeight: height }}>
      <ResponsiveContainer width="100%" height={height} initialDimension={{ width: 720, height }}>
        <BarChart data={data} margin={{ top: 8, right: 4, bottom: 0, left: -12 }} barCategoryGap="18%">
          <CartesianGrid stroke={GRID} vertical={false} />
          <XAxis dataKey="start" tickFormatter={tick(granularity)} tick={{ fill: MUTED, fontSize: 12 }} tickLine={false}
            axisLine={{ stroke: GRID }} minTickGap={16} />
          <YAxis allowDecimals={false} tick={{ fill: MUTED, fontSize: 12 }} tickLine={false} axisLine={false} width={44} />
          <Tooltip labelFormatter={(l) => label(granularity)(String(l))} formatter={(v, name) => [`${n(Number(v))} ${unit}`, name]}
            cursor={{ fill: "rgba(20, 22, 26, 0.05)" }} contentStyle={{ borderRadius: 8, borderColor: GRID, fontSize: 13 }} />
          {series.map((s) => (
            <Bar key={s.key} dataKey={s.key} name={s.label} stackId={s.key === "refunded" ? "refunded" : "calls"} fill={s.color}
              maxBarSize={22} isAnimationActive={false} />
          ))}
        </BarChart>
      </ResponsiveContainer>
      {empty && <p className="chart-empty muted">{empty}</p>}
    </div>
  );
}

function Legend({ series }: { series: Slice[] }) {
  return (
    <ul className="chart-legend">
      {series.map((s) => (
        <li key={s.key}><span className="swatch" style={{ background: s.color }} aria-hidden="true" />{s.label}</li>
      ))}
    </ul>
  );
}

export function UsageCharts({ analytics: a }: { analytics: Analytics }) {
  const grouped = a.group_by !== null && a.groups.length > 0;
  const { shown, slot } = grouped ? slices(a) : { shown: [] as Slice[], slot: new Map<string, string>() };
  const series = grouped ? shown : [{ key: "all", label: "All", color: PALETTE[0]! }];
  const data = rows(a, slot, shown);
  const empty = a.totals.requests === 0;
  const refundSeries: Slice = { key: "refunded", label: "Refunded calls", color: REFUND };
  const by = a.group_by ?? "route";

  return (
    <>
      <section className="panel chart-panel" aria-labelledby="credits-h">
        <div className="panel-head">
          <h2 id="credits-h">Credits charged per {a.granularity}</h2>
          <p className="muted small">by {by}; refunded calls cost nothing and are not here</p>
        </div>
        <Stacked data={data.credits} series={series} granularity={a.granularity} height={240} unit="credits" testId="credits-chart"
          empty={empty ? "No calls in this window." : a.totals.credits === 0 ? "No credits charged in this window." : undefined} />
        {grouped && <Legend series={series} />}
      </section>

      <section className="panel chart-panel" aria-labelledby="requests-h">
        <div className="panel-head">
          <h2 id="requests-h">Requests per {a.granularity}</h2>
          <p className="muted small">by {by}, refunded calls apart (grey)</p>
        </div>
        <Stacked data={data.requests} series={[...series, refundSeries]} granularity={a.granularity} height={240} unit="requests" testId="requests-chart"
          empty={empty ? "No calls in this window." : undefined} />
        <Legend series={[...(grouped ? series : []), refundSeries]} />
      </section>

      {grouped && (
        <section className="panel chart-panel" aria-labelledby="groups-h">
          <div className="panel-head"><h2 id="groups-h">By {by}</h2></div>
          <div className="table-scroll">
            <table className="table usage-groups" data-testid="usage-groups">
              <thead>
                <tr>
                  <th>{by === "route" ? "Route" : by === "key" ? "Key" : "Status"}</th>
                  <th className="num">Requests</th><th className="num">Credits</th><th className="num">Refunded</th><th className="num col-cards">Cards</th>
                </tr>
              </thead>
              <tbody>
                {a.groups.map((g) => (
                  <tr key={g.group}>
                    <td><span className="swatch" style={{ background: shown.find((s) => s.key === slot.get(g.group))?.color ?? PALETTE[TOP] }} aria-hidden="true" />
                      {by === "route" ? <code><RouteText text={g.label} /></code> : g.label || g.group}</td>
                    <td className="num">{n(g.requests)}</td><td className="num">{n(g.credits)}</td>
                    <td className="num">{n(g.refunds)}</td><td className="num col-cards">{n(g.cards_added)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      )}
    </>
  );
}
