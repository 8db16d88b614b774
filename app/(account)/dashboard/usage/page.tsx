import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { getUsage } from "@/lib/accounts/me";
import { GROUPS, RANGES, UsageQuery } from "@/lib/usage/schemas";
import { Shell } from "../../shell";
import { signedIn } from "../../server";
import { first, n, when, type Analytics } from "../format";
import { DashboardNav } from "../nav";
import { UsageCharts } from "./usage-charts";

export const metadata: Metadata = { title: "Usage · PokéPrice API", robots: { index: false, follow: false } };
export const dynamic = "force-dynamic";

type Range = (typeof RANGES)[number];
type Group = (typeof GROUPS)[number];
type Props = { searchParams: Promise<{ range?: string | string[]; group_by?: string | string[] }> };

const RANGE_LABEL: Record<Range, string> = { "24h": "24 hours", "7d": "7 days", "30d": "30 days", period: "This period" };
const GROUP_LABEL: Record<Group, string> = { route: "Route", key: "Key", status: "Status" };

const pick = <T extends string>(v: string | undefined, options: readonly T[], fallback: T): T =>
  options.includes(v as T) ? (v as T) : fallback;

// The owner's usage: credits and requests per hour or day of a window, split by route, key or
// status, from the request log's hourly sums. The window and the split are the URL's, so a view
// is a link; every choice is a plain link and the page renders on the server.
export default async function UsagePage({ searchParams }: Props) {
  const me = await signedIn();
  if (!me) redirect("/sign-in");
  const nav = <DashboardNav current="usage" />;
  if (!me.account) {
    return (
      <Shell nav={nav}>
        <section className="panel narrow"><h1>No API account</h1><p>{me.email} has no API account yet.</p></section>
      </Shell>
    );
  }
  const sp = await searchParams;
  const range = pick(first(sp.range), RANGES, "30d");
  const groupBy = pick(first(sp.group_by), GROUPS, "route");
  const usage = await getUsage(me.account, UsageQuery.parse({ range, group_by: groupBy }));
  const a: Analytics = usage.body.data.analytics;
  const href = (r: Range, g: Group) => `/dashboard/usage?range=${r}&group_by=${g}`;
  const cards = a.cards;
  const cardsPct = cards.limit ? Math.min(100, (cards.used / cards.limit) * 100) : 0;

  return (
    <Shell nav={nav} wide>
      <div className="page-head">
        <div>
          <h1>Usage</h1>
          <p className="muted" data-testid="usage-window">
            {when(a.from, false)} to {when(a.to, false)} UTC, per {a.granularity}.
          </p>
        </div>
      </div>

      <div className="usage-controls">
        <nav className="segmented" aria-label="Time range">
          {RANGES.map((r) => (
            <Link key={r} href={href(r, groupBy)} scroll={false} aria-current={r === range ? "page" : undefined}>{RANGE_LABEL[r]}</Link>
          ))}
        </nav>
        <nav className="segmented" aria-label="Group by">
          <span className="segmented-label">By</span>
          {GROUPS.map((g) => (
            <Link key={g} href={href(range, g)} scroll={false} aria-current={g === groupBy ? "page" : undefined}>{GROUP_LABEL[g]}</Link>
          ))}
        </nav>
      </div>

      <section className="stats usage-totals" aria-label="Totals" data-testid="usage-totals">
        <article className="stat">
          <h2>Requests</h2>
          <p className="stat-value" data-testid="total-requests">{n(a.totals.requests)}</p>
          <p className="stat-note">refused calls included.</p>
        </article>
        <article className="stat">
          <h2>Credits charged</h2>
          <p className="stat-value" data-testid="total-credits">{n(a.totals.credits)}</p>
          <p className="stat-note">what the calls finally cost.</p>
        </article>
        <article className="stat">
          <h2>Refunded calls</h2>
          <p className="stat-value" data-testid="total-refunds">{n(a.totals.refunds)}</p>
          <p className="stat-note">error answers and 304s: given back, never charged.</p>
        </article>
        <article className="stat" data-testid="usage-cards">
          <h2>Distinct cards</h2>
          {cards.limit === null ? (
            <>
              <p className="stat-value">{n(cards.used)}</p>
              <p className="stat-note">this period; no allowance on this plan. {n(a.totals.cards_added)} added in this window.</p>
            </>
          ) : (
            <>
              <p className="stat-value">{n(cards.used)} <span className="of">of {n(cards.limit)}</span></p>
              <div className={`meter${cardsPct >= 80 ? " high" : ""}`} role="meter" aria-label="Distinct cards of the allowance"
                aria-valuemin={0} aria-valuemax={cards.limit} aria-valuenow={cards.used}>
                <span style={{ width: `${cardsPct}%` }} />
              </div>
              <p className="stat-note">the allowance&apos;s use this period; {n(a.totals.cards_added)} added in this window.</p>
            </>
          )}
        </article>
      </section>

      <UsageCharts analytics={a} />
    </Shell>
  );
}
