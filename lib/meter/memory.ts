import {
  keys, Outcome, type AcquireInput, type AcquireResult, type BatchSettle, type MeterDriver, type SeedInput, type SettleInput,
  type SettleResult,
} from "./types";

// The embedded default: the Lua scripts' semantics over in-process maps, for one instance.
// JavaScript runs each call to completion, which gives the same atomicity as a script.
// As in Redis, keys expire on the wall clock, while decisions use the request's `now`.

type Expiring<T> = { value: T; until: number };

export class MemoryMeter implements MeterDriver {
  readonly name = "memory";
  private readonly store = new Map<string, Expiring<unknown>>();

  private get<T>(key: string, _now?: number): T | undefined {
    const e = this.store.get(key);
    if (!e) return undefined;
    if (e.until <= Date.now()) {
      this.store.delete(key);
      return undefined;
    }
    return e.value as T;
  }
  private set(key: string, value: unknown, ttlMs: number, _now?: number): void {
    this.store.set(key, { value, until: Date.now() + ttlMs });
  }
  private num(key: string, _now?: number): number {
    return this.get<number>(key) ?? 0;
  }
  private cardSet(key: string, _now?: number): Set<string> {
    return this.get<Set<string>>(key) ?? new Set();
  }

  async acquire(i: AcquireInput): Promise<AcquireResult> {
    const now = i.now ?? Date.now();
    const k = keys(i.account, i.creditPeriod, i.day, i.feature);
    const settled = this.settleBatch(i.account, i.creditPeriod, i.day, i.periodTtlS, i.settles ?? []);
    let used = this.num(k.credits, now);
    let daily = this.num(k.daily, now);
    let feature = this.num(k.feature, now);
    const cards = this.cardSet(k.cards, now).size;
    if (this.get(k.seeded, now) === undefined) {
      return { outcome: Outcome.UNSEEDED, tokens: 0, fullInMs: 0, creditsUsed: used, dailyUsed: daily, retryAfterMs: 0, featureUsed: feature, cardsUsed: cards, inFlight: 0, settled };
    }
    const bucket = this.get<{ t: number; ts: number; wm: number; wc: number }>(k.bucket, now);
    let tokens = bucket ? bucket.t : i.burst;
    const ts = bucket ? bucket.ts : now;
    tokens = Math.min(i.burst, tokens + (Math.max(0, now - ts) * i.rate) / 1000);
    const minute = Math.floor(now / 60000);
    const wc = bucket && bucket.wm === minute ? bucket.wc : 0;
    let inFlight = 0;
    const out = (outcome: AcquireResult["outcome"], retryAfterMs: number): AcquireResult => ({
      outcome, tokens: Math.floor(tokens), fullInMs: Math.ceil(((i.burst - tokens) * 1000) / i.rate),
      creditsUsed: used, dailyUsed: daily, retryAfterMs, featureUsed: feature, cardsUsed: cards, inFlight, settled,
    });
    if (tokens < 1) return out(Outcome.RATE_LIMITED, Math.ceil(((1 - tokens) * 1000) / i.rate));
    if (i.perMinute > 0 && wc >= i.perMinute) return out(Outcome.RATE_LIMITED, 60000 - (now % 60000));
    const leases = new Map(Object.entries(this.get<Record<string, number>>(k.leases, now) ?? {}));
    for (const [id, until] of leases) if (until <= now) leases.delete(id);
    inFlight = leases.size;
    if (leases.size >= i.maxInFlight) return out(Outcome.CONCURRENCY, 1000);
    if (i.cost > 0 && i.creditLimit >= 0 && used + i.cost > i.creditLimit) return out(Outcome.QUOTA, 0);
    if (i.cost > 0 && i.dailyCap >= 0 && daily + i.cost > i.dailyCap) return out(Outcome.DAILY_CAP, 86400000 - (now % 86400000));
    if (i.featureLimit >= 0 && feature >= i.featureLimit) return out(Outcome.FEATURE, 0);

    tokens -= 1;
    this.set(k.bucket, { t: tokens, ts: now, wm: minute, wc: wc + 1 }, 120000, now);
    leases.set(i.leaseId, now + i.leaseTtlMs);
    inFlight = leases.size;
    this.set(k.leases, Object.fromEntries(leases), i.leaseTtlMs + 1000, now);
    if (i.cost > 0) {
      used += i.cost;
      this.set(k.credits, used, i.periodTtlS * 1000, now);
      daily += i.cost;
      this.set(k.daily, daily, 172800000, now);
    }
    if (i.featureLimit >= 0) {
      feature += 1;
      this.set(k.feature, feature, i.periodTtlS * 1000, now);
    }
    return out(Outcome.OK, 0);
  }

