import { randomUUID } from "node:crypto";
import { ApiError } from "@/lib/api/errors";
import type { Account } from "@/lib/accounts/types";
import { meterDriver, openMeterDriver } from "./driver";
import { flushLedgerSoon, isoDay, record, recordCards } from "./ledger";
import type { Plan } from "./costs";
import { policyHeader } from "./plans";
import { allowance, featureLimit, utcDay, type Allowance } from "./policy";
import { holdMs, reseed } from "./rebuild";
import { confirmEmailStep, nextPlan, planStep, secondsToMidnight, upgradeStep } from "./refusals";
import { queueSettle, returnSettles, takeSettles, track } from "./settle-queue";
import { Outcome, UNSETTLED, type AcquireInput, type AcquireResult, type SettleResult } from "./types";

// The meter step of the pipeline: acquire before the handler (one script), settle after it.
// Outcomes are values; the pipeline turns a refusal into its response.

export const LEASE_TTL_MS = 60_000;

export type Lease = {
  account: Account;
  allowance: Allowance;
  leaseId: string;
  route: string;
  cost: number;
  feature: string;
  featureCounted: boolean;
  day: string;
  /** The generation of the counters the acquire charged (see SettleState). */
  generation: string;
  /** What the script answered; the last known state when the meter is down. */
  result: AcquireResult | null;
  degraded: boolean;
  /** The plan a trial refused here is told to take: the route's minimum, else the first paid plan. */
  upgradeTo: Plan;
  /** Told what the call finally cost once its settle is answered (the request log's row). */
  onSettled?: (o: { credits: number; refunded: boolean; newCards: number }) => void;
};

export type AcquireOutcome =
  | { ok: true; lease: Lease }
  | { ok: false; error: ApiError; headers: Record<string, string> };

export type SettleOutcome = { ok: true; headers: Record<string, string>; charged: number } | { ok: false; error: ApiError; headers: Record<string, string> };

const slot = globalThis as unknown as { __lastKnown?: Map<string, AcquireResult> };
const lastKnown = () => (slot.__lastKnown ??= new Map());

// An account's allowance, worked out at most once a second per account object (the key
// cache's, never changed in place: a changed account is a new object). In between only the
// counters' TTL would move with the clock, by less than a second of the 8 days it keeps past
// the period; a period that ends (a yearly plan's month) ends the reuse.
const allowances = new WeakMap<Account, { from: number; until: number; a: Allowance }>();
function allowanceAt(account: Account, now: number): Allowance {
  const m = allowances.get(account);
  if (m && now >= m.from && now < m.until) return m.a;
  const a = allowance(account, now);
  const resets = a.period.resetsAt ? Date.parse(a.period.resetsAt) : Infinity;
  allowances.set(account, { from: now, until: Math.min(now + 1_000, resets), a });
  return a;
}

