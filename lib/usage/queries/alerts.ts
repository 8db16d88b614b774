import { sql } from "drizzle-orm";
import { getDb, rows } from "@/lib/db/client";
import { usageAlerts } from "@/lib/db/schema";
import { iso } from "@/lib/db/sql";
import { enqueue, type Mail } from "@/lib/mail/outbox";
import type { Account } from "@/lib/accounts/types";

// The SQL of the usage alerts (lib/usage/alerts.ts): the accounts of a ledger batch, their
// durable sums of a period, the trials about to end, and the claim of an alert, which inserts
// its row and its mail in one transaction so that two instances never send it twice.

// The projection of lib/accounts/queries/accounts.ts (not exported there), for many accounts at once.
const ACCOUNT_COLUMNS = sql`a.id, a.email, ${iso(sql`a.email_confirmed_at`)} as "emailConfirmedAt", a.plan, a.status,
  ${iso(sql`a.trial_started_at`)} as "trialStartedAt", ${iso(sql`a.trial_expires_at`)} as "trialExpiresAt",
  ${iso(sql`a.period_start`)} as "periodStart", ${iso(sql`a.period_end`)} as "periodEnd", a.credits_limit as "creditsLimit",
  a.billing_interval as "billingInterval", ${iso(sql`a.past_due_since`)} as "pastDueSince", a.open_invoice_url as "openInvoiceUrl",
  a.legacy_paging as "legacyPaging", a.auth_user_id as "authUserId", ${iso(sql`a.created_at`)} as "createdAt"`;

export async function selectAccounts(ids: string[]): Promise<Account[]> {
  if (!ids.length) return [];
  return rows<Account>(sql`select ${ACCOUNT_COLUMNS} from accounts a where a.id = any(${sql.param(ids)}::text[])`);
}

export type PeriodQuery = { accountId: string; period: string; credits: boolean; cards: boolean };
export type PeriodUsage = { accountId: string; period: string; credits: number | null; cards: number | null; sent: string[] };

/**
 * The durable usage of each (account, period): credits from usage_ledger, distinct cards from
 * account_cards, and the alerts already recorded. A sum is only read when asked for and its 100%
 * alert is not recorded yet (null otherwise): past that point nothing more can be mailed for it.
 */
export async function periodUsage(of: PeriodQuery[]): Promise<PeriodUsage[]> {
  if (!of.length) return [];
  const found = await rows<PeriodUsage>(sql`
    select p.account_id as "accountId", p.period,
      case when p.want_credits and not exists (select 1 from usage_alerts u
          where u.account_id = p.account_id and u.period = p.period and u.kind = 'credits_100')
        then (select coalesce(sum(l.credits), 0) from usage_ledger l where l.account_id = p.account_id and l.period = p.period)::int
      end as credits,
      case when p.want_cards and not exists (select 1 from usage_alerts u
          where u.account_id = p.account_id and u.period = p.period and u.kind = 'cards_100')
        then (select count(*) from account_cards c where c.account_id = p.account_id and c.period = p.period)::int
      end as cards,
      array(select u.kind from usage_alerts u where u.account_id = p.account_id and u.period = p.period) as sent
    from unnest(${sql.param(of.map((q) => q.accountId))}::text[], ${sql.param(of.map((q) => q.period))}::text[],
      ${sql.param(of.map((q) => q.credits))}::boolean[], ${sql.param(of.map((q) => q.cards))}::boolean[]) as p(account_id, period, want_credits, want_cards)`);
  return found.map((r) => ({
    ...r,
    credits: r.credits === null ? null : Number(r.credits),
    cards: r.cards === null ? null : Number(r.cards),
    sent: parseTextArray(r.sent),
  }));
}

/** A text[] as the driver hands it: an array (node-postgres) or its literal `{a,b}` (some paths). */
function parseTextArray(v: unknown): string[] {
  if (Array.isArray(v)) return v.map(String);
  if (typeof v === "string") return v.replace(/^\{|\}$/g, "").split(",").filter(Boolean);
  return [];
}

/**
 * Confirmed trials whose end falls within `withinMs` from now and that have had no trial_ending
 * alert since their trial started. Unconfirmed trials are left out (see docs/usage.md, Alerts).
 */
export async function trialsEndingSoon(withinMs: number): Promise<Account[]> {
  return rows<Account>(sql`
    select ${ACCOUNT_COLUMNS} from accounts a
    where a.plan = 'trial' and a.email_confirmed_at is not null
      and a.trial_expires_at > now() and a.trial_expires_at <= now() + make_interval(secs => ${withinMs / 1000})
      and not exists (select 1 from usage_alerts u
        where u.account_id = a.id and u.kind = 'trial_ending' and u.sent_at >= a.trial_started_at)
    order by a.trial_expires_at`);
}

export type Claim = { kind: string; mail: Mail | null };

/**
 * Records alerts of one account's period and queues the mail of each newly recorded one, in one
 * transaction: `insert … on conflict do nothing returning` lets exactly one caller record a
 * kind, and only that caller queues its mail. A claim without mail marks a kind as covered (an
 * 80% alert overtaken by the 100% one). Returns the kinds recorded by this call.
 */
export async function claimAlerts(accountId: string, period: string, claims: Claim[]): Promise<string[]> {
  if (!claims.length) return [];
  const db = await getDb();
  return db.transaction(async (tx) => {
    const won: string[] = [];
    for (const c of claims) {
      const r = await tx.insert(usageAlerts).values({ accountId, period, kind: c.kind }).onConflictDoNothing()
        .returning({ kind: usageAlerts.kind });
      if (!r.length) continue;
      won.push(c.kind);
      if (c.mail) await enqueue(c.mail, tx);
    }
    return won;
  });
}