  async settle(i: SettleInput): Promise<SettleResult> {
    return this.settleNow(i);
  }

  private settleNow(i: SettleInput): SettleResult {
    const now = Date.now();
    const k = keys(i.account, i.creditPeriod, i.day, i.feature);
    const leases = this.get<Record<string, number>>(k.leases, now);
    if (leases) delete leases[i.leaseId];
    // Counters keep their expiry, as DECRBY does in Redis.
    const adjust = (key: string, by: number) => {
      const e = this.store.get(key);
      if (e) e.value = (e.value as number) + by;
      else this.set(key, by, 172800000, now);
    };
    const credit = (n: number) => {
      if (n <= 0) return;
      adjust(k.credits, -n);
      adjust(k.daily, -n);
    };
    const giveBack = () => {
      credit(i.cost);
      if (i.featureCounted) adjust(k.feature, -1);
    };
    const set = this.cardSet(k.cards, now);
    const before = set.size;
    if (i.refund) {
      giveBack();
      return { allowed: true, cardsBefore: before, cardsAfter: before, newCards: 0 };
    }
    const fresh = new Set(i.cardIds.filter((id) => !set.has(id)));
    if (i.cardLimit >= 0 && before >= i.cardLimit && fresh.size > 0) {
      giveBack();
      return { allowed: false, cardsBefore: before, cardsAfter: before, newCards: fresh.size };
    }
    credit(i.partial);
    if (fresh.size) {
      for (const id of fresh) set.add(id);
      this.set(k.cards, set, i.periodTtlS * 1000, now);
    }
    return { allowed: true, cardsBefore: before, cardsAfter: set.size, newCards: fresh.size };
  }

  async settleMany(account: string, period: string, day: string, periodTtlS: number, items: BatchSettle[]): Promise<number[]> {
    return this.settleBatch(account, period, day, periodTtlS, items);
  }

  private settleBatch(account: string, period: string, day: string, periodTtlS: number, items: BatchSettle[]): number[] {
    return items.map((it) => this.settleNow({
      account, leaseId: it.leaseId, refund: false, cost: 0, partial: it.refundCredits, creditPeriod: period, day, feature: "",
      featureCounted: false, cardIds: it.cardIds, cardLimit: -1, periodTtlS,
    }).newCards);
  }

  async seed(i: SeedInput): Promise<void> {
    const now = Date.now();
    const k = keys(i.account, i.creditPeriod, i.day, "");
    if (this.get(k.seeded, now) !== undefined) return;
    const ttl = i.periodTtlS * 1000;
    if (this.get(k.credits, now) === undefined) this.set(k.credits, i.credits, ttl, now);
    if (this.get(k.daily, now) === undefined) this.set(k.daily, i.daily, 172800000, now);
    if (i.cardIds.length) {
      const set = this.cardSet(k.cards, now);
      for (const id of i.cardIds) set.add(id);
      this.set(k.cards, set, ttl, now);
    }
    this.set(k.seeded, 1, ttl, now);
  }

  async peek(account: string, period: string, day: string, features: string[]) {
    const k = keys(account, period, day, "");
    return {
      creditsUsed: this.num(k.credits), dailyUsed: this.num(k.daily), cardsUsed: this.cardSet(k.cards).size,
      features: Object.fromEntries(features.map((f) => [f, this.num(keys(account, period, day, f).feature)])),
    };
  }

  async setCredits(account: string, period: string, used: number, periodTtlS: number) {
    const k = keys(account, period, "", "");
    this.set(k.credits, used, periodTtlS * 1000);
    this.set(k.seeded, 1, periodTtlS * 1000);
  }

  async hit(key: string, limit: number, windowS: number) {
    const now = Date.now();
    const e = this.store.get(key);
    if (!e || e.until <= now) {
      this.store.set(key, { value: 1, until: now + windowS * 1000 });
      return { allowed: 1 <= limit, count: 1, retryAfterS: windowS };
    }
    e.value = (e.value as number) + 1;
    const count = e.value as number;
    return { allowed: count <= limit, count, retryAfterS: Math.ceil((e.until - now) / 1000) };
  }

  async close(): Promise<void> {
    this.store.clear();
  }
}
