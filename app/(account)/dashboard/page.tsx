import type { Metadata } from "next";
import { headers } from "next/headers";
import Link from "next/link";
import { redirect } from "next/navigation";
import { listKeys } from "@/lib/accounts/keys";
import { getMe, getUsage } from "@/lib/accounts/me";
import { selectAccountByAuthUser } from "@/lib/accounts/queries/accounts";
import { publicOrigin } from "@/lib/api/context";
import { env } from "@/lib/env";
import { getAuth } from "@/lib/auth";
import { currentRequest } from "../server";
import { Shell } from "../shell";
import { KeysPanel, type KeyRow } from "./keys-panel";
import { DashboardNav } from "./nav";
import { ResendMine } from "./resend-mine";
import { UsageChart, type UsageDay } from "./usage-chart";

export const metadata: Metadata = { title: "Dashboard · PokéPrice API", robots: { index: false, follow: false } };
export const dynamic = "force-dynamic";

type Quota = {
  credits_limit: number | null; credits_used: number; credits_remaining: number | null; renews: boolean;
  resets_at?: string | null; daily_cap?: number | null; daily_used?: number; trial_expires_at?: string | null;
  trial_expired?: boolean; credits_after_confirmation?: number;
};
type Suggestion = { plan: string; monthly_eur: number | null; credits_per_month: number | null; reason: string } | null;
type Warning = { resource: string; message: string };
type BillingWarning = { code: string; message: string; invoice_url: string | null } | null;

