// Subscription schedules made from an existing subscription: phases that change its items at set
// dates (a downgrade at the period end), released or canceled at the end.

import { addInterval } from "./clock";
import { AUTOMATIC, type Engine, type ItemChange } from "./engine";
import { changedFields } from "./events";
import { invalid } from "./errors";
import { makePhase, makeSchedule } from "./shapes";
import type {
  Invoice,
  Metadata,
  ProrationBehavior,
  RequestInfo,
  SchedulePhase,
  Subscription,
  SubscriptionSchedule,
} from "./types";

export interface PhaseInput {
  items: { price: string; quantity: number }[];
  start?: number | "now";
  end?: number | "now";
  iterations?: number;
  duration?: { interval: string; count: number };
  prorationBehavior?: ProrationBehavior;
  metadata: Metadata;
}

function addDuration(start: number, interval: string, count: number, anchor: number): number {
  if (interval === "day") return start + count * 86400;
  if (interval === "week") return start + count * 7 * 86400;
  if (interval === "month" || interval === "year") return addInterval(start, interval, count, anchor);
  throw invalid(`Invalid duration interval: ${interval}`, "duration[interval]");
}

/** The items of `phase` as changes to `sub`'s items, matched by position. */
export function phaseChanges(sub: Subscription, phase: SchedulePhase): ItemChange[] {
  const changes: ItemChange[] = [];
  phase.items.forEach((pi, i) => {
    const item = sub.items.data[i];
    if (!item) changes.push({ price: pi.price, quantity: pi.quantity });
    else if (item.price.id !== pi.price || item.quantity !== pi.quantity) {
      changes.push({ id: item.id, price: pi.price, quantity: pi.quantity });
    }
  });
  for (const item of sub.items.data.slice(phase.items.length)) changes.push({ id: item.id, deleted: true });
  return changes;
}

function phaseIndex(sched: SubscriptionSchedule): number {
  const cur = sched.current_phase;
  if (!cur) return -1;
  return sched.phases.findIndex((p) => p.start_date === cur.start_date && p.end_date === cur.end_date);
}

function subscriptionOf(e: Engine, sched: SubscriptionSchedule): Subscription | undefined {
  return sched.subscription ? e.d.subscriptions[sched.subscription] : undefined;
}

function emitInvoice(e: Engine, inv: Invoice | null, paid: boolean, req: RequestInfo): void {
  if (inv) e.emit(paid ? "invoice.paid" : "invoice.payment_failed", inv, undefined, req);
}

export function scheduleFromSubscription(e: Engine, sub: Subscription, req: RequestInfo): SubscriptionSchedule {
  if (sub.schedule) {
    throw invalid(`You cannot migrate a subscription that is already attached to a schedule: \`${sub.schedule}\`.`, "from_subscription");
  }
  if (sub.status === "canceled") throw invalid("You cannot create a schedule from a canceled subscription.", "from_subscription");
  const { start, end } = e.period(sub);
  const phase = makePhase({
    start,
    end,
    items: sub.items.data.map((i) => ({ price: i.price.id, quantity: i.quantity })),
    currency: sub.currency,
    prorationBehavior: "create_prorations",
    metadata: {},
  });
  const sched = makeSchedule({ sub, created: e.now(), phases: [phase] });
  e.d.schedules[sched.id] = sched;
  const before = structuredClone(sub);
  sub.schedule = sched.id;
  e.emit("subscription_schedule.created", sched, undefined, req);
  e.emitUpdated(before, sub, req);
  return sched;
}

function buildPhases(e: Engine, sched: SubscriptionSchedule, sub: Subscription | undefined, inputs: PhaseInput[]): SchedulePhase[] {
  const now = e.now();
  const anchor = sub?.billing_cycle_anchor ?? now;
  let prevEnd: number | null = null;
  return inputs.map((ph, i) => {
    const param = `phases[${i}]`;
    if (ph.items.length === 0) throw invalid(`Missing required param: ${param}[items].`, `${param}[items]`, "parameter_missing");
    const prices = ph.items.map((it, j) => e.price(it.price, `${param}[items][${j}][price]`));
    const interval = prices[0]?.recurring.interval ?? "month";
    const given = ph.start === "now" ? now : ph.start;
    let start: number;
    if (prevEnd === null) start = given ?? sched.current_phase?.start_date ?? sched.phases[0]?.start_date ?? now;
    else {
      if (given !== undefined && given !== prevEnd) {
        throw invalid(`${param}[start_date] must be the end_date of the phase before it.`, `${param}[start_date]`);
      }
      start = prevEnd;
    }
    let end = ph.end === "now" ? now : ph.end;
    if (end === undefined) {
      if (ph.duration) end = addDuration(start, ph.duration.interval, ph.duration.count, anchor);
      else if (ph.iterations !== undefined) end = addInterval(start, interval, ph.iterations, anchor);
      else if (i === inputs.length - 1) end = addInterval(start, interval, 1, anchor);
      else throw invalid(`${param} needs an end_date, a duration or iterations (all phases but the last).`, `${param}[end_date]`);
    }
    if (end <= start) throw invalid(`${param}[end_date] must be after its start_date.`, `${param}[end_date]`);
    prevEnd = end;
    return makePhase({
      start,
      end,
      items: ph.items,
      currency: prices[0]?.currency ?? "eur",
      prorationBehavior: ph.prorationBehavior ?? "create_prorations",
      metadata: ph.metadata,
    });
  });
}

