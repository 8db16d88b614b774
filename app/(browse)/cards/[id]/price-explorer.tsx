"use client";

import { keepPreviousData, QueryClient, QueryClientProvider, useQuery } from "@tanstack/react-query";
import { useState, type MouseEvent } from "react";
import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { trend } from "@/lib/prices/labels";
import { RANGES, type ChartData, type Range } from "./explorer-types";

// The price explorer's range-dependent part: the range links, the index's low/high and change,
// the chart (the composite index and one line per source, all in EUR) and its table. Served
// rendered for the page's range; with JavaScript a range link fetches the route handler's JSON
// through TanStack Query instead of loading the page again. Without JavaScript the links load
// the page, and the table below the chart carries the same figures as the chart.
// Demo figures say "(demo data)" in the facts, the chart's title, legend and tooltip.

const COLORS: Record<string, string> = {
  INDEX: "#d6372b", CARDMARKET: "#1f5fbf", TCGPLAYER: "#7a3fc4", EBAY: "#8a6100", PRICECHARTING: "#1a7f37", SNKRDUNK: "#0a6f7f", COMMUNITY: "#5b6270",
};
const DASH: Record<string, string | undefined> = { CARDMARKET: "6 3", TCGPLAYER: "2 3", EBAY: "8 3 2 3", PRICECHARTING: "4 4", SNKRDUNK: "1 2", COMMUNITY: "10 4" };
const GRID = "#e3e6ea";
const MUTED = "#5b6270";
const RANGE_TEXT: Record<Range, string> = { "7d": "7d", "30d": "30d", "90d": "90d", "1y": "1y", all: "all" };

const short = (date: string) =>
  new Date(`${date}T00:00:00Z`).toLocaleDateString("en-GB", { day: "numeric", month: "short", year: "2-digit", timeZone: "UTC" });
const eur = (v: number | null | undefined) => (v == null ? "–" : v.toLocaleString("en", { style: "currency", currency: "EUR" }));
const pct = (v: number | null | undefined) => (v == null ? "–" : `${v > 0 ? "+" : v < 0 ? "−" : ""}${Math.abs(v).toFixed(1)} %`);

type Props = { initial: ChartData; basePath: string; pending?: string };

export function PriceExplorer(props: Props) {
  const [client] = useState(() => new QueryClient({ defaultOptions: { queries: { staleTime: 300_000, retry: 1 } } }));
  return (
    <QueryClientProvider client={client}>
      <Explorer {...props} />
    </QueryClientProvider>
  );
}

function hrefOf(basePath: string, range: Range, printing: string | null) {
  const u = new URLSearchParams({ window: range });
  if (printing) u.set("printing", printing);
  return `${basePath}?${u}`;
}

function Explorer({ initial, basePath, pending }: Props) {
  const [range, setRange] = useState<Range>(initial.range);
  const printing = initial.chosenPrinting;
  const q = useQuery<ChartData>({
    queryKey: ["price-explorer", basePath, range, printing],
    queryFn: async ({ signal }) => {
      const u = new URLSearchParams({ window: range });
      if (printing) u.set("printing", printing);
      const res = await fetch(`${basePath}/chart?${u}`, { signal, headers: { accept: "application/json" } });
      if (!res.ok) throw new Error(`The chart could not be loaded (${res.status}).`);
      return res.json() as Promise<ChartData>;
    },
    initialData: range === initial.range ? initial : undefined,
    placeholderData: keepPreviousData,
  });
  const data = q.data ?? initial;
  const loading = q.isFetching && data.range !== range;

  const choose = (r: Range) => (e: MouseEvent<HTMLAnchorElement>) => {
    if (e.metaKey || e.ctrlKey || e.shiftKey || e.altKey || e.button !== 0) return;
    e.preventDefault();
    setRange(r);
    window.history.replaceState(null, "", hrefOf(basePath, r, printing));
  };

  const tag = data.index.demo ? " (demo data)" : "";
  // A figure's box says only that it is coming; the sentence below the boxes says how far along.
  const none = pending ? "being prepared" : "–";
  const indexLine = data.lines.find((l) => l.key === "INDEX");
  const title = `Composite index${indexLine?.demo ? " (demo data)" : ""}`;
  return (
    <section className="explorer" aria-labelledby="history-heading" aria-busy={loading}>
      <h2 id="history-heading">Price history</h2>
      <nav className="windows" aria-label="Range">
        {RANGES.map((r) => (
          <a key={r} href={hrefOf(basePath, r, printing)} onClick={choose(r)} aria-current={r === range ? "page" : undefined}>{RANGE_TEXT[r]}</a>
        ))}
      </nav>
      <div className="facts">
        <div className="fact"><div className="k">Low / high ({data.range}){tag}</div>
          <div className="v">{data.index.low == null && data.index.high == null ? none : `${eur(data.index.low)} / ${eur(data.index.high)}`}</div></div>
        <div className="fact"><div className="k">Change ({data.range}){tag}</div>
          <div className={`v${trend(data.index.change_pct)}`}>{data.index.change_pct == null ? none : pct(data.index.change_pct)}</div></div>
      </div>
      {q.isError && <p className="error-note" role="alert">{(q.error as Error).message}</p>}
      {loading && <p className="muted" role="status">Loading {RANGE_TEXT[range]}…</p>}
      {!data.rows.length
        ? <p className="muted">{pending ? `${pending}.` : "No price history for this range yet."}</p>
        : <Chart data={data} title={title} />}
    </section>
  );
}

