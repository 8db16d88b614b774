import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import Stripe from "stripe";
import { ApiError } from "@/lib/api/errors";
import type { Account } from "@/lib/accounts/types";
import { SALES_STEP } from "@/lib/meter/refusals";
import { listInvoices, type InvoiceRow } from "@/lib/billing/manage";
import { PAID_PLANS } from "@/lib/billing/prices";
import { billingSummary } from "@/lib/billing/summary";
import { PLANS } from "@/lib/meter/plans";
import { signedIn } from "../../server";
import { Shell } from "../../shell";
import { DashboardNav } from "../nav";
import { CheckoutReturn } from "./checkout-return";
import { PlanPicker, type Offer } from "./plan-picker";
import { PortalButton, SubscriptionActions } from "./subscription-actions";
import { day, euros, intervalName, money, planName, type BillingState, type Interval } from "./view";

export const metadata: Metadata = { title: "Billing · PokéPrice API", robots: { index: false, follow: false } };
export const dynamic = "force-dynamic";

type Props = { searchParams: Promise<{ checkout?: string | string[]; invoices_after?: string | string[] }> };
type Summary = Awaited<ReturnType<typeof billingSummary>>;

const DAY_MS = 86_400_000;
const INVOICES_PER_PAGE = 12;
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

const BLURBS: Record<(typeof PAID_PLANS)[number], string> = {
  developer: "For a side project, a shop's price list or a bot.",
  growth: "Adds photo identification, price movers and centering.",
  professional: "For busy apps and marketplaces' price feeds.",
};

/** What Stripe or our billing said when a read failed, as a sentence; other faults are not ours to hide. */
function readable(err: unknown): string {
  if (err instanceof ApiError) return err.message;
  if (err instanceof Stripe.errors.StripeError) return `Stripe answered: ${err.message}`;
  throw err;
}

async function attempt<T>(read: () => Promise<T>): Promise<{ ok: true; value: T } | { ok: false; error: string }> {
  try {
    return { ok: true, value: await read() };
  } catch (err) {
    return { ok: false, error: readable(err) };
  }
}

/** The summary's fields from the account alone, when Stripe could not be asked. */
function fromAccount(a: Account): Summary {
  return {
    plan: a.plan, interval: a.billingInterval, status: a.status, standing: a.status === "past_due" ? "grace" : a.status === "active" ? "ok" : a.status,
    current_period_end: a.plan === "trial" ? null : a.periodEnd, credits_reset_at: null, cancel_at_period_end: false, scheduled_change: null,
    grace_ends_at: null, open_invoice_url: a.openInvoiceUrl, trial_expires_at: a.plan === "trial" ? a.trialExpiresAt : null,
    payment_method: null, next_invoice: null,
  };
}

