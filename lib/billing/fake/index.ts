// A stateful local fake of the parts of Stripe's API our billing code uses, for tests and for the
// app's embedded default. Point the real SDK at it:
//
//   const fake = await startFakeStripe({ webhookSecret: "whsec_test", webhookUrl: "http://127.0.0.1:3000/api/stripe/webhook" });
//   const stripe = new Stripe("sk_test_anything", fake.stripeOptions);
//
// See docs/stripe-fake.md for what it covers and the control API.

import type { AddressInfo } from "node:net";
import { completeSession, type CompleteResult } from "./checkout";
import { Clock } from "./clock";
import type { Core } from "./control";
import { AUTOMATIC, Engine, type Dunning } from "./engine";
import { FakeStripeError, invalid } from "./errors";
import { EventBus } from "./events";
import { advanceTo } from "./renewals";
import { startServer } from "./server";
import { Store, type StateData } from "./state";
import type { DeliveryAttempt, Invoice, StripeEvent, Subscription } from "./types";

export type { CompleteResult } from "./checkout";
export type { Dunning } from "./engine";
export type { StateData } from "./state";
export type * from "./types";
export { FakeStripeError } from "./errors";
export { CONTROL_ROUTES } from "./control";
export { PLANS } from "./seed";

export interface FakeStripeOptions {
  /** Port to listen on; 0 (the default) picks a free one. */
  port?: number;
  /** Interface to listen on (default 127.0.0.1). */
  host?: string;
  /** Where events are POSTed; none: events are only stored (GET /v1/events). */
  webhookUrl?: string;
  /** The endpoint secret events are signed with (the app's STRIPE_WEBHOOK_SECRET). */
  webhookSecret: string;
  /** Base of the URLs handed to browsers (checkout, portal, invoices) when it differs from `url`. */
  publicUrl?: string;
  /** The base of the fake's clock in unix seconds (milliseconds are recognised); default real time. */
  now?: () => number;
  /** "auto" (default): events go out in the background; "manual": only on deliverAll(). */
  deliver?: "auto" | "manual";
  /** Deliver each batch of events in random order (Stripe does not promise any order). */
  shuffle?: boolean;
  /** Retries after a failed delivery (default 3), `retryMs` × 2^n apart (default 100 ms). */
  retries?: number;
  retryMs?: number;
  /** Timeout of one delivery (default 10 s). */
  timeoutMs?: number;
  /** Keep the state in this JSON file (read at start, written debounced). */
  stateFile?: string;
  /** Failed-payment retries: days after the first failure, and the final step (default [3, 7, 14] then canceled). */
  dunning?: Partial<Dunning>;
  /** How often real time is checked for due renewals (ms, default 5000; 0: only on requests and advance). */
  tickMs?: number;
}

export interface FakeStripe {
  /** http://host:port of the fake (the API, the control API, the pages). */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  readonly protocol: "http";
  /** Base of browser-facing URLs (publicUrl, or url). */
  readonly publicUrl: string;
  /** `new Stripe(key, fake.stripeOptions)` talks to the fake. */
  readonly stripeOptions: { host: string; port: number; protocol: "http" };
  readonly clock: {
    /** The fake's time, unix seconds. */
    now(): number;
    /** Moves the clock forward, processing renewals, schedule phases, retries on the way. */
    advance(seconds: number): Promise<void>;
    advanceTo(unixSeconds: number): Promise<void>;
  };
  /** Every event emitted so far, oldest first. */
  readonly events: StripeEvent[];
  /** Delivery attempts of one event. */
  deliveries(eventId: string): DeliveryAttempt[];
  /** Resolves when every queued event has been delivered (or given up after its retries). */
  deliverAll(): Promise<void>;
  /** Queues the same event (same id and body) again. */
  resend(eventId: string): void;
  setWebhookUrl(url: string | undefined): void;
  /** What the checkout page's Pay (or "declined card") does. */
  completeCheckout(sessionId: string, opts?: { decline?: boolean }): CompleteResult;
  /** From now on this customer's charges fail (renewals, invoice pay), or succeed again. */
  failPayments(customerId: string, fail?: boolean): void;
  /** Pays an open invoice with a working card (the hosted invoice page's Pay). */
  payInvoice(invoiceId: string): Invoice;
  /** The end of dunning: the subscription becomes unpaid or canceled. */
  endSubscription(subscriptionId: string, status?: "canceled" | "unpaid"): Subscription;
  /** The live state (read it, don't write it). */
  readonly state: StateData;
  /** Forgets customers, subscriptions, events… (the catalogue stays). */
  reset(): Promise<void>;
  close(): Promise<void>;
}

