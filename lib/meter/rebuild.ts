import { ApiError } from "@/lib/api/errors";
import type { Account } from "@/lib/accounts/types";
import { meterDriver } from "./driver";
import { rebuildGraceMs, rebuildPeriod } from "./ledger";
import { allowance, countedFeatures, utcDay, type Allowance } from "./policy";
import type { MeterDriver } from "./types";

// When Redis has lost an account's counters, they are rebuilt from the ledger (usage_ledger in
// PostgreSQL). Each instance writes its ledger rows in batches, so right after Redis comes back
// empty the ledger still lacks what other instances recorded before the loss: no period is
// rebuilt until the grace since an instance first found Redis empty has passed. On a Redis that
// has been up longer (an expired period), or for an account made since, rebuilding is immediate.
// The in-process meter needs no grace: its counters and its ledger buffer live and die together.

/** The grace after Redis came back empty; also how long a settle that found its period unseeded holds the rebuild back. */
// Asked on every metered request: the grace is read once per driver (a test that changes it
// reopens the meter), not from process.env each time, which is slow to read.
const holds = new WeakMap<MeterDriver, number>();
export const holdMs = (driver: MeterDriver): number => {
  let ms = holds.get(driver);
  if (ms === undefined) holds.set(driver, (ms = driver.shared ? rebuildGraceMs() : 0));
  return ms;
};

// While a grace runs, this instance knows when it ends: the requests of that time cost one
// script call each (the acquire), not two.
const slot = globalThis as unknown as { __graceEnds?: number };

/**
 * Milliseconds before an unseeded period of `account` may be rebuilt; 0: now. An account made
 * after the store came up empty had every call counted by this store: nothing of it can be
 * missing from the ledger, so it waits for nothing (a new deployment's first signups, whose
 * first calls would otherwise answer 503 for the length of the grace).
 */
async function graceLeftMs(driver: MeterDriver, account: Account): Promise<number> {
  const grace = holdMs(driver);
  if (grace <= 0) return 0;
  let left = (slot.__graceEnds ?? 0) - Date.now();
  if (left <= 0) {
    left = Math.max(0, grace - (await driver.age()));
    if (left <= 0) return 0;
    slot.__graceEnds = Date.now() + left;
  }
  // Both ends are whole milliseconds: an account made in the same millisecond as this
  // instance learnt of the loss (a signup straight after it) counts as made since.
  const emptySince = slot.__graceEnds! - grace;
  return Date.parse(account.createdAt) >= emptySince ? 0 : left;
}

export type Reseed = { ok: true } | { ok: false; retryAfterMs: number };

/**
 * Rebuilds an unseeded period from the ledger, unless it may not be yet: within the grace, or
 * while a settle that found it unseeded (`heldMs`, from the acquire) is writing its ledger row.
 */
export async function reseed(driver: MeterDriver, account: Account, a: Allowance, day: string, heldMs = 0): Promise<Reseed> {
  if (heldMs > 0) return { ok: false, retryAfterMs: heldMs };
  const wait = await graceLeftMs(driver, account);
  if (wait > 0) return { ok: false, retryAfterMs: wait };
  const rebuilt = await rebuildPeriod(account.id, a.period.key, day, countedFeatures(account));
  const seeded = await driver.seed({ account: account.id, creditPeriod: a.period.key, day, periodTtlS: a.period.ttlS, ...rebuilt });
  return seeded === "held" ? { ok: false, retryAfterMs: 1000 } : { ok: true };
}

/**
 * For an operator's change to the counters: the period rebuilt first when unseeded, so that the
 * counters the change leaves alone (daily, cards, trial calls) come from the ledger too.
 */
export async function ensureSeeded(account: Account, now = Date.now()): Promise<void> {
  const driver = await meterDriver();
  const a = allowance(account, now);
  const day = utcDay(now);
  if ((await driver.peek(account.id, a.period.key, day, [])).generation !== null) return;
  const r = await reseed(driver, account, a, day);
  if (!r.ok) {
    const secs = Math.max(1, Math.ceil(r.retryAfterMs / 1000));
    throw new ApiError("METER_UNAVAILABLE", "The meter is rebuilding this account's counters. Retry shortly.", { retry_after_s: secs }, { "retry-after": String(secs) });
  }
}
