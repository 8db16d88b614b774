// The fake's own clock: real time (or the `now` option) plus an offset that only grows.
// Every Stripe timestamp the fake writes comes from here. Calendar arithmetic for billing periods too.

import type { Interval } from "./types";

export class Clock {
  private offset = 0;
  private readonly base: () => number;

  /** `now` answers unix seconds; a value that looks like milliseconds (Date.now) is divided by 1000. */
  constructor(now?: () => number) {
    this.base = () => {
      const v = now ? now() : Date.now() / 1000;
      return Math.floor(v > 1e11 ? v / 1000 : v);
    };
  }

  now(): number {
    return this.base() + this.offset;
  }

  /** Moves the clock to `t` (never backwards). */
  setTo(t: number): void {
    const delta = t - this.now();
    if (delta > 0) this.offset += delta;
  }

  get offsetSeconds(): number {
    return this.offset;
  }

  set offsetSeconds(v: number) {
    this.offset = Math.max(0, Math.floor(v));
  }
}

/**
 * The end of the billing period that starts at `start`: one interval later on the anchor's day of
 * the month (clamped to the month's length, as Stripe does: anchored on the 31st → 30 April).
 */
export function addInterval(start: number, interval: Interval, count: number, anchor: number): number {
  const s = new Date(start * 1000);
  const a = new Date(anchor * 1000);
  const months = (interval === "year" ? 12 : 1) * count;
  const total = s.getUTCMonth() + months;
  const year = s.getUTCFullYear() + Math.floor(total / 12);
  const month = ((total % 12) + 12) % 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const day = Math.min(a.getUTCDate(), lastDay);
  return Math.floor(
    Date.UTC(year, month, day, a.getUTCHours(), a.getUTCMinutes(), a.getUTCSeconds()) / 1000,
  );
}