export async function startFakeStripe(opts: FakeStripeOptions): Promise<FakeStripe> {
  if (!opts.webhookSecret) throw new Error("startFakeStripe: webhookSecret is required");
  const host = opts.host ?? "127.0.0.1";
  const store = new Store(opts.stateFile);
  const clock = new Clock(opts.now);
  clock.offsetSeconds = store.d.clockOffset;
  const bus = new EventBus(store, clock, {
    webhookUrl: opts.webhookUrl,
    webhookSecret: opts.webhookSecret,
    deliver: opts.deliver ?? "auto",
    shuffle: opts.shuffle ?? false,
    retries: opts.retries ?? 3,
    retryMs: opts.retryMs ?? 100,
    timeoutMs: opts.timeoutMs ?? 10_000,
  });
  let baseUrl = "";
  const engine = new Engine(store, clock, bus, {
    baseUrl: () => baseUrl,
    dunning: { retryDays: opts.dunning?.retryDays ?? [3, 7, 14], final: opts.dunning?.final ?? "canceled" },
  });

  const tick = () => advanceTo(engine, clock.now());
  const safeTick = () => {
    try {
      tick();
    } catch (err) {
      console.error("[fake-stripe] processing due renewals failed:", err);
    }
  };
  const core: Core = {
    e: engine,
    bus,
    advance: async (seconds) => advanceTo(engine, clock.now() + Math.max(0, Math.floor(seconds))),
    advanceTo: async (t) => advanceTo(engine, Math.floor(t)),
    reset: async () => {
      bus.clear();
      store.reset();
      clock.offsetSeconds = 0;
    },
  };

  const server = startServer(core, { tick });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host}:${port}`;
  const publicUrl = (opts.publicUrl ?? url).replace(/\/$/, "");
  baseUrl = publicUrl;

  const tickMs = opts.tickMs ?? 5000;
  const timer = tickMs > 0 ? setInterval(safeTick, tickMs) : null;
  timer?.unref();

  let closed: Promise<void> | null = null;
  const rethrow = <T>(f: () => T): T => {
    try {
      return f();
    } catch (err) {
      if (err instanceof FakeStripeError) throw new Error(`${err.message}`, { cause: err });
      throw err;
    }
  };

  return {
    url,
    host,
    port,
    protocol: "http",
    publicUrl,
    stripeOptions: { host: url.slice("http://".length).split(":")[0] as string, port, protocol: "http" },
    clock: {
      now: () => clock.now(),
      advance: (seconds) => core.advance(seconds),
      advanceTo: (t) => core.advanceTo(t),
    },
    get events() {
      return Object.values(store.d.events);
    },
    deliveries: (id) => bus.attempts(id),
    deliverAll: () => bus.deliverAll(),
    resend: (id) => {
      if (!store.d.events[id]) throw new Error(`No such event: ${id}`);
      if (!bus.resend(id)) throw new Error("No webhook URL is set: nowhere to resend to.");
    },
    setWebhookUrl: (u) => bus.setWebhookUrl(u),
    completeCheckout: (id, o) => rethrow(() => completeSession(engine, id, o)),
    failPayments: (id, fail = true) =>
      rethrow(() => {
        engine.customer(id);
        if (fail) store.d.failing[id] = true;
        else delete store.d.failing[id];
        store.changed();
      }),
    payInvoice: (id) =>
      rethrow(() => {
        const inv = engine.invoice(id);
        if (inv.status !== "open") throw invalid(`Invoice ${id} is ${inv.status}, not open.`);
        engine.payInvoice(inv, { ignoreFailing: true }, AUTOMATIC);
        return inv;
      }),
    endSubscription: (id, status = "canceled") =>
      rethrow(() => {
        const sub = engine.subscription(id);
        if (status === "unpaid") {
          const before = structuredClone(sub);
          sub.status = "unpaid";
          engine.emitUpdated(before, sub);
        } else engine.cancelSubscription(sub, AUTOMATIC, "payment_failed");
        return sub;
      }),
    get state() {
      return store.d;
    },
    reset: () => core.reset(),
    close: () =>
      (closed ??= (async () => {
        if (timer) clearInterval(timer);
        await bus.close();
        store.d.clockOffset = clock.offsetSeconds;
        store.flush();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
      })()),
  };
}
