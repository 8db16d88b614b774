import { meterDriver } from "@/lib/meter/driver";
import { flushSettles } from "@/lib/meter/settle-queue";
import { isoDay, OPERATOR_ADJUSTMENT, pending, writeLedger } from "@/lib/meter/ledger";
import { PLAN_ORDER, PLANS, TRIAL_FEATURE_CALLS, UNCONFIRMED_TRIAL_CREDITS, type PlanLimits } from "@/lib/meter/plans";
import { allowance, graceEnds, standing, trialExpired, utcDay } from "@/lib/meter/policy";
import { usageByDay, usageByRoute } from "@/lib/meter/queries/ledger";
import type { Plan } from "@/lib/meter/costs";
import type { z } from "zod";
import { analytics } from "@/lib/usage/analytics";
import { flushRequestLog } from "@/lib/usage/log";
import type { UsageQuery } from "@/lib/usage/schemas";
import type { Account } from "./types";

// GET /v1/me and /v1/me/usage: what the account may spend, what it spent, and what to do next.

const TRIAL_FEATURES = ["identify", "centering_measure", "centering_confirm"];
const DAY_MS = 86_400_000;

export function planObject(limits: PlanLimits) {
  return {
    plan: limits.plan,
    monthly_eur: limits.monthlyEur,
    credits_per_month: limits.credits,
    requests_per_second: limits.rate,
    in_flight: limits.inFlight,
    card_allowance: limits.cards,
  };
}

type Warning = { code: "NEAR_LIMIT"; resource: "credits" | "cards"; used: number; limit: number; stale: boolean; message: string };

export async function getMe(account: Account, now = Date.now()) {
  const a = allowance(account, now);
  const day = utcDay(now);
  let stale = false;
  let peek = { creditsUsed: 0, dailyUsed: 0, cardsUsed: 0, features: {} as Record<string, number> };
  try {
    // This instance's settles still waiting for the account's next request land first.
    await flushSettles(account.id);
    peek = await (await meterDriver()).peek(account.id, a.period.key, day, a.trial ? TRIAL_FEATURES : []);
  } catch {
    // The meter is down: the ledger (and what this instance has not written yet) stands in.
    stale = true;
    const mine = pending(account.id).filter((r) => r.period === a.period.key);
    peek.creditsUsed = mine.reduce((n, r) => n + r.credits, 0);
    peek.dailyUsed = mine.filter((r) => r.day === isoDay(day)).reduce((n, r) => n + r.credits, 0);
  }
  const quota: Record<string, unknown> = {
    credits_limit: a.credits >= 0 ? a.credits : null,
    credits_used: peek.creditsUsed,
    credits_remaining: a.credits >= 0 ? Math.max(0, a.credits - peek.creditsUsed) : null,
    renews: !a.trial,
  };
  if (!a.trial) quota.resets_at = a.period.resetsAt;
  if (a.trial) {
    quota.daily_cap = a.dailyCap;
    quota.daily_used = peek.dailyUsed;
    quota.trial_expires_at = account.trialExpiresAt;
    quota.trial_expired = trialExpired(account, now);
    if (!a.confirmed) quota.credits_after_confirmation = PLANS.trial.credits;
  }
  const cards = { used: peek.cardsUsed, limit: a.cards >= 0 ? a.cards : null, resets_at: a.trial ? null : a.period.resetsAt };

  const warnings: Warning[] = [];
  const near = (resource: Warning["resource"], used: number, limit: number) => {
    if (limit > 0 && used >= 0.8 * limit) {
      warnings.push({
        code: "NEAR_LIMIT", resource, used, limit, stale,
        message: `${used} of ${limit} ${resource === "credits" ? "credits" : "distinct cards"} used (${Math.round((used / limit) * 100)}%).`,
      });
    }
  };
  if (a.credits >= 0) near("credits", peek.creditsUsed, a.credits);
  if (a.cards >= 0) near("cards", peek.cardsUsed, a.cards);

  return {
    body: {
      data: {
        account_id: account.id,
        email: account.email,
        email_confirmed: a.confirmed,
        plan: account.plan,
        status: account.status,
        created_at: account.createdAt,
        quota,
        cards,
        limits: {
          requests_per_second: a.limits.rate, burst: a.limits.burst, requests_per_minute: a.limits.perMinute || null,
          in_flight: a.limits.inFlight,
        },
        ...(a.trial ? {
          trial_calls: Object.fromEntries(TRIAL_FEATURES.map((f) => [f, { used: peek.features[f] ?? 0, limit: a.confirmed ? TRIAL_FEATURE_CALLS : 0 }])),
        } : {}),
        usage_warnings: warnings,
        upgrade_suggestion: suggestion(account, a.trial, peek.creditsUsed, peek.cardsUsed, a.credits, a.cards, now),
        billing_warning: billingWarning(account, now),
      },
    },
  };
}

