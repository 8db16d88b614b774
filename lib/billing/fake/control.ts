// The control API under /_control: what a test or a person does to the fake that Stripe's API
// cannot (move the clock, make payments fail, deliver or resend events, pay a checkout without
// the page). JSON or form bodies; answers are JSON. No authentication (it listens locally).

import { completeSession } from "./checkout";
import { AUTOMATIC, type Engine } from "./engine";
import { invalid, missing } from "./errors";
import type { EventBus } from "./events";
import { Router } from "./http";

/** What the control routes act on (built by index.ts). */
export interface Core {
  e: Engine;
  bus: EventBus;
  advance(seconds: number): Promise<void>;
  advanceTo(t: number): Promise<void>;
  reset(): Promise<void>;
}

export type ControlHandler = (c: Core, body: Record<string, unknown>, args: Record<string, string>) => unknown;

const truthy = (v: unknown): boolean => v === true || v === "true" || v === "1" || v === 1;

function eventSummary(c: Core, id: string) {
  const ev = c.e.d.events[id];
  if (!ev) throw missing("evt", id);
  return {
    id: ev.id,
    type: ev.type,
    created: ev.created,
    object: ev.data.object.id,
    pending_webhooks: ev.pending_webhooks,
    deliveries: c.bus.attempts(ev.id),
  };
}

export const CONTROL_ROUTES = [
  "GET  /_control                         this list",
  "GET  /_control/clock                   { now, iso, offset }",
  "POST /_control/advance                 { seconds } or { to: unix }: runs renewals, schedules, retries on the way",
  "POST /_control/deliver                 waits until every queued event is delivered (or given up)",
  "GET  /_control/events                  ?type=… events, oldest first, with their delivery attempts",
  "POST /_control/events/:id/resend       the same event (same id) once more",
  "POST /_control/checkout/:id/complete   { decline?: bool }: what the page's Pay does",
  "POST /_control/customers/:id/fail      { fail: bool }: this customer's charges fail (renewals, invoice pay)",
  "POST /_control/invoices/:id/pay        pays an open invoice with a working card",
  "POST /_control/subscriptions/:id/cancel { status?: 'canceled' | 'unpaid' }: the end of dunning",
  "POST /_control/webhook                 { url }: where events go (empty: nowhere)",
  "POST /_control/reset                   forgets everything but the catalogue",
  "GET  /_control/state                   the whole state (JSON)",
];

export function controlRouter(): Router<ControlHandler> {
  const r = new Router<ControlHandler>();
  r.on("GET", "/_control", () => ({ routes: CONTROL_ROUTES }));
  r.on("GET", "/_control/clock", (c) => {
    const now = c.e.now();
    return { now, iso: new Date(now * 1000).toISOString(), offset: c.e.clock.offsetSeconds };
  });
  r.on("POST", "/_control/advance", async (c, b) => {
    if (b.to !== undefined) await c.advanceTo(Number(b.to));
    else {
      const seconds = Number(b.seconds ?? 0);
      if (!Number.isFinite(seconds) || seconds < 0) throw invalid("seconds must be a number ≥ 0", "seconds");
      await c.advance(seconds);
    }
    const now = c.e.now();
    return { now, iso: new Date(now * 1000).toISOString() };
  });
  r.on("POST", "/_control/deliver", async (c) => {
    await c.bus.deliverAll();
    return { pending: c.bus.pending };
  });
  r.on("GET", "/_control/events", (c, b) => {
    const type = typeof b.type === "string" ? b.type : undefined;
    return {
      data: Object.keys(c.e.d.events)
        .map((id) => eventSummary(c, id))
        .filter((ev) => !type || ev.type === type),
    };
  });
  r.on("POST", "/_control/events/:id/resend", (c, _b, a) => {
    const id = a.id as string;
    if (!c.e.d.events[id]) throw missing("evt", id);
    if (!c.bus.resend(id)) throw invalid("No webhook URL is set: nowhere to resend to.");
    return eventSummary(c, id);
  });
  r.on("POST", "/_control/checkout/:id/complete", (c, b, a) => {
    const r2 = completeSession(c.e, a.id as string, { decline: truthy(b.decline) });
    return { status: r2.status, redirect: r2.redirect, session: r2.session };
  });
  r.on("POST", "/_control/customers/:id/fail", (c, b, a) => {
    const customer = c.e.customer(a.id as string);
    const fail = b.fail === undefined ? true : truthy(b.fail);
    if (fail) c.e.d.failing[customer.id] = true;
    else delete c.e.d.failing[customer.id];
    c.e.changed();
    return { customer: customer.id, fail };
  });
  r.on("POST", "/_control/invoices/:id/pay", (c, _b, a) => {
    const inv = c.e.invoice(a.id as string);
    if (inv.status !== "open") throw invalid(`Invoice ${inv.id} is ${inv.status}, not open.`);
    c.e.payInvoice(inv, { ignoreFailing: true }, AUTOMATIC);
    return inv;
  });
  r.on("POST", "/_control/subscriptions/:id/cancel", (c, b, a) => {
    const sub = c.e.subscription(a.id as string);
    const status = b.status === undefined ? "canceled" : String(b.status);
    if (status === "unpaid") {
      if (sub.status === "canceled") throw invalid("The subscription is canceled already.");
      const before = structuredClone(sub);
      sub.status = "unpaid";
      c.e.emitUpdated(before, sub);
    } else if (status === "canceled") {
      c.e.cancelSubscription(sub, AUTOMATIC, "payment_failed");
    } else throw invalid("status must be canceled or unpaid", "status");
    return sub;
  });
  r.on("POST", "/_control/webhook", (c, b) => {
    const url = typeof b.url === "string" && b.url ? b.url : undefined;
    c.bus.setWebhookUrl(url);
    return { url: url ?? null };
  });
  r.on("POST", "/_control/reset", async (c) => {
    await c.reset();
    return { ok: true };
  });
  r.on("GET", "/_control/state", (c) => c.e.d);
  return r;
}