const DAY_MS = 86_400_000;
const n = (v: number) => v.toLocaleString("en-US");
const date = (iso: string) => new Date(iso).toLocaleDateString("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
const title = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function Meter({ used, limit, label }: { used: number; limit: number; label: string }) {
  const pct = limit > 0 ? Math.min(100, (used / limit) * 100) : 0;
  return (
    <div className={`meter${pct >= 80 ? " high" : ""}`} role="meter" aria-label={label} aria-valuemin={0} aria-valuemax={limit} aria-valuenow={used}>
      <span style={{ width: `${pct}%` }} />
    </div>
  );
}

/** Every day of the window, the days without calls as zeros. */
function fillDays(from: string, to: string, days: { date: string; credits: number; requests: number; refunds: number }[]): UsageDay[] {
  const byDate = new Map(days.map((d) => [d.date, d]));
  const out: UsageDay[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += DAY_MS) {
    const key = new Date(t).toISOString().slice(0, 10);
    const d = byDate.get(key);
    out.push({ date: key, credits: d?.credits ?? 0, requests: d?.requests ?? 0, refunds: d?.refunds ?? 0 });
  }
  return out;
}

export default async function DashboardPage() {
  // Headers first: the page is dynamic, so `next build` never opens the database for it.
  const h = await headers();
  const session = await (await getAuth()).api.getSession({ headers: h });
  if (!session) redirect("/sign-in");
  const account = await selectAccountByAuthUser(session.user.id);

  const nav = <DashboardNav current="dashboard" />;

  if (!account) {
    return (
      <Shell nav={nav}>
        <section className="panel narrow">
          <h1>No API account</h1>
          <p>
            {session.user.email} has a dashboard sign-in but no API account. <Link href="/sign-up">Create one</Link> with another
            address, or write to support.
          </p>
        </section>
      </Shell>
    );
  }

  const [me, usage, keys, req] = await Promise.all([getMe(account), getUsage(account, { days: 30 }), listKeys(account.id), currentRequest()]);
  const keyRows: KeyRow[] = keys.map((k) => ({
    id: k.id, name: k.name, prefix: k.prefix, createdAt: k.createdAt, lastUsedAt: k.lastUsedAt, expiresAt: k.expiresAt, requests30d: k.requests30d,
  }));
  const d = me.body.data;
  const quota = d.quota as Quota;
  const cards = d.cards as { used: number; limit: number | null };
  const warnings = d.usage_warnings as Warning[];
  const suggestion = d.upgrade_suggestion as Suggestion;
  const billingWarning = d.billing_warning as BillingWarning;
  const u = usage.body.data;
  const days = fillDays(u.from, u.to, u.days);
  const trial = d.plan === "trial";
  const daysLeft = quota.trial_expires_at ? Math.ceil((Date.parse(quota.trial_expires_at) - Date.now()) / DAY_MS) : null;

  return (
    <Shell nav={nav} wide>
      <div className="page-head">
        <div>
          <h1>Dashboard</h1>
          <p className="muted">
            {d.email} · account <code>{d.account_id}</code>
          </p>
        </div>
      </div>

      {!d.email_confirmed && (
        <div className="notice warn banner" role="alert">
          <p>
            <strong>Confirm your email.</strong> Until then the trial has {n(quota.credits_limit ?? 0)} credits and no photo
            identification or centering calls; confirming unlocks {n(quota.credits_after_confirmation ?? 800)} credits.
          </p>
          <ResendMine />
        </div>
      )}
      {billingWarning && (
        <div className="notice warn banner" role="alert" data-testid="billing-warning">
          <p>{billingWarning.message}</p>
          <Link className="button small" href="/dashboard/billing">Open billing</Link>
        </div>
      )}
      {warnings.map((w) => (
        <div key={w.resource} className="notice warn banner" role="status"><p>{w.message}</p></div>
      ))}

      <section className="stats" aria-label="Plan and quota">
        <article className="stat" data-testid="plan">
          <h2>Plan</h2>
          <p className="stat-value">{title(d.plan)}{d.status !== "active" && <span className="tag warn">{d.status}</span>}</p>
          <p className="stat-note">
            {trial
              ? quota.trial_expired
                ? "The trial has ended."
                : quota.trial_expires_at
                  ? `Trial until ${date(quota.trial_expires_at)} (${daysLeft} day${daysLeft === 1 ? "" : "s"} left).`
                  : "Trial."
              : quota.resets_at
                ? `Credits renew on ${date(quota.resets_at)}.`
                : "Paid plan."}
          </p>
          {suggestion && (
            <p className="stat-note suggest">
              {suggestion.reason} Next up: <strong>{title(suggestion.plan)}</strong>
              {suggestion.monthly_eur ? ` at ${suggestion.monthly_eur} EUR a month` : ""}
              {suggestion.credits_per_month ? ` with ${n(suggestion.credits_per_month)} credits` : ""}.{" "}
              {suggestion.plan === "enterprise"
                ? "Enterprise is negotiated per contract, not bought here: ask us for one."
                : <Link href="/dashboard/billing">Upgrade to {title(suggestion.plan)}</Link>}
            </p>
          )}
        </article>

        <article className="stat" data-testid="credits">
          <h2>Credits</h2>
          {quota.credits_limit === null ? (
            <>
              <p className="stat-value">{n(quota.credits_used)}</p>
              <p className="stat-note">used this period; no period limit.</p>
            </>
          ) : (
            <>
              <p className="stat-value">{n(quota.credits_remaining ?? 0)} <span className="of">left of {n(quota.credits_limit)}</span></p>
              <Meter used={quota.credits_used} limit={quota.credits_limit} label="Credits used" />
              <p className="stat-note">
                {n(quota.credits_used)} used{quota.renews ? " this period" : trial ? " (the trial's credits do not renew)" : ""}.
              </p>
            </>
          )}
          {quota.daily_cap ? (
            <p className="stat-note">Today: {n(quota.daily_used ?? 0)} of {n(quota.daily_cap)} (resets at midnight UTC).</p>
          ) : null}
        </article>

        <article className="stat" data-testid="cards">
          <h2>Distinct cards</h2>
          {cards.limit === null ? (
            <>
              <p className="stat-value">{n(cards.used)}</p>
              <p className="stat-note">retrieved; no allowance on this plan.</p>
            </>
          ) : (
            <>
              <p className="stat-value">{n(cards.used)} <span className="of">of {n(cards.limit)}</span></p>
              <Meter used={cards.used} limit={cards.limit} label="Distinct cards retrieved" />
              <p className="stat-note">{trial ? "for the whole trial." : "this period."}</p>
            </>
          )}
        </article>

        <article className="stat" data-testid="limits">
          <h2>Rate limits</h2>
          <dl className="limits">
            <div><dt>Per second</dt><dd>{d.limits.requests_per_second}</dd></div>
            <div><dt>Burst</dt><dd>{d.limits.burst}</dd></div>
            {d.limits.requests_per_minute ? <div><dt>Per minute</dt><dd>{d.limits.requests_per_minute}</dd></div> : null}
            <div><dt>In flight</dt><dd>{d.limits.in_flight}</dd></div>
          </dl>
        </article>
      </section>

      <section className="panel" aria-labelledby="usage-h">
        <div className="panel-head">
          <h2 id="usage-h">Usage, last 30 days</h2>
          <p className="totals">
            <span><strong>{n(u.totals.requests)}</strong> requests</span>
            <span><strong>{n(u.totals.credits)}</strong> credits</span>
            <span><strong>{n(u.totals.refunds)}</strong> refunded</span>
          </p>
          <p className="small panel-links">
            <Link href="/dashboard/usage">By route, key or status</Link> · <Link href="/dashboard/requests">Every request</Link>
          </p>
        </div>
        <UsageChart days={days} />
        {u.routes.length > 0 && (
          <details className="routes">
            <summary>By route</summary>
            <div className="table-scroll">
              <table className="table">
                <thead><tr><th>Route</th><th className="num">Requests</th><th className="num">Credits</th><th className="num">Refunded</th></tr></thead>
                <tbody>
                  {u.routes.slice(0, 20).map((r) => (
                    <tr key={r.route}><td><code>{r.route}</code></td><td className="num">{n(r.requests)}</td><td className="num">{n(r.credits)}</td><td className="num">{n(r.refunds)}</td></tr>
                  ))}
                </tbody>
              </table>
            </div>
          </details>
        )}
      </section>

      <section className="panel" aria-labelledby="keys-h">
        <div className="panel-head">
          <h2 id="keys-h">API keys</h2>
          <p className="muted small">Send a key as <code>X-Api-Key</code> or <code>Authorization: Bearer</code>.</p>
        </div>
        <KeysPanel keys={keyRows} origin={publicOrigin(req)} fixedOrigin={Boolean(env().PUBLIC_BASE_URL)} now={Date.now()} />
      </section>
    </Shell>
  );
}