function assertOpen(sched: SubscriptionSchedule): void {
  if (sched.status !== "active" && sched.status !== "not_started") {
    throw invalid(`You cannot update a subscription schedule that is currently in the \`${sched.status}\` status.`);
  }
}

export function updateSchedule(
  e: Engine,
  sched: SubscriptionSchedule,
  o: { phases?: PhaseInput[]; endBehavior?: SubscriptionSchedule["end_behavior"]; prorationBehavior?: ProrationBehavior; metadata?: (m: Metadata) => void },
  req: RequestInfo,
): SubscriptionSchedule {
  assertOpen(sched);
  const before = structuredClone(sched);
  const sub = subscriptionOf(e, sched);
  if (o.phases) {
    const phases = buildPhases(e, sched, sub, o.phases);
    const now = e.now();
    const current = phases.find((p) => p.start_date <= now && now < p.end_date);
    if (!current) throw invalid("The phases must include the current one (start_date ≤ now < end_date).", "phases");
    sched.phases = phases;
    sched.current_phase = { start_date: current.start_date, end_date: current.end_date };
    const changes = sub ? phaseChanges(sub, current) : [];
    if (sub && changes.length) {
      const subBefore = structuredClone(sub);
      const r = e.applyItemChanges(sub, changes, o.prorationBehavior ?? current.proration_behavior, now);
      e.emitUpdated(subBefore, sub, req);
      emitInvoice(e, r.invoice, r.paid, req);
    }
  }
  if (o.endBehavior) sched.end_behavior = o.endBehavior;
  o.metadata?.(sched.metadata);
  const prev = changedFields(before, sched);
  if (prev) e.emit("subscription_schedule.updated", sched, prev, req);
  e.changed();
  return sched;
}

function release(e: Engine, sched: SubscriptionSchedule, at: number, req: RequestInfo): void {
  const sub = subscriptionOf(e, sched);
  sched.status = "released";
  sched.released_at = at;
  sched.released_subscription = sched.subscription;
  sched.current_phase = null;
  sched.subscription = null;
  if (sub) sub.schedule = null;
  e.emit("subscription_schedule.released", sched, undefined, req);
}

export function releaseSchedule(e: Engine, sched: SubscriptionSchedule, req: RequestInfo): SubscriptionSchedule {
  assertOpen(sched);
  const sub = subscriptionOf(e, sched);
  const before = sub ? structuredClone(sub) : null;
  release(e, sched, e.now(), req);
  if (sub && before) e.emitUpdated(before, sub, req);
  e.changed();
  return sched;
}

export function cancelSchedule(e: Engine, sched: SubscriptionSchedule, req: RequestInfo): SubscriptionSchedule {
  assertOpen(sched);
  sched.status = "canceled";
  sched.canceled_at = e.now();
  sched.current_phase = null;
  e.emit("subscription_schedule.canceled", sched, undefined, req);
  const sub = subscriptionOf(e, sched);
  if (sub && sub.status !== "canceled") e.cancelSubscription(sub, req);
  e.changed();
  return sched;
}

/**
 * The clock reached the end of the schedule's current phase: the next phase's items apply to the
 * subscription (prorated by that phase's behaviour; none at a period boundary), or, after the last
 * phase, the schedule is released (or completed and the subscription canceled: end_behavior cancel).
 * The caller emits the subscription's update.
 */
export function endPhase(e: Engine, sched: SubscriptionSchedule, sub: Subscription, at: number): { invoice: Invoice | null; paid: boolean; cancel: boolean } {
  const next = sched.phases[phaseIndex(sched) + 1];
  if (next) {
    sched.current_phase = { start_date: next.start_date, end_date: next.end_date };
    const changes = phaseChanges(sub, next);
    const r = changes.length ? e.applyItemChanges(sub, changes, next.proration_behavior, at) : { invoice: null, paid: false };
    e.changed();
    return { ...r, cancel: false };
  }
  if (sched.end_behavior === "cancel") {
    sched.status = "completed";
    sched.completed_at = at;
    sched.current_phase = null;
    e.emit("subscription_schedule.completed", sched, undefined, AUTOMATIC);
    return { invoice: null, paid: false, cancel: true };
  }
  release(e, sched, at, AUTOMATIC);
  e.changed();
  return { invoice: null, paid: false, cancel: false };
}
