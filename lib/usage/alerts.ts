import type { Account } from "@/lib/accounts/types";
import { configuredOrigin } from "@/lib/env";
import type { Mail } from "@/lib/mail/outbox";
import type { LedgerRow } from "@/lib/meter/queries/ledger";
import { allowance, type Allowance } from "@/lib/meter/policy";
import { claimAlerts, periodUsage, selectAccounts, trialsEndingSoon, type Claim, type PeriodQuery } from "./queries/alerts";

// Usage alerts (issue 13, docs/usage.md "Alerts"): mail to the owner at 80% and at 100% of the
// period's credits and of the distinct-card allowance, and seven days before a trial ends; each
// once per account, period and kind (usage_alerts' primary key). Checked after each ledger
// batch is written, off the request path, from the durable sums; the trials by an hourly sweep.

export const ALERT_KINDS = ["credits_80", "credits_100", "cards_80", "cards_100", "trial_ending"] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];
export type Resource = "credits" | "cards";

/** Share of a limit from which the first alert is due: the same 80% as /v1/me's NEAR_LIMIT warnings. */
export const NEAR_SHARE = 0.8;
export const TRIAL_ENDING_DAYS = 7;
const DAY_MS = 86_400_000;
const SWEEP_MS = 3_600_000;

// ── pure threshold logic ─────────────────────────────────────────────────────

export type Due = { kind: AlertKind; mail: boolean };

/**
 * The alerts of one resource that are due and not yet recorded. A limit of 0 or less (none, or
 * unlimited) gives none. From 100% the 100% alert is mailed; an 80% alert not recorded by then
 * is recorded as covered without a mail of its own (one mail, the one that matters, when usage
 * jumps past both), so it can never arrive after the 100% one.
 */
export function dueAlerts(resource: Resource, used: number, limit: number, sent: Iterable<string> = []): Due[] {
  if (!(limit > 0) || !Number.isFinite(limit)) return [];
  const have = new Set(sent);
  const near = `${resource}_80` as AlertKind;
  const full = `${resource}_100` as AlertKind;
  if (used >= limit) {
    if (have.has(full)) return [];
    return [...(have.has(near) ? [] : [{ kind: near, mail: false }]), { kind: full, mail: true }];
  }
  if (used >= NEAR_SHARE * limit && !have.has(near)) return [{ kind: near, mail: true }];
  return [];
}

/** Whether a trial's end is within TRIAL_ENDING_DAYS of `now` and still ahead. */
export function trialEndingSoon(trialExpiresAt: string | null, now: number): boolean {
  if (!trialExpiresAt) return false;
  const left = Date.parse(trialExpiresAt) - now;
  return left > 0 && left <= TRIAL_ENDING_DAYS * DAY_MS;
}

/**
 * Whether an account's usage can be alerted about: its address is confirmed (an unconfirmed
 * trial's only mail is its confirmation; its 50 credits are a step before the trial, not the
 * trial's allowance), and it has at least one finite limit.
 */
export function alertable(a: Allowance): boolean {
  if (a.trial && !a.confirmed) return false;
  return a.credits > 0 || a.cards > 0;
}

// ── mail text ────────────────────────────────────────────────────────────────

const n = (x: number) => x.toLocaleString("en-US");
const pct = (used: number, limit: number) => Math.floor((used / limit) * 100);
/** 2026-12-01T09:30:00.000Z → 2026-12-01 09:30 UTC */
export const when = (isoTime: string) => `${isoTime.slice(0, 10)} ${isoTime.slice(11, 16)} UTC`;

export type AlertContext = {
  account: Pick<Account, "id" | "email" | "plan" | "trialExpiresAt">;
  trial: boolean;
  /** When the period's credits and cards renew; null for the trial (never) or when unknown. */
  resetsAt: string | null;
  used: number;
  limit: number;
  origin?: string;
};