export async function acquire(account: Account, opts: { route: string; cost: number; feature?: string; minPlan?: Plan }, now = Date.now()): Promise<AcquireOutcome> {
  const a = allowanceAt(account, now);
  const feature = opts.feature ?? "";
  const day = utcDay(now);
  const lease: Lease = {
    account, allowance: a, leaseId: randomUUID(), route: opts.route, cost: opts.cost, feature,
    featureCounted: featureLimit(account, feature) >= 0, day, generation: "", result: null, degraded: false, upgradeTo: opts.minPlan ?? "developer",
  };
  const input: AcquireInput = {
    account: account.id, rate: a.limits.rate, burst: a.limits.burst, perMinute: a.limits.perMinute,
    maxInFlight: a.limits.inFlight, leaseId: lease.leaseId, leaseTtlMs: LEASE_TTL_MS, cost: opts.cost,
    creditLimit: a.credits, creditPeriod: a.period.key, periodTtlS: a.period.ttlS, dailyCap: a.dailyCap, day,
    feature, featureLimit: featureLimit(account, feature), settles: undefined, holdMs: undefined,
  };
  let r: AcquireResult;
  const settles = takeSettles(account.id, a.period.key, day);
  try {
    const driver = openMeterDriver() ?? (await meterDriver());
    try {
      // Set on the input rather than spread into a copy (`{ ...input, … }` is slow in Node 20's V8).
      input.settles = settles;
      input.holdMs = holdMs(driver);
      r = await driver.acquire(input);
    } catch (err) {
      returnSettles({ account: account.id, period: a.period.key, day, ttlS: a.period.ttlS }, settles);
      throw err;
    }
    for (let i = 0; i < settles.length; i++) settles[i]!.done(r.settled[i] ?? 0);
    if (r.outcome === Outcome.UNSEEDED) {
      // Redis lost this account's counters (or never had them): rebuild them from the ledger,
      // once every instance has had the time to write what it recorded before the loss.
      const reseeded = await reseed(driver, account, a, day, r.retryAfterMs);
      if (!reseeded.ok) return unmetered(lease, reseeded.retryAfterMs, "is rebuilding this account's counters");
      input.settles = undefined;
      input.holdMs = undefined;
      r = await driver.acquire(input);
    }
  } catch (err) {
    return degraded(lease, err);
  }
  lease.result = r;
  lease.generation = r.generation;
  lastKnown().set(account.id, r);
  // A served call's headers are the settle's: they are made here for a refusal only.
  if (r.outcome === Outcome.OK) return { ok: true, lease };
  const headers = meterHeaders(lease, { charged: 0, refused: r.outcome });
  switch (r.outcome) {
    case Outcome.RATE_LIMITED: {
      const secs = Math.max(1, Math.ceil(r.retryAfterMs / 1000));
      const window = r.tokens >= 1 ? "per_minute" : "per_second";
      return refuse(new ApiError("RATE_LIMITED", `Too many requests ${window === "per_second" ? "per second" : "per minute"}. Retry after ${secs} s with exponential backoff and jitter.`, {
        limit: window, retry_after_ms: r.retryAfterMs, policy: policyHeader(a.limits),
      }), headers, { "retry-after": String(secs), "ratelimit-reset": String(secs) });
    }
    case Outcome.CONCURRENCY:
      return refuse(new ApiError("CONCURRENCY_LIMIT", `At most ${a.limits.inFlight} requests may be in flight for this account. Reduce the worker pool.`, {
        max_in_flight: a.limits.inFlight,
      }), headers, { "retry-after": "1" });
    case Outcome.QUOTA: {
      // RateLimit-Reset here is the quota's reset, not the bucket's: absent when the credits
      // never renew (trial) or the reset is unknown or past (SPEC.md QUOTA_EXCEEDED 2 and 3).
      const { "ratelimit-reset": _bucket, ...rest } = headers;
      return refuse(quotaError(lease, r), rest, quotaTiming(lease));
    }
    case Outcome.DAILY_CAP: {
      const secs = secondsToMidnight(now);
      return refuse(new ApiError("QUOTA_EXCEEDED", `The trial's daily cap of ${a.dailyCap} credits is spent. It resets at midnight UTC.`, {
        renews: true, cap: "daily", daily_cap: a.dailyCap, daily_used: r.dailyUsed, retry_after_s: secs,
        next_step: upgradeStep(lease.upgradeTo, "Paid plans have no daily cap."),
      }), headers, { "retry-after": String(secs), "ratelimit-reset": String(secs) });
    }
    case Outcome.FEATURE:
      return refuse(new ApiError("PLAN_REQUIRED", `The trial's ${featureLimit(account, feature)} ${feature.replace("_", " ")} calls are used. This route needs the Growth plan.`, {
        plan_required: "growth", trial_calls: featureLimit(account, feature), next_step: upgradeStep("growth", "Trial calls are used up."),
      }), headers, {});
    default:
      return refuse(new ApiError("METER_UNAVAILABLE", "The meter could not rebuild this account's counters. Retry shortly.", undefined), headers, { "retry-after": "5" });
  }
}

function refuse(error: ApiError, headers: Record<string, string>, extra: Record<string, string>): AcquireOutcome {
  return { ok: false, error, headers: { ...headers, ...extra } };
}

function degraded(lease: Lease, err: unknown): AcquireOutcome {
  console.error("[meter] unreachable:", (err as Error)?.message ?? err);
  // Redis may have lost its data: what this instance recorded must be in the ledger before a rebuild.
  flushLedgerSoon();
  return unmetered(lease, 5000, "is unreachable");
}

