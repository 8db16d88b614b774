import {
  keys, MARKER_KEY, newGeneration, Outcome, UNSETTLED, type AcquireInput, type AcquireResult, type BatchSettle, type MeterDriver, type SeedInput,
  type SeedResult, type SettleInput, type SettleResult,
} from "./types";

// The embedded default: the Lua scripts' semantics over in-process maps, for one instance.
// JavaScript runs each call to completion, which gives the same atomicity as a script.
// As in Redis, keys expire on the wall clock, while decisions use the request's `now`.

type Expiring<T> = { value: T; until: number };

const DAILY_TTL_MS = 172_800_000;

export class MemoryMeter implements MeterDriver {
  readonly name = "memory";
  readonly shared = false;
  private readonly store = new Map<string, Expiring<unknown>>();

  private get<T>(key: string): T | undefined {
    const e = this.store.get(key);
    if (!e) return undefined;
    if (e.until <= Date.now()) {
      this.store.delete(key);
      return undefined;
    }
    return e.value as T;
  }
  private set(key: string, value: unknown, ttlMs: number): void {
    this.store.set(key, { value, until: Date.now() + ttlMs });
  }
  private num(key: string): number {
    return this.get<number>(key) ?? 0;
  }
  private cardSet(key: string): Set<string> {
    return this.get<Set<string>>(key) ?? new Set();
  }
  /** As the scripts: only existing counters move, so none appears without its expiry. */
  private adjust(key: string, by: number): void {
    if (by === 0 || this.get(key) === undefined) return;
    (this.store.get(key) as Expiring<number>).value += by;
  }
  private holdRebuild(account: string, period: string, ms: number): void {
    if (ms > 0) this.set(keys(account, period, "", "").hold, 1, ms);
  }
  private releaseLease(leasesKey: string, leaseId: string): void {
    const leases = this.get<Record<string, number>>(leasesKey);
    if (leases) delete leases[leaseId];
  }

  async acquire(i: AcquireInput): Promise<AcquireResult> {
    const now = i.now ?? Date.now();
    const k = keys(i.account, i.creditPeriod, i.day, i.feature);
    const settled = this.settleBatch(i.account, i.creditPeriod, i.day, i.periodTtlS, i.settles ?? [], i.holdMs ?? 0);
    let used = this.num(k.credits);
    let daily = this.num(k.daily);
    let feature = this.num(k.feature);
    const cards = this.cardSet(k.cards).size;
    const generation = this.get<string>(k.seeded);
    if (generation === undefined) {
      const held = this.store.get(k.hold);
      const retryAfterMs = held && this.get(k.hold) !== undefined ? held.until - Date.now() : 0;
      return {
        outcome: Outcome.UNSEEDED, tokens: 0, fullInMs: 0, creditsUsed: used, dailyUsed: daily, retryAfterMs, featureUsed: feature,
        cardsUsed: cards, inFlight: 0, generation: "", settled,
      };
    }
    const bucket = this.get<{ t: number; ts: number }>(k.bucket);
    let tokens = bucket ? bucket.t : i.burst;
    const ts = bucket ? bucket.ts : now;
    tokens = Math.min(i.burst, tokens + (Math.max(0, now - ts) * i.rate) / 1000);
    // The per-minute limit is a rolling 60 s: the times of the last perMinute calls admitted, newest first.
    const admitted = i.perMinute > 0 ? (this.get<number[]>(k.minute) ?? []) : [];
    let inFlight = 0;
    const out = (outcome: AcquireResult["outcome"], retryAfterMs: number): AcquireResult => ({
      outcome, tokens: Math.floor(tokens), fullInMs: Math.ceil(((i.burst - tokens) * 1000) / i.rate),
      creditsUsed: used, dailyUsed: daily, retryAfterMs, featureUsed: feature, cardsUsed: cards, inFlight, generation, settled,
    });
    if (tokens < 1) return out(Outcome.RATE_LIMITED, Math.ceil(((1 - tokens) * 1000) / i.rate));
    const oldest = admitted[i.perMinute - 1];
    if (i.perMinute > 0 && oldest !== undefined && now - oldest < 60000) return out(Outcome.RATE_LIMITED, 60000 - (now - oldest));
    const leases = new Map(Object.entries(this.get<Record<string, number>>(k.leases) ?? {}));
    for (const [id, until] of leases) if (until <= now) leases.delete(id);
    inFlight = leases.size;
    if (leases.size >= i.maxInFlight) return out(Outcome.CONCURRENCY, 1000);
    if (i.cost > 0 && i.creditLimit >= 0 && used + i.cost > i.creditLimit) return out(Outcome.QUOTA, 0);
    if (i.cost > 0 && i.dailyCap >= 0 && daily + i.cost > i.dailyCap) return out(Outcome.DAILY_CAP, 86400000 - (now % 86400000));
    if (i.featureLimit >= 0 && feature >= i.featureLimit) return out(Outcome.FEATURE, 0);

    tokens -= 1;
    this.set(k.bucket, { t: tokens, ts: now }, 120000);
    if (i.perMinute > 0) this.set(k.minute, [now, ...admitted].slice(0, i.perMinute), 61000);
    leases.set(i.leaseId, now + i.leaseTtlMs);
    inFlight = leases.size;
    this.set(k.leases, Object.fromEntries(leases), i.leaseTtlMs + 1000);
    if (i.cost > 0) {
      used += i.cost;
      this.set(k.credits, used, i.periodTtlS * 1000);
      this.set(k.seeded, generation, i.periodTtlS * 1000);
      daily += i.cost;
      this.set(k.daily, daily, DAILY_TTL_MS);
    }
    if (i.featureLimit >= 0) {
      feature += 1;
      this.set(k.feature, feature, i.periodTtlS * 1000);
    }
    return out(Outcome.OK, 0);
  }

