// Events and their delivery to the webhook endpoint, signed the way Stripe signs them.
//
// Every emitted event is stored (GET /v1/events) and, when a webhook URL is set, queued. The queue
// is delivered in the background (deliver: "auto") or only when asked (deliver: "manual");
// deliverAll() resolves once the queue is empty, retries and give-ups included. A non-2xx answer
// or a network failure is retried `retries` times, `retryMs` × 2^n apart.

import Stripe from "stripe";
import type { Clock } from "./clock";
import { newId } from "./ids";
import type { Store } from "./state";
import type { DeliveryAttempt, RequestInfo, StripeEvent, StripeObject } from "./types";

export const API_VERSION = Stripe.API_VERSION;

export interface DeliveryOptions {
  webhookUrl?: string;
  webhookSecret: string;
  deliver: "auto" | "manual";
  shuffle: boolean;
  retries: number;
  retryMs: number;
  timeoutMs: number;
}

interface Queued {
  id: string;
  /** Real time (ms) before which the next attempt must not start. */
  due: number;
  attempt: number;
  resend: boolean;
}

const MAX_EVENTS = 10_000;

const AUTOMATIC: RequestInfo = { id: null, idempotency_key: null };

export class EventBus {
  private queue: Queued[] = [];
  private pumping: Promise<void> | null = null;
  private flushing = 0;
  private closed = false;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    readonly opts: DeliveryOptions,
  ) {}

  emit(type: string, object: StripeObject, previous?: Record<string, unknown>, request: RequestInfo = AUTOMATIC): StripeEvent {
    const event: StripeEvent = {
      id: newId("evt"),
      object: "event",
      api_version: API_VERSION,
      created: this.clock.now(),
      data: previous ? { object: structuredClone(object), previous_attributes: structuredClone(previous) } : { object: structuredClone(object) },
      livemode: false,
      pending_webhooks: this.opts.webhookUrl ? 1 : 0,
      request: { ...request },
      type,
    };
    this.store.d.events[event.id] = event;
    this.prune();
    this.store.changed();
    if (this.opts.webhookUrl) this.enqueue(event.id, false);
    return event;
  }

  /** Keeps the newest MAX_EVENTS events (a long-running embedded fake would grow its state file). */
  private prune(): void {
    const ids = Object.keys(this.store.d.events);
    if (ids.length <= MAX_EVENTS) return;
    const queued = new Set(this.queue.map((q) => q.id));
    for (const id of ids.slice(0, ids.length - MAX_EVENTS)) {
      if (queued.has(id)) continue;
      delete this.store.d.events[id];
      delete this.store.d.deliveries[id];
    }
  }

  /** Sends a stored event again, same id and body (Stripe's "Resend" in the dashboard). */
  resend(id: string): boolean {
    const event = this.store.d.events[id];
    if (!event || !this.opts.webhookUrl) return false;
    event.pending_webhooks += 1;
    this.enqueue(id, true);
    return true;
  }

  setWebhookUrl(url: string | undefined): void {
    this.opts.webhookUrl = url;
  }

  get pending(): number {
    return this.queue.length;
  }

  attempts(id: string): DeliveryAttempt[] {
    return this.store.d.deliveries[id] ?? [];
  }

  /** Resolves when nothing is left to deliver (in manual mode: delivers everything first). */
  async deliverAll(): Promise<void> {
    this.flushing += 1;
    try {
      this.kick();
      while (this.pumping) await this.pumping;
    } finally {
      this.flushing -= 1;
    }
  }

  clear(): void {
    this.queue = [];
  }

  async close(): Promise<void> {
    this.closed = true;
    this.queue = [];
    while (this.pumping) await this.pumping;
  }

  private enqueue(id: string, resend: boolean): void {
    this.queue.push({ id, due: 0, attempt: 0, resend });
    this.kick();
  }

  private kick(): void {
    if (this.closed || this.pumping || this.queue.length === 0) return;
    if (this.opts.deliver !== "auto" && this.flushing === 0) return;
    this.pumping = this.pump()
      .catch((err: unknown) => console.error("[fake-stripe] event delivery failed:", err))
      .finally(() => {
        this.pumping = null;
        this.kick(); // an event queued as the loop ended
      });
  }

  private async pump(): Promise<void> {
    // Let the rest of the current operation queue its events first (one batch: checkout's three).
    await new Promise((r) => setImmediate(r));
    while (!this.closed && this.queue.length > 0) {
      if (this.opts.deliver !== "auto" && this.flushing === 0) return;
      const now = Date.now();
      const due = this.queue.filter((q) => q.due <= now);
      if (due.length === 0) {
        const wait = Math.min(...this.queue.map((q) => q.due)) - now;
        await new Promise((r) => setTimeout(r, Math.max(1, Math.min(wait, 50))));
        continue;
      }
      this.queue = this.queue.filter((q) => q.due > now);
      if (this.opts.shuffle) shuffle(due);
      for (const item of due) {
        if (this.closed) return;
        await this.attempt(item);
      }
    }
  }

  private async attempt(item: Queued): Promise<void> {
    const event = this.store.d.events[item.id];
    const url = this.opts.webhookUrl;
    if (!event || !url) return;
    const payload = JSON.stringify(event, null, 2);
    // Signed with real time, not the fake clock: receivers check the timestamp against their own clock.
    const header = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: this.opts.webhookSecret,
      timestamp: Math.floor(Date.now() / 1000),
    });
    const started = Date.now();
    const record: DeliveryAttempt = { at: started, status: null, ms: 0 };
    if (item.resend) record.resend = true;
    try {
      const res = await fetch(url, {
        method: "POST",
        headers: {
          "content-type": "application/json; charset=utf-8",
          "user-agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)",
          "stripe-signature": header,
        },
        body: payload,
        signal: AbortSignal.timeout(this.opts.timeoutMs),
      });
      await res.arrayBuffer().catch(() => undefined);
      record.status = res.status;
    } catch (e) {
      record.error = e instanceof Error ? e.message : String(e);
    }
    record.ms = Date.now() - started;
    (this.store.d.deliveries[item.id] ??= []).push(record);
    const ok = record.status !== null && record.status >= 200 && record.status < 300;
    if (ok) {
      event.pending_webhooks = Math.max(0, event.pending_webhooks - 1);
    } else if (item.attempt < this.opts.retries && !this.closed) {
      this.queue.push({ ...item, attempt: item.attempt + 1, due: Date.now() + this.opts.retryMs * 2 ** item.attempt });
    } else {
      event.pending_webhooks = Math.max(0, event.pending_webhooks - 1);
    }
    this.store.changed();
  }
}

function shuffle<T>(a: T[]): void {
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [a[i], a[j]] = [a[j] as T, a[i] as T];
  }
}

/** The top-level fields of `after` that differ from `before`, with their old values (previous_attributes). */
export function changedFields(before: Record<string, unknown>, after: Record<string, unknown>): Record<string, unknown> | null {
  const prev: Record<string, unknown> = {};
  for (const k of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (JSON.stringify(before[k]) !== JSON.stringify(after[k])) prev[k] = before[k] ?? null;
  }
  return Object.keys(prev).length ? prev : null;
}