/** The meter cannot count this call: the trial is refused, a paid plan served uncounted. */
function unmetered(lease: Lease, retryAfterMs: number, why: string): AcquireOutcome {
  if (lease.allowance.trial) {
    const secs = Math.max(1, Math.ceil(retryAfterMs / 1000));
    return {
      ok: false,
      error: new ApiError("METER_UNAVAILABLE", `The meter ${why} and trial calls cannot be served uncounted. Retry shortly.`, { retry_after_s: secs }),
      // The plan's limits are known without the meter; the counts are not.
      headers: { ...meterHeaders(lease, { charged: 0 }), "retry-after": String(secs) },
    };
  }
  // Paid plans are served, uncounted; the balance shown is the last one this instance saw.
  lease.degraded = true;
  lease.result = lastKnown().get(lease.account.id) ?? null;
  return { ok: true, lease };
}

/**
 * What a settle was answered: the lease hears it (the request log), and the answer's ledger row
 * is written, only once the counters have moved (or were found unseeded): a rebuild in between
 * reads the ledger without it, which is what the settle of a rebuilt generation assumes.
 */
function written(lease: Lease, ids: string[], o: { credits: number; refunded: boolean; newCards: number | null }): void {
  const a = lease.allowance;
  const unseeded = o.newCards === UNSETTLED;
  const newCards = o.newCards !== null && o.newCards > 0 ? o.newCards : 0;
  lease.onSettled?.({ credits: o.credits, refunded: o.refunded, newCards });
  record({ accountId: lease.account.id, period: a.period.key, day: isoDay(lease.day), route: lease.route, credits: o.credits, refunds: o.refunded ? 1 : 0, newCards });
  if (!o.refunded && ids.length && (unseeded || (o.newCards ?? 0) > 0)) recordCards(lease.account.id, a.period.key, ids);
  // Unseeded: a rebuild will read this row soon. Failed: Redis may be losing its data.
  if (unseeded || o.newCards === null) flushLedgerSoon();
}

/** A settle of its own (one that decides, or counts a feature); the common one is batched (queueSettle). */
async function settleAlone(lease: Lease, refund: boolean, charged: number, partial: number, ids: string[], sent = ids): Promise<SettleResult | null> {
  const a = lease.allowance;
  try {
    const driver = await meterDriver();
    const result = await driver.settle({
      account: lease.account.id, leaseId: lease.leaseId, generation: lease.generation, refund, cost: lease.cost, partial,
      creditPeriod: a.period.key, day: lease.day, feature: lease.feature, featureCounted: lease.featureCounted, cardIds: sent,
      cardLimit: a.cards, periodTtlS: a.period.ttlS, holdMs: holdMs(driver),
    });
    const unseeded = result.state === "unseeded";
    written(lease, ids, { credits: result.allowed ? charged : 0, refunded: !result.allowed || refund, newCards: unseeded ? UNSETTLED : result.allowed ? result.newCards : 0 });
    return unseeded ? null : result;
  } catch (err) {
    // The lease expires by itself; the charge stands in Redis and is recorded here.
    console.error("[meter] settle failed:", (err as Error)?.message ?? err);
    written(lease, ids, { credits: charged, refunded: refund, newCards: null });
    return null;
  }
}

/** A batched settle's `done`: the answer's cards are known once counted, and its row is written. */
function onBatchSettled(lease: Lease, ids: string[], charged: number, refund: boolean, resolve: (() => void) | undefined): (newCards: number | null) => void {
  return (newCards) => {
    if (newCards !== null && newCards !== UNSETTLED) rememberCards(lease, ids);
    written(lease, ids, { credits: charged, refunded: refund, newCards });
    resolve?.();
  };
}

function quotaTiming(lease: Lease): Record<string, string> {
  const resets = lease.allowance.period.resetsAt;
  if (lease.allowance.trial || !resets) return {};
  const secs = Math.ceil((Date.parse(resets) - Date.now()) / 1000);
  return secs > 0 ? { "retry-after": String(secs), "ratelimit-reset": String(secs) } : {};
}

function quotaError(lease: Lease, r: AcquireResult): ApiError {
  const a = lease.allowance;
  const base = { credits_limit: a.credits, credits_used: r.creditsUsed, cost: lease.cost };
  if (a.trial) {
    if (!a.confirmed) {
      return new ApiError("QUOTA_EXCEEDED", `Confirm your email to unlock the full trial: the ${a.credits} credits before confirmation are spent.`, {
        ...base, renews: false, next_step: confirmEmailStep(lease.account),
      });
    }
    return new ApiError("QUOTA_EXCEEDED", `The trial's ${a.credits} credits are spent. They never renew.`, {
      ...base, renews: false, next_step: upgradeStep(lease.upgradeTo, "The trial allowance is spent."),
    });
  }
  const resets = a.period.resetsAt;
  return new ApiError("QUOTA_EXCEEDED", `The ${lease.account.plan} plan's ${a.credits} credits of this period are spent.${resets ? ` They renew at ${resets}.` : ""}`, {
    ...base, renews: true, resets_at: resets,
    next_step: planStep(lease.account, nextPlan(lease.account.plan), lease.account.plan === "enterprise" ? "More credits are negotiated." : "More credits come with a larger plan."),
  });
}