  async settle(i: SettleInput): Promise<SettleResult> {
    return this.settleNow(i);
  }

  private settleNow(i: SettleInput): SettleResult {
    const k = keys(i.account, i.creditPeriod, i.day, i.feature);
    this.releaseLease(k.leases, i.leaseId);
    const generation = this.get<string>(k.seeded);
    if (generation === undefined) {
      this.holdRebuild(i.account, i.creditPeriod, i.holdMs);
      return { allowed: true, cardsBefore: 0, cardsAfter: 0, newCards: 0, state: "unseeded" };
    }
    // Under the lease's generation its reservation is in the counters; under one rebuilt
    // since the acquire it is not (see SETTLE in lua.ts).
    const current = generation === i.generation;
    const state = current ? "current" : "reseeded";
    const move = (credits: number, calls: number) => {
      this.adjust(k.credits, credits);
      this.adjust(k.daily, credits);
      if (i.featureCounted) this.adjust(k.feature, calls);
    };
    const giveBack = () => {
      if (current) move(-i.cost, -1);
    };
    const set = this.cardSet(k.cards);
    const before = set.size;
    if (i.refund) {
      giveBack();
      return { allowed: true, cardsBefore: before, cardsAfter: before, newCards: 0, state };
    }
    const fresh = new Set(i.cardIds.filter((id) => !set.has(id)));
    if (i.cardLimit >= 0 && before >= i.cardLimit && fresh.size > 0) {
      giveBack();
      return { allowed: false, cardsBefore: before, cardsAfter: before, newCards: fresh.size, state };
    }
    if (current) move(-i.partial, 0);
    else move(i.cost - i.partial, 1);
    if (fresh.size) {
      for (const id of fresh) set.add(id);
      this.set(k.cards, set, i.periodTtlS * 1000);
    }
    return { allowed: true, cardsBefore: before, cardsAfter: set.size, newCards: fresh.size, state };
  }

  async settleMany(account: string, period: string, day: string, periodTtlS: number, items: BatchSettle[], holdMs: number): Promise<number[]> {
    return this.settleBatch(account, period, day, periodTtlS, items, holdMs);
  }

  private settleBatch(account: string, period: string, day: string, periodTtlS: number, items: BatchSettle[], holdMs: number): number[] {
    return items.map((it) => {
      const r = this.settleNow({
        account, leaseId: it.leaseId, generation: it.generation, refund: false, cost: it.refundCredits + it.charged, partial: it.refundCredits,
        creditPeriod: period, day, feature: "", featureCounted: false, cardIds: it.cardIds, cardLimit: -1, periodTtlS, holdMs,
      });
      return r.state === "unseeded" ? UNSETTLED : r.newCards;
    });
  }

  async seed(i: SeedInput): Promise<SeedResult> {
    const k = keys(i.account, i.creditPeriod, i.day, "");
    if (this.get(k.seeded) !== undefined) return "exists";
    if (this.get(k.hold) !== undefined) return "held";
    const ttl = i.periodTtlS * 1000;
    this.set(k.credits, i.credits, ttl);
    this.set(k.daily, i.daily, DAILY_TTL_MS);
    for (const [f, used] of Object.entries(i.features)) this.set(keys(i.account, i.creditPeriod, i.day, f).feature, used, ttl);
    this.store.delete(k.cards);
    if (i.cardIds.length) this.set(k.cards, new Set(i.cardIds), ttl);
    this.set(k.seeded, newGeneration(), ttl);
    return "seeded";
  }

  async peek(account: string, period: string, day: string, features: string[]) {
    const k = keys(account, period, day, "");
    return {
      creditsUsed: this.num(k.credits), dailyUsed: this.num(k.daily), cardsUsed: this.cardSet(k.cards).size,
      generation: this.get<string>(k.seeded) ?? null,
      features: Object.fromEntries(features.map((f) => [f, this.num(keys(account, period, day, f).feature)])),
    };
  }

  async setCredits(account: string, period: string, used: number, periodTtlS: number) {
    const k = keys(account, period, "", "");
    const generation = this.get<string>(k.seeded);
    if (generation === undefined) return null;
    const before = this.num(k.credits);
    this.set(k.credits, used, periodTtlS * 1000);
    this.set(k.seeded, generation, periodTtlS * 1000);
    return before;
  }

  async age() {
    const now = Date.now();
    let since = this.get<number>(MARKER_KEY);
    if (since === undefined) this.set(MARKER_KEY, (since = now), Infinity);
    return now - since;
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