/** What the owner must know of the subscription: a failed payment in its grace, a suspension, a cancellation. */
function billingWarning(account: Account, now: number) {
  const s = standing(account, now);
  const ends = graceEnds(account);
  const invoice_url = account.openInvoiceUrl;
  if (s === "grace") {
    const day = new Date(ends).toISOString();
    return { code: "PAYMENT_FAILED" as const, message: `The last payment failed. Credited routes keep answering until ${day}; pay the open invoice or update the card before then.`, grace_ends_at: day, invoice_url };
  }
  if (s === "suspended") return { code: "SUSPENDED" as const, message: "The account is suspended for an unpaid invoice: credited routes answer 403 PLAN_REQUIRED until it is paid.", grace_ends_at: null, invoice_url };
  if (s === "canceled") return { code: "CANCELED" as const, message: "The subscription has ended: credited routes answer 403 PLAN_REQUIRED. Subscribe again with POST /v1/billing/checkout.", grace_ends_at: null, invoice_url: null };
  return null;
}

/**
 * Trial: from 50 credits, 50 distinct cards, or seven days before expiry. Paid plans: from 80%
 * of either finite limit. The suggestion is the next plan up.
 */
function suggestion(account: Account, trial: boolean, credits: number, cards: number, creditLimit: number, cardLimit: number, now: number) {
  // Professional's next is Enterprise, negotiated: its object says so (no price, no fixed credits).
  const next = PLAN_ORDER[PLAN_ORDER.indexOf(account.plan as Plan) + 1];
  if (!next) return null;
  let reason: string | null = null;
  if (trial) {
    const left = account.trialExpiresAt ? Date.parse(account.trialExpiresAt) - now : Infinity;
    const days = Math.ceil(left / DAY_MS);
    if (credits >= UNCONFIRMED_TRIAL_CREDITS) reason = `${credits} trial credits used.`;
    else if (cards >= 50) reason = `${cards} distinct cards retrieved.`;
    else if (left <= 7 * DAY_MS) reason = left <= 0 ? "The trial has ended." : `The trial ends in ${days} day${days === 1 ? "" : "s"}.`;
  } else {
    if (creditLimit > 0 && credits >= 0.8 * creditLimit) reason = `${Math.round((credits / creditLimit) * 100)}% of this period's credits used.`;
    else if (cardLimit > 0 && cards >= 0.8 * cardLimit) reason = `${Math.round((cards / cardLimit) * 100)}% of this period's card allowance used.`;
  }
  return reason ? { ...planObject(PLANS[next]), reason } : null;
}

let names: Map<string, string> | undefined;

/**
 * A route as the request log and the analytics name it (`GET /v1/cards/{id}`), from the
 * operationId the ledger keeps. The routes' modules are loaded here (as the OpenAPI document
 * loads them), not at the top: they import this file.
 */
async function routeNames(): Promise<(operationId: string) => string> {
  if (!names) {
    const { routeSpecs } = await import("@/app/api/v1/routes");
    names = new Map(routeSpecs().map((s) => [s.operationId, `${s.method} /v1${s.path}`]));
  }
  const known = names;
  return (id) => known.get(id) ?? id;
}

export async function getUsage(account: Account, query: z.output<typeof UsageQuery>, now = Date.now()) {
  const days = query.days;
  const from = new Date(now - (days - 1) * DAY_MS).toISOString().slice(0, 10);
  // This instance's latest calls are written first: a row in the middle of a timed write is in
  // neither the buffer nor the table, and the account's own last call must never be missing.
  await flushSettles(account.id);
  await Promise.all([writeLedger().catch(() => {}), flushRequestLog(false)]);
  const [byDay, byRoute, sums] = await Promise.all([usageByDay(account.id, from), usageByRoute(account.id, from), analytics(account, query, now)]);
  // Calls of the last seconds not yet in the ledger: merged so the account sees its own latest.
  const dayMap = new Map(byDay.map((d) => [d.day, { ...d }]));
  const routeMap = new Map(byRoute.map((r) => [r.route, { ...r }]));
  for (const p of pending(account.id)) {
    if (p.day < from) continue;
    const d = dayMap.get(p.day) ?? { day: p.day, requests: 0, credits: 0, refunds: 0, new_cards: 0 };
    d.requests += p.requests; d.credits += p.credits; d.refunds += p.refunds; d.new_cards += p.newCards;
    dayMap.set(p.day, d);
    const r = routeMap.get(p.route) ?? { route: p.route, requests: 0, credits: 0, refunds: 0 };
    r.requests += p.requests; r.credits += p.credits; r.refunds += p.refunds;
    routeMap.set(p.route, r);
  }
  const daysOut = [...dayMap.values()].sort((x, y) => x.day.localeCompare(y.day)).map((d) => ({
    date: d.day, requests: d.requests, credits: d.credits, refunds: d.refunds, new_cards: d.new_cards,
  }));
  const nameOf = await routeNames();
  // An operator's setting of the period's credits counts in days and totals, but no route made it.
  const routes = [...routeMap.values()].filter((r) => r.route !== OPERATOR_ADJUSTMENT)
    .map((r) => ({ route: nameOf(r.route), operation_id: r.route, requests: r.requests, credits: r.credits, refunds: r.refunds }))
    .sort((x, y) => y.credits - x.credits || x.route.localeCompare(y.route));
  const totals = daysOut.reduce((t, d) => ({ requests: t.requests + d.requests, credits: t.credits + d.credits, refunds: t.refunds + d.refunds }), { requests: 0, credits: 0, refunds: 0 });
  return {
    body: {
      data: { from, to: new Date(now).toISOString().slice(0, 10), totals, days: daysOut, routes, analytics: sums },
    },
  };
}