/**
 * After the handler: release the slot; give the credits back on any 4xx, 5xx or 304; count
 * the cards the answer returned. With a card allowance the count decides whether the answer
 * may go out, so it is awaited; otherwise it runs after the response.
 * `credits`: what a served answer cost when less than it reserved; the rest is given back.
 */
export async function settle(lease: Lease, status: number, cardIds: string[] = [], credits?: number): Promise<SettleOutcome> {
  const refund = status >= 400 || status === 304;
  const a = lease.allowance;
  const charged = refund || lease.degraded ? 0 : Math.max(0, Math.min(lease.cost, credits ?? lease.cost));
  const partial = refund || lease.degraded ? 0 : lease.cost - charged;
  const ids = refund ? [] : distinctCards(cardIds);
  if (lease.degraded) {
    record({ accountId: lease.account.id, period: a.period.key, day: isoDay(lease.day), route: lease.route, credits: 0, refunds: refund ? 1 : 0, newCards: 0 });
    lease.onSettled?.({ credits: 0, refunded: refund, newCards: 0 });
    return { ok: true, headers: { ...meterHeaders(lease, { charged: 0, refunded: refund, served: !refund }), "x-ratelimit-degraded": "1" }, charged: 0 };
  }
  // Its steps are module functions, not closures made here: the server runs through tsx, whose
  // esbuild names every closure it makes (Object.defineProperty, half a microsecond each).
  // With an allowance the count decides; without one, an answer with cards this process has not
  // seen counted waits for its count too, so that X-Cards-Used is the count after the answer on
  // every plan. An answer of known cards (the same card or page again) settles in the batch.
  const unseen = ids.length && a.cards < 0 ? unknownCards(lease, ids) : ids;
  const decides = unseen.length > 0;
  if (!decides) {
    if (lease.featureCounted) {
      void track(settleAlone(lease, refund, charged, partial, ids));
    } else {
      const r = lease.result;
      // The ledger hears of the call when its settle is answered: with the account's next
      // request at the latest, so /v1/me/usage still shows an account its own latest calls.
      // A refund lands before its answer goes out, so the next call counts from the balance
      // this answer shows (SPEC.md meter headers: a refunded answer shows the balance before it).
      const waits = refund || partial > 0;
      let resolve: (() => void) | undefined;
      const settled = waits ? new Promise<void>((r) => (resolve = r)) : undefined;
      queueSettle(
        { account: lease.account.id, period: a.period.key, day: lease.day, ttlS: a.period.ttlS },
        {
          leaseId: lease.leaseId, generation: lease.generation, refundCredits: refund ? lease.cost : partial, charged, cardIds: unseen,
          done: onBatchSettled(lease, ids, charged, refund, resolve),
        },
        waits || !r || r.inFlight >= a.limits.inFlight - 1,
      );
      if (settled) await settled;
    }
    return { ok: true, headers: meterHeaders(lease, { charged, refunded: refund, served: !refund }), charged };
  }
  const result = await track(settleAlone(lease, refund, charged, partial, ids, unseen));
  if (result && a.cards < 0) rememberCards(lease, ids);
  if (result && !result.allowed) {
    const error = new ApiError("CARD_ALLOWANCE_EXCEEDED", `This answer would add ${result.newCards} new cards beyond the plan's allowance of ${a.cards} distinct cards${a.trial ? " for the whole trial" : " this period"}. Cards already retrieved keep answering.`, {
      cards_used: result.cardsBefore, card_allowance: a.cards, new_cards: result.newCards,
      ...(a.trial ? {} : { resets_at: a.period.resetsAt }),
      next_step: planStep(lease.account, "growth", "Growth and larger plans have no card allowance."),
    });
    return { ok: false, error, headers: meterHeaders(lease, { charged: 0, refunded: true }) };
  }
  return { ok: true, headers: meterHeaders(lease, { charged, refunded: refund, served: !refund, cards: result ?? undefined }), charged };
}