function Chart({ data, title }: { data: ChartData; title: string }) {
  const others = data.lines.filter((l) => l.key !== "INDEX");
  const labelOf = new Map(data.lines.map((l) => [l.key, l.label]));
  return (
    <>
      <div className="price-chart" data-testid="price-chart" role="img"
        aria-label={`${title} in EUR${others.length ? ` and ${others.length} source${others.length === 1 ? "" : "s"} converted to EUR` : ""} from ${data.rows[0]!.date} to ${String(data.rows.at(-1)!.date)}`}>
        <p className="chart-title" data-testid="price-chart-title">
          <span className="chart-key" style={{ background: COLORS.INDEX }} /> {title}, EUR
        </p>
        <ul className="chart-legend" data-testid="chart-legend">
          {data.lines.map((l) => (
            <li key={l.key} data-source={l.source}>
              <svg width="22" height="8" aria-hidden="true"><line x1="0" y1="4" x2="22" y2="4" stroke={COLORS[l.key] ?? MUTED} strokeWidth={l.key === "INDEX" ? 3 : 2} strokeDasharray={DASH[l.key]} /></svg>
              {l.label}{l.key !== "INDEX" && l.currency !== "EUR" ? ` (${l.currency} in EUR)` : ""}
            </li>
          ))}
        </ul>
        <ResponsiveContainer width="100%" height={280} initialDimension={{ width: 900, height: 280 }}>
          <LineChart data={data.rows} margin={{ top: 8, right: 8, bottom: 0, left: 8 }}>
            <CartesianGrid stroke={GRID} vertical={false} />
            <XAxis dataKey="date" tickFormatter={short} tick={{ fill: MUTED, fontSize: 12 }} tickLine={false} axisLine={{ stroke: GRID }} minTickGap={28} />
            <YAxis tickFormatter={(v: number) => eur(v)} tick={{ fill: MUTED, fontSize: 12 }} tickLine={false} axisLine={false} width={76} domain={["auto", "auto"]} />
            <Tooltip labelFormatter={(l) => short(String(l))} formatter={(v, name) => [eur(Number(v)), labelOf.get(String(name)) ?? String(name)]}
              contentStyle={{ borderRadius: 8, borderColor: GRID, fontSize: 13 }} />
            {data.lines.map((l) => (
              <Line key={l.key} dataKey={l.key} name={l.key} type="monotone" stroke={COLORS[l.key] ?? MUTED} strokeWidth={l.key === "INDEX" ? 3 : 1.5}
                strokeDasharray={DASH[l.key]} dot={false} connectNulls isAnimationActive={false} />
            ))}
          </LineChart>
        </ResponsiveContainer>
      </div>
      <table className="quotes chart-table" data-testid="chart-table">
        <caption>The chart&apos;s figures, {short(data.from)} to {short(data.to)}{data.interval === "week" ? " (weekly means)" : ""}, in EUR</caption>
        <thead>
          <tr><th scope="col">Line</th><th scope="col" className="num">First</th><th scope="col" className="num">Last</th><th scope="col" className="num opt">Low</th><th scope="col" className="num opt">High</th><th scope="col" className="num">Change</th></tr>
        </thead>
        <tbody>
          {data.summary.map((s) => (
            <tr key={s.key}>
              <th scope="row">{labelOf.get(s.key)}</th>
              <td className="num">{eur(s.first)}</td><td className="num">{eur(s.last)}</td>
              <td className="num opt">{eur(s.low)}</td><td className="num opt">{eur(s.high)}</td>
              <td className={`num${trend(s.change_pct)}`}>{pct(s.change_pct)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