/** The mail of a credits or cards alert: subject, the figures, the reset, what happens at 100%, the links. */
export function usageAlertMail(kind: Exclude<AlertKind, "trial_ending">, c: AlertContext): Mail {
  const origin = (c.origin ?? configuredOrigin()).replace(/\/+$/, "");
  const credits = kind.startsWith("credits");
  const full = kind.endsWith("_100");
  const what = credits ? "credits" : "distinct-card allowance";
  const figures = credits
    ? `${n(c.used)} of ${n(c.limit)} credits (${pct(c.used, c.limit)}%)`
    : `${n(c.used)} of ${n(c.limit)} distinct cards (${pct(c.used, c.limit)}%)`;
  const scope = c.trial ? "of your trial" : `this period on your ${c.account.plan} plan`;
  const renewal = c.trial
    ? `The trial's ${credits ? "credits" : "card allowance"} do${credits ? "" : "es"} not renew${c.account.trialExpiresAt ? `; the trial ends on ${when(c.account.trialExpiresAt)}` : ""}.`
    : c.resetsAt ? `The ${credits ? "credits" : "allowance"} renew${credits ? "" : "s"} on ${when(c.resetsAt)}.` : `The ${credits ? "credits" : "allowance"} renew${credits ? "" : "s"} with the next billing period.`;
  const until = c.trial ? "for the rest of the trial (it never renews)" : c.resetsAt ? `until ${when(c.resetsAt)}` : "until the next billing period";
  const consequence = credits
    ? full
      ? `Calls that cost credits are now refused with 429 QUOTA_EXCEEDED ${until}, unless you ${c.trial ? "subscribe" : "upgrade"}. Routes that cost nothing (GET /v1/me, your keys, billing) keep answering.`
      : `When they run out, calls that cost credits are refused with 429 QUOTA_EXCEEDED ${until}.`
    : full
      ? `Requests that would add new distinct cards are now refused with 403 CARD_ALLOWANCE_EXCEEDED ${until}, unless you ${c.trial ? "subscribe" : "upgrade"}; cards already retrieved keep answering.`
      : `Once it is reached, requests that would add new distinct cards are refused with 403 CARD_ALLOWANCE_EXCEEDED ${until}; cards already retrieved keep answering.`;
  const whose = c.trial ? "your trial's" : "this period's";
  const subject = full ? `PokéPrice: ${whose} ${what} ${credits ? "are" : "is"} used up` : `PokéPrice: 80% of ${whose} ${what} used`;
  return {
    to: c.account.email,
    subject,
    text: [
      `You have used ${figures} ${scope}.`,
      renewal,
      "",
      consequence,
      "",
      `Your usage: ${origin}/dashboard/usage`,
      `${c.trial ? "Subscribe" : "Upgrade"} for more: ${origin}/dashboard/billing`,
    ].join("\n"),
    kind: `usage_${kind}`,
    accountId: c.account.id,
  };
}

export function trialEndingMail(account: Pick<Account, "id" | "email" | "trialExpiresAt">, now: number, origin = configuredOrigin()): Mail {
  const base = origin.replace(/\/+$/, "");
  const ends = account.trialExpiresAt!;
  const days = Math.max(1, Math.ceil((Date.parse(ends) - now) / DAY_MS));
  return {
    to: account.email,
    subject: `PokéPrice: your trial ends in ${days} day${days === 1 ? "" : "s"}`,
    text: [
      `Your PokéPrice trial ends on ${when(ends)}.`,
      "",
      "After that, routes that cost credits are refused with 403 TRIAL_EXPIRED; GET /v1/me, your keys and billing keep answering.",
      "Subscribe to a plan to keep going: the expiry is lifted and your key stays the same.",
      "",
      `Subscribe: ${base}/dashboard/billing`,
      `Your usage: ${base}/dashboard/usage`,
    ].join("\n"),
    kind: "usage_trial_ending",
    accountId: account.id,
  };
}

// ── checks ───────────────────────────────────────────────────────────────────

export type Sent = { accountId: string; period: string; kind: AlertKind };

/**
 * Checks the current period of each account against its limits, from the durable ledger, and
 * records and mails what is due. Safe to run anywhere at once: each alert is claimed by one caller.
 */