export default async function BillingPage({ searchParams }: Props) {
  // The session first (it reads the request's headers): the page is dynamic, never prerendered.
  const who = await signedIn();
  if (!who) redirect("/sign-in");
  const account = who.account;
  const nav = <DashboardNav current="billing" />;

  if (!account) {
    return (
      <Shell nav={nav}>
        <section className="panel narrow">
          <h1>No API account</h1>
          <p>{who.email} has a dashboard sign-in but no API account, so there is nothing to bill. <Link href="/sign-up">Create one</Link> with another address.</p>
        </section>
      </Shell>
    );
  }

  const sp = await searchParams;
  const checkout = one(sp.checkout);
  const after = one(sp.invoices_after);
  const cursor = after && /^in_[A-Za-z0-9_]{1,100}$/.test(after) ? after : undefined;
  const [summaryRead, invoicesRead] = await Promise.all([
    attempt(() => billingSummary(account)),
    attempt(() => listInvoices(account, INVOICES_PER_PAGE, cursor)),
  ]);
  const s = summaryRead.ok ? summaryRead.value : fromAccount(account);
  const interval = s.interval === "month" || s.interval === "year" ? (s.interval as Interval) : null;

  const state: BillingState = {
    plan: s.plan, interval, status: s.status, cancelAtPeriodEnd: s.cancel_at_period_end,
    scheduled: s.scheduled_change ? { plan: s.scheduled_change.plan, interval: s.scheduled_change.interval } : null,
  };
  const trial = s.plan === "trial";
  const negotiated = !trial && !interval && s.status !== "canceled";
  const live = !trial && interval !== null && s.status !== "canceled";
  const mode = negotiated ? "negotiated" : !live ? "subscribe" : s.cancel_at_period_end ? "locked" : "change";
  const price = (plan: string, iv: Interval | null) => {
    const monthly = PLANS[plan as keyof typeof PLANS]?.monthlyEur;
    return monthly && iv ? (iv === "year" ? `${euros(monthly * 10)} a year` : `${euros(monthly)} a month`) : null;
  };
  const offers: Offer[] = PAID_PLANS.map((p) => ({
    plan: p, monthlyEur: PLANS[p].monthlyEur!, credits: PLANS[p].credits!, rate: PLANS[p].rate, cards: PLANS[p].cards, blurb: BLURBS[p],
  }));
  const trialEnds = s.trial_expires_at ? Date.parse(s.trial_expires_at) : null;
  const trialDays = trialEnds ? Math.ceil((trialEnds - Date.now()) / DAY_MS) : null;
  const trialOver = trialDays !== null && trialDays <= 0;
  const payLink = s.open_invoice_url ? <a className="button small" href={s.open_invoice_url}>Pay the invoice</a> : null;

  return (
    <Shell nav={nav} wide>
      <div className="page-head">
        <div>
          <h1>Billing</h1>
          <p className="muted">{account.email} · account <code>{account.id}</code></p>
        </div>
      </div>

      {checkout === "success" && <CheckoutReturn landed={live} plan={`${planName(s.plan)}${interval ? ` (${intervalName(interval)})` : ""}`} />}
      {checkout === "canceled" && (
        <div className="notice banner" role="status"><p>Checkout was canceled: nothing was charged. Pick a plan whenever you are ready.</p></div>
      )}
      {!summaryRead.ok && (
        <div className="notice error banner" role="alert">
          <p><strong>The subscription could not be read.</strong> {summaryRead.error} The plan below is the one our records hold.</p>
        </div>
      )}

      {s.standing === "grace" && (
        <div className="notice warn banner" role="alert" data-testid="billing-standing">
          <p>
            <strong>The last payment failed.</strong> The API keeps answering
            {s.grace_ends_at ? ` until ${day(s.grace_ends_at)}` : " for a few days"}; then the account is suspended. Pay the open
            invoice, or change the card and Stripe tries again.
          </p>
          {payLink}
        </div>
      )}
      {s.standing === "suspended" && (
        <div className="notice error banner" role="alert" data-testid="billing-standing">
          <p><strong>The account is suspended</strong> for an unpaid invoice: calls that cost credits are refused until it is paid.</p>
          {payLink}
        </div>
      )}
      {s.standing === "canceled" && (
        <div className="notice warn banner" role="alert" data-testid="billing-standing">
          <p><strong>The subscription has ended.</strong> Calls that cost credits are refused until you subscribe again below. Your keys stay the same.</p>
        </div>
      )}
      {trial && trialOver && (
        <div className="notice warn banner" role="alert" data-testid="billing-standing">
          <p><strong>The trial has ended.</strong> Subscribe below to keep calling the API; your keys stay the same.</p>
        </div>
      )}

      <section className="stats" aria-label="Subscription">
        <article className="stat" data-testid="billing-plan">
          <h2>Plan</h2>
          <p className="stat-value">
            {planName(s.plan)}
            {interval && s.status !== "canceled" && <span className="tag">{interval === "year" ? "Yearly" : "Monthly"}</span>}
            {s.status !== "active" && <span className="tag warn">{s.status === "past_due" ? "past due" : s.status}</span>}
          </p>
          {trial ? (
            <p className="stat-note">
              {trialEnds === null
                ? "Free trial."
                : trialOver
                  ? `The trial ended on ${day(s.trial_expires_at!)}.`
                  : `Free trial: ${trialDays} day${trialDays === 1 ? "" : "s"} left, until ${day(s.trial_expires_at!)}.`}{" "}
              Pick a plan below; your keys stay the same.
            </p>
          ) : negotiated ? (
            <p className="stat-note">Negotiated with sales. To change it, write to <a href={`mailto:${SALES_STEP.email}`}>{SALES_STEP.email}</a>.</p>
          ) : s.status === "canceled" ? (
            <p className="stat-note">Ended: nothing more is charged. Pick a plan below to subscribe again.</p>
          ) : (
            <>
              {price(s.plan, interval) && <p className="stat-note strong">{price(s.plan, interval)}</p>}
              <p className="stat-note" data-testid="billing-renewal">
                {s.cancel_at_period_end
                  ? `Cancels on ${s.current_period_end ? day(s.current_period_end) : "the period's end"}: it serves until then and is not renewed.`
                  : s.scheduled_change
                    ? `Changes to ${planName(s.scheduled_change.plan)}${s.scheduled_change.interval && s.scheduled_change.interval !== interval ? ` (${intervalName(s.scheduled_change.interval)})` : ""} on ${s.scheduled_change.at ? day(s.scheduled_change.at) : "the period's end"}.`
                    : s.current_period_end
                      ? `Renews on ${day(s.current_period_end)}.`
                      : "Renews every period."}
              </p>
              {interval === "year" && s.credits_reset_at && <p className="stat-note">Credits renew every month; next on {day(s.credits_reset_at)}.</p>}
              <SubscriptionActions state={state} periodEnd={s.current_period_end} />
            </>
          )}
        </article>

        <article className="stat" data-testid="payment-method">
          <h2>Payment method</h2>
          {s.payment_method ? (
            <>
              <p className="stat-value card-line">
                {planName(s.payment_method.brand ?? "card")} <span aria-hidden="true">····</span>
                <span className="visually-hidden">ending in</span> {s.payment_method.last4}
              </p>
              {s.payment_method.exp_month && s.payment_method.exp_year && (
                <p className="stat-note">Expires {String(s.payment_method.exp_month).padStart(2, "0")}/{s.payment_method.exp_year}</p>
              )}
            </>
          ) : (
            <p className="stat-note">
              {trial ? "None yet: Stripe asks for a card at checkout." : s.status === "canceled" ? "None in use: no subscription is running." : "No card on file."}
            </p>
          )}
          {!trial && !negotiated && <PortalButton />}
        </article>

        <article className="stat" data-testid="next-invoice">
          <h2>Next invoice</h2>
          {s.next_invoice ? (
            <>
              <p className="stat-value">{money(s.next_invoice.amount_due, s.next_invoice.currency)}</p>
              <p className="stat-note">{s.next_invoice.date ? `On ${day(s.next_invoice.date)}; ` : ""}Stripe&rsquo;s estimate, with any proration.</p>
            </>
          ) : (
            <p className="stat-note">
              {live && s.cancel_at_period_end
                ? "None: the subscription ends with this period."
                : live
                  ? "Not known yet."
                  : trial
                    ? "None while on the trial."
                    : "None."}
            </p>
          )}
        </article>
      </section>

      <section className="panel" aria-labelledby="plans-h">
        <div className="panel-head">
          <h2 id="plans-h">Plans</h2>
          <p className="muted small">
            {mode === "subscribe" ? "Payment through Stripe Checkout. Cancel any time." : "Upgrades apply at once, prorated; downgrades at the end of the period."}
          </p>
        </div>
        {mode === "locked" && (
          <div className="notice" role="note">
            <p>The subscription ends on {s.current_period_end ? day(s.current_period_end) : "the period's end"}. Keep it first to change its plan.</p>
          </div>
        )}
        <PlanPicker offers={offers} state={state} mode={mode} periodEnd={s.current_period_end} salesEmail={SALES_STEP.email} />
      </section>

      <section className="panel invoices-panel" aria-labelledby="invoices-h">
        <div className="panel-head">
          <h2 id="invoices-h">Invoices</h2>
        </div>
        {!invoicesRead.ok ? (
          <div className="notice error" role="alert"><p>The invoices could not be read. {invoicesRead.error}</p></div>
        ) : invoicesRead.value.rows.length === 0 ? (
          <p className="muted">No invoices yet.{cursor ? <> <Link href="/dashboard/billing">Back to the newest</Link>.</> : null}</p>
        ) : (
          <Invoices rows={invoicesRead.value.rows} hasMore={invoicesRead.value.hasMore} paged={Boolean(cursor)} />
        )}
      </section>
    </Shell>
  );
}