// The cards this process has seen settled into an account's distinct cards, per period and
// generation of its counters: that set only grows until the period ends or the counters are
// rebuilt (another generation). A batched settle sends only the answer's other cards: adding a
// member adds nothing, so its new cards and every counter come out the same, and a page of 250
// cards asked again costs the round trip 250 arguments and SADDs less.
// A cached answer hands every request the same array of card ids (response-cache.ts copies the
// rendering, not its arrays): its distinct ids are worked out once, and once all of them are
// known under a key, that answer's later settles there skip the 250 lookups too.
const KNOWN_MAX = 200_000;
type Known = { ids: Set<string>; whole: WeakSet<string[]> };
const knownCards = new Map<string, Known>();
let knownCount = 0;
const knownKey = (lease: Lease) => `${lease.account.id}\u0000${lease.allowance.period.key}\u0000${lease.generation}`;

/** An answer's distinct card ids; the same array for the same (cached) answer. Read only. */
const distinct = new WeakMap<string[], string[]>();
function distinctCards(cardIds: string[]): string[] {
  if (cardIds.length < 2) return cardIds;
  let d = distinct.get(cardIds);
  if (!d) distinct.set(cardIds, (d = [...new Set(cardIds)]));
  return d;
}

function unknownCards(lease: Lease, ids: string[]): string[] {
  const known = ids.length && lease.generation ? knownCards.get(knownKey(lease)) : undefined;
  if (!known) return ids;
  return known.whole.has(ids) ? [] : ids.filter((id) => !known.ids.has(id));
}

function rememberCards(lease: Lease, ids: string[]): void {
  if (!ids.length || !lease.generation) return;
  const key = knownKey(lease);
  let known = knownCards.get(key);
  if (!known) knownCards.set(key, (known = { ids: new Set(), whole: new WeakSet() }));
  else if (known.whole.has(ids)) return;
  for (const id of ids) {
    if (known.ids.has(id)) continue;
    known.ids.add(id);
    knownCount++;
  }
  known.whole.add(ids);
  if (knownCount > KNOWN_MAX) {
    knownCards.clear();
    knownCount = 0;
  }
}

/** Every header of SPEC.md's meter table that applies to this answer. */
export function meterHeaders(
  lease: Lease,
  o: { charged: number; refunded?: boolean; refused?: number; served?: boolean; cards?: SettleResult },
): Record<string, string> {
  const a = lease.allowance;
  const r = lease.result;
  const h: Record<string, string> = {
    "ratelimit-limit": String(a.limits.burst),
    "ratelimit-policy": policyHeader(a.limits),
    "x-credits-cost": String(o.charged),
  };
  if (r) {
    // A per-minute refusal leaves tokens in the per-second bucket: the call was refused all the same.
    h["ratelimit-remaining"] = o.refused === Outcome.RATE_LIMITED ? "0" : String(Math.max(0, r.tokens));
    h["ratelimit-reset"] = String(Math.max(0, Math.ceil(r.fullInMs / 1000)));
  }
  if (a.credits >= 0 && r) {
    // Remaining after this answer: a served call includes its charge, a refund shows the
    // balance before the call, a refusal reserved nothing.
    const used = o.refused !== undefined && o.refused !== Outcome.OK ? r.creditsUsed : r.creditsUsed - lease.cost + (o.refunded ? 0 : o.charged);
    h["x-quota-limit"] = String(a.credits);
    h["x-quota-remaining"] = String(Math.max(0, a.credits - used));
    if (a.period.resetsAt) h["x-quota-reset"] = a.period.resetsAt;
  }
  if (a.trial && lease.account.trialExpiresAt) h["x-trial-expires-at"] = lease.account.trialExpiresAt;
  // Card headers go on served answers only; of them, only the warning is omitted on plans
  // without an allowance (SPEC.md Distinct cards per period), whose limit says so.
  if (o.served && r) {
    // Without a count of its own (no cards, or only cards already counted) the answer adds none.
    const known = o.cards;
    const before = known ? known.cardsBefore : r.cardsUsed;
    h["x-cards-used"] = String(known ? known.cardsAfter : r.cardsUsed);
    if (a.cards >= 0) {
      h["x-cards-limit"] = String(a.cards);
      if (before >= 0.8 * a.cards) h["x-cards-warning"] = "approaching_limit";
    } else {
      h["x-cards-limit"] = "unlimited";
    }
  }
  return h;
}