export async function checkUsageAlerts(accountIds: string[], now = Date.now()): Promise<Sent[]> {
  const ids = [...new Set(accountIds)];
  if (!ids.length) return [];
  const accounts = await selectAccounts(ids);
  const subjects = new Map<string, { account: Account; a: Allowance }>();
  const queries: PeriodQuery[] = [];
  for (const account of accounts) {
    const a = allowance(account, now);
    if (!alertable(a)) continue;
    subjects.set(account.id, { account, a });
    queries.push({ accountId: account.id, period: a.period.key, credits: a.credits > 0, cards: a.cards > 0 });
  }
  const usage = await periodUsage(queries);
  const sent: Sent[] = [];
  for (const u of usage) {
    const { account, a } = subjects.get(u.accountId)!;
    const claims: Claim[] = [];
    const ctx = (used: number, limit: number): AlertContext => ({ account, trial: a.trial, resetsAt: a.trial ? null : a.period.resetsAt, used, limit });
    for (const [resource, used, limit] of [["credits", u.credits, a.credits], ["cards", u.cards, a.cards]] as const) {
      if (used === null) continue;
      for (const d of dueAlerts(resource, used, limit, u.sent)) {
        claims.push({ kind: d.kind, mail: d.mail ? usageAlertMail(d.kind as Exclude<AlertKind, "trial_ending">, ctx(used, limit)) : null });
      }
    }
    if (!claims.length) continue;
    const won = await claimAlerts(account.id, u.period, claims);
    for (const kind of won) if (claims.find((c) => c.kind === kind)?.mail) sent.push({ accountId: account.id, period: u.period, kind: kind as AlertKind });
  }
  return sent;
}

/** Mails each confirmed trial ending within TRIAL_ENDING_DAYS, once per trial period. */
export async function sweepTrialEndings(now = Date.now()): Promise<Sent[]> {
  const sent: Sent[] = [];
  for (const account of await trialsEndingSoon(TRIAL_ENDING_DAYS * DAY_MS)) {
    if (!trialEndingSoon(account.trialExpiresAt, now)) continue;
    const period = allowance(account, now).period.key;
    const won = await claimAlerts(account.id, period, [{ kind: "trial_ending", mail: trialEndingMail(account, now) }]);
    if (won.length) sent.push({ accountId: account.id, period, kind: "trial_ending" });
  }
  return sent;
}

// ── background ───────────────────────────────────────────────────────────────

type State = { inflight: Set<Promise<unknown>>; timer?: NodeJS.Timeout; stopped: boolean };
const slot = globalThis as unknown as { __usageAlerts?: State };
const state = (): State => (slot.__usageAlerts ??= { inflight: new Set(), stopped: true });

/** Runs work in the background, counted until it ends; logs its failure instead of throwing. */
function track(label: string, work: () => Promise<unknown>): Promise<unknown> {
  const s = state();
  const p: Promise<unknown> = Promise.resolve()
    .then(work)
    .catch((err) => console.error(`[usage-alerts] ${label} failed: ${err instanceof Error ? err.message : String(err)}`))
    .finally(() => s.inflight.delete(p));
  s.inflight.add(p);
  return p;
}

/**
 * Called by the ledger once a batch is written (lib/meter/ledger.ts writeLedger): checks, in the
 * background, the accounts whose credits or cards the batch increased. Never throws; a failed
 * check is logged and the next batch of the account checks again.
 */
export function afterLedgerWrite(rows: Pick<LedgerRow, "accountId" | "credits" | "newCards">[], cards: { accountId: string }[]): void {
  try {
    const ids = new Set<string>();
    for (const r of rows) if (r.credits > 0 || r.newCards > 0) ids.add(r.accountId);
    for (const c of cards) ids.add(c.accountId);
    if (!ids.size) return;
    void track("check", () => checkUsageAlerts([...ids]));
  } catch (err) {
    console.error(`[usage-alerts] check failed: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** Resolves once every check started so far has ended (tests, and the stop before the database closes). */
export async function alertsSettled(): Promise<void> {
  const s = state();
  while (s.inflight.size) await Promise.allSettled([...s.inflight]);
}

/** The hourly sweep of trials about to end, once at start; on an unref'd timer, never overlapping. */
export function startUsageAlerts(everyMs = SWEEP_MS): void {
  const s = state();
  if (!s.stopped) return;
  s.stopped = false;
  const tick = () => {
    s.timer = undefined;
    void track("trial sweep", () => sweepTrialEndings()).finally(() => {
      if (s.stopped) return;
      s.timer = setTimeout(tick, everyMs);
      s.timer.unref();
    });
  };
  s.timer = setTimeout(tick, 1_000);
  s.timer.unref();
}

/** No more sweeps; waits for the checks and sweep under way. */
export async function stopUsageAlerts(): Promise<void> {
  const s = state();
  s.stopped = true;
  if (s.timer) clearTimeout(s.timer);
  s.timer = undefined;
  await alertsSettled();
}