const STATUS: Record<string, { text: string; tone: string }> = {
  paid: { text: "Paid", tone: "ok" },
  open: { text: "Due", tone: "warn" },
  draft: { text: "Draft", tone: "" },
  void: { text: "Void", tone: "" },
  uncollectible: { text: "Uncollectible", tone: "warn" },
};

function Invoices({ rows, hasMore, paged }: { rows: InvoiceRow[]; hasMore: boolean; paged: boolean }) {
  return (
    <>
      <div className="table-scroll">
        <table className="table invoices" data-testid="invoices">
          <caption className="visually-hidden">Invoices, newest first</caption>
          <thead>
            <tr><th scope="col">Date</th><th scope="col" className="inv-number">Number</th><th scope="col" className="num">Amount</th><th scope="col">Status</th><th scope="col"><span className="visually-hidden">Documents</span></th></tr>
          </thead>
          <tbody>
            {rows.map((i) => {
              const st = STATUS[i.status ?? ""] ?? { text: i.status ?? "—", tone: "" };
              const name = i.number ?? i.id;
              return (
                <tr key={i.id}>
                  <td>{day(i.created)}</td>
                  <td className="inv-number"><code>{name}</code></td>
                  <td className="num">{money(i.amount_due, i.currency)}</td>
                  <td><span className={`tag ${st.tone}`}>{st.text}</span></td>
                  <td className="row-actions">
                    {i.hosted_invoice_url && (
                      <a href={i.hosted_invoice_url}>{i.status === "open" ? "Pay" : "View"}<span className="visually-hidden"> invoice {name}</span></a>
                    )}
                    {i.invoice_pdf && <a href={i.invoice_pdf}>PDF<span className="visually-hidden"> of invoice {name}</span></a>}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {(hasMore || paged) && (
        <p className="pager small">
          {paged && <Link href="/dashboard/billing#invoices-h">Newest invoices</Link>}
          {hasMore && <Link href={`/dashboard/billing?invoices_after=${rows[rows.length - 1]!.id}#invoices-h`}>Older invoices</Link>}
        </p>
      )}
    </>
  );
}
