import { sql } from "drizzle-orm";
import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { forgetAccount } from "@/lib/accounts/keys";
import { selectAccount } from "@/lib/accounts/queries/accounts";
import { billingSummary } from "@/lib/billing/summary";
import { rows } from "@/lib/db/client";
import { recentMail } from "@/lib/mail/outbox";
import { call } from "../helpers/api";
import { makeAccount, type TestAccount } from "../helpers/accounts";
import { sessionIdOf, useFakeStripe } from "../helpers/billing";
import { as, expectRefusal, operator, setCreditsUsed, setTrialExpiry, useAdminToken } from "../helpers/meter";

// Billing end to end against the local Stripe fake: the real SDK, signed webhooks delivered over
// HTTP to /v1/billing/webhook, and the account's plan moving only when they arrive (issue 12,
// SPEC.md States and transitions, CONTRACT.md §5).

useAdminToken();
const billing = useFakeStripe();
const DAY = 86_400;

const json = (body: unknown) => ({ body });

async function subscribe(acct: TestAccount, plan = "developer", interval = "month") {
  const a = await as(acct.key, "POST", "/v1/billing/checkout", json({ plan, interval }));
  expect(a.status, JSON.stringify(a.body)).toBe(200);
  const done = billing.fake.completeCheckout(sessionIdOf(a.body.data.url));
  expect(done.status).toBe("paid");
  await billing.fake.deliverAll();
  return done.session;
}

const me = async (acct: TestAccount) => (await as(acct.key, "GET", "/v1/me")).body.data;
const summary = async (acct: TestAccount) => {
  const a = await as(acct.key, "GET", "/v1/billing");
  expect(a.status, JSON.stringify(a.body)).toBe(200);
  return a.body.data;
};
const subscriptionOf = async (acct: TestAccount) =>
  (await rows<{ s: string; c: string }>(sql`select stripe_subscription_id as s, stripe_customer_id as c from accounts where id = ${acct.id}`))[0]!;

describe("POST /v1/billing/checkout", () => {
  it("answers a Stripe Checkout URL, costs nothing, makes the customer once, and changes nothing yet", async () => {
    const acct = await makeAccount({ confirmed: true });
    const first = await as(acct.key, "POST", "/v1/billing/checkout", json({ plan: "growth", interval: "year" }));
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.data.url).toMatch(new RegExp(`^${billing.fake.publicUrl}/checkout/cs_`));
    expect(first.h("x-credits-cost")).toBe("0");
    const second = await as(acct.key, "POST", "/v1/billing/checkout", json({ plan: "developer", interval: "month" }));
    expect(second.status).toBe(200);
    const customers = Object.values(billing.fake.state.customers).filter((c) => c.metadata.account_id === acct.id);
    expect(customers).toHaveLength(1);
    const session = billing.fake.state.sessions[sessionIdOf(first.body.data.url)]!;
    expect(session).toMatchObject({ client_reference_id: acct.id, customer: customers[0]!.id, metadata: { account_id: acct.id } });
    expect((await me(acct)).plan).toBe("trial");
  });

  it("bad bodies are 400 in the envelope; enterprise is refused with a next step to contact sales", async () => {
    const acct = await makeAccount({ confirmed: true });
    for (const body of [{}, { plan: "gold" }, { plan: "growth", interval: "week" }, { plan: "growth", extra: 1 }, "not json"]) {
      const a = await as(acct.key, "POST", "/v1/billing/checkout", json(body));
      expectRefusal(a, 400, "INVALID_PARAMETER");
    }
    const e = expectRefusal(await as(acct.key, "POST", "/v1/billing/checkout", json({ plan: "enterprise" })), 400, "INVALID_PARAMETER");
    expect(e).toMatchObject({ next_step: { action: "contact_sales" } });
  });

  it("answers after the trial's expiry; a trial that expired becomes a paid plan, its key unchanged", async () => {
    const acct = await makeAccount({ confirmed: true });
    await as(acct.key, "GET", "/v1/sets?limit=1");
    await setTrialExpiry(acct.id, new Date(Date.now() - 60_000).toISOString());
    forgetAccount(acct.id);
    expectRefusal(await as(acct.key, "GET", "/v1/sets?limit=1"), 403, "TRIAL_EXPIRED");
    await subscribe(acct, "developer", "month");
    const d = await me(acct);
    expect(d).toMatchObject({ plan: "developer", status: "active", billing_warning: null });
    expect(d.quota).not.toHaveProperty("trial_expires_at");
    // Used trial credits do not carry over: the plan's period starts at zero.
    expect(d.quota).toMatchObject({ credits_limit: 50_000, credits_used: 0, renews: true });
    const served = await as(acct.key, "GET", "/v1/sets?limit=1");
    expect(served.status).toBe(200);
    expect(served.h("x-trial-expires-at")).toBeNull();
    expect(served.h("x-quota-limit")).toBe("50000");
  });

  it("a subscription's plan has its own credits: an operator's negotiated limit of another plan goes", async () => {
    const acct = await makeAccount({ confirmed: true });
    await operator("POST", `/${acct.id}/plan`, { plan: "enterprise", credits_limit: 7 });
    await subscribe(acct, "developer", "month");
    expect((await me(acct)).quota).toMatchObject({ credits_limit: 50_000 });
  });

  it("a newer checkout expires the one still open: two tabs cannot both be paid", async () => {
    const acct = await makeAccount({ confirmed: true });
    const urls: string[] = [];
    for (const plan of ["growth", "developer"]) {
      const a = await as(acct.key, "POST", "/v1/billing/checkout", json({ plan, interval: "month" }));
      expect(a.status, JSON.stringify(a.body)).toBe(200);
      urls.push(a.body.data.url);
    }
    expect(billing.fake.completeCheckout(sessionIdOf(urls[0]!)).status).toBe("expired");
    expect(billing.fake.completeCheckout(sessionIdOf(urls[1]!)).status).toBe("paid");
    await billing.fake.deliverAll();
    expect((await me(acct)).plan).toBe("developer");
  });

  it("a customer deleted in Stripe is replaced, not a 500", async () => {
    const acct = await makeAccount({ confirmed: true });
    await rows(sql`update accounts set stripe_customer_id = ${`cus_gone_${acct.id}`} where id = ${acct.id}`);
    const a = await as(acct.key, "POST", "/v1/billing/checkout", json({ plan: "developer" }));
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    const { c } = await subscriptionOf(acct);
    expect(c).not.toBe(`cus_gone_${acct.id}`);
    expect(billing.fake.state.customers[c]).toBeTruthy();
  });

  it("one subscription per account: a second checkout is 409 SUBSCRIPTION_EXISTS", async () => {
    const acct = await makeAccount({ confirmed: true });
    await subscribe(acct);
    const e = expectRefusal(await as(acct.key, "POST", "/v1/billing/checkout", json({ plan: "growth" })), 409, "SUBSCRIPTION_EXISTS");
    expect(e).toMatchObject({ next_step: { action: "change_plan" } });
  });
});

describe("POST /v1/billing/webhook", () => {
  it("a body whose signature does not verify is 400 INVALID_SIGNATURE and changes nothing", async () => {
    const acct = await makeAccount({ confirmed: true });
    const body = JSON.stringify({ id: "evt_forged", object: "event", type: "customer.subscription.updated", data: { object: { id: "sub_x", metadata: { account_id: acct.id } } } });
    for (const signature of [undefined, "t=1,v1=deadbeef", `t=${Math.floor(Date.now() / 1000)},v1=${"0".repeat(64)}`]) {
      const res = await call("POST", "/v1/billing/webhook", { anonymous: true, body, headers: { "content-type": "application/json", ...(signature ? { "stripe-signature": signature } : {}) } });
      expect(res.status).toBe(400);
      expect((await res.json()).error.code).toBe("INVALID_SIGNATURE");
    }
    expect((await me(acct)).plan).toBe("trial");
  });

  it("a body past a megabyte is 413 before any of it is verified", async () => {
    const body = JSON.stringify({ id: "evt_big", pad: "x".repeat(1_100_000) });
    const res = await call("POST", "/v1/billing/webhook", { anonymous: true, body, headers: { "content-type": "application/json", "stripe-signature": "t=1,v1=00" } });
    expect(res.status).toBe(413);
    expect((await res.json()).error.code).toBe("PAYLOAD_TOO_LARGE");
  });

  it("each event is applied once: a resent event answers 200 duplicate", async () => {
    const acct = await makeAccount({ confirmed: true });
    await subscribe(acct);
    const event = billing.fake.events.find((e) => e.type === "checkout.session.completed" && (e.data.object as { client_reference_id?: string }).client_reference_id === acct.id)!;
    billing.received.length = 0;
    billing.fake.resend(event.id);
    await billing.fake.deliverAll();
    expect(billing.received.map((r) => JSON.parse(r.body))).toEqual([expect.objectContaining({ event: event.id, applied: false, reason: "duplicate" })]);
    const [row] = await rows<{ state: string; attempts: number }>(sql`select state, attempts from billing_events where id = ${event.id}`);
    expect(row).toEqual({ state: "done", attempts: 1 });
  });

  it("an event stuck in processing is taken again once its lease ran out, not before", async () => {
    const acct = await makeAccount({ confirmed: true });
    await subscribe(acct);
    const event = billing.fake.events.find((e) => e.type === "customer.subscription.created" && (e.data.object as { metadata?: Record<string, string> }).metadata?.account_id === acct.id)!;
    await rows(sql`update billing_events set state = 'processing', lease_until = now() + interval '2 minutes' where id = ${event.id}`);
    billing.received.length = 0;
    billing.fake.resend(event.id);
    await billing.fake.deliverAll();
    expect(billing.received[0]!.status).toBe(503);
    await rows(sql`update billing_events set lease_until = now() - interval '1 second' where id = ${event.id}`);
    billing.received.length = 0;
    billing.fake.resend(event.id);
    await billing.fake.deliverAll();
    expect(JSON.parse(billing.received.at(-1)!.body)).toMatchObject({ applied: true });
    expect((await rows<{ state: string }>(sql`select state from billing_events where id = ${event.id}`))[0]!.state).toBe("done");
  });

  it("events it does not handle are acknowledged with 200, and recorded nowhere", async () => {
    const payload = JSON.stringify({ id: `evt_unhandled_${Date.now()}`, object: "event", type: "customer.created", data: { object: { id: "cus_x", object: "customer" } } });
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: billing.secret });
    const res = await call("POST", "/v1/billing/webhook", { anonymous: true, body: payload, headers: { "content-type": "application/json", "stripe-signature": signature } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ received: true, applied: false, reason: "not_handled" });
    expect(await rows(sql`select 1 from billing_events where id = ${JSON.parse(payload).id}`)).toHaveLength(0);
  });
});

describe("the life of a subscription", () => {
  it("upgrade: at once, prorated and invoiced now, the new credits available at once", async () => {
    const acct = await makeAccount({ confirmed: true });
    await subscribe(acct, "developer");
    await setCreditsUsed(acct.id, 40_000);
    const a = await as(acct.key, "POST", "/v1/billing/subscription", json({ plan: "growth", interval: "month" }));
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    expect(a.body.data.change).toBe("now");
    await billing.fake.deliverAll();
    const d = await me(acct);
    expect(d.plan).toBe("growth");
    expect(d.quota).toMatchObject({ credits_limit: 200_000, credits_used: 40_000, credits_remaining: 160_000 });
    const served = await as(acct.key, "GET", "/v1/sets?limit=1");
    expect(served.h("x-quota-limit")).toBe("200000");
    const invoices = (await as(acct.key, "GET", "/v1/billing/invoices")).body;
    expect(invoices.data.length).toBe(2);
    expect(invoices.meta).toMatchObject({ limit: 50, count: 2, has_more: false });
    expect(invoices.data[0]).toMatchObject({ status: "paid", currency: "eur" });
    expect(invoices.data[0].amount_paid).toBeGreaterThan(0);
    expect(invoices.data[0].amount_paid).toBeLessThanOrEqual(7000);
    expect(invoices.data[0].hosted_invoice_url).toMatch(/^http/);
  });

  it("downgrade: waits for the period's end through a schedule, then applies", async () => {
    const acct = await makeAccount({ confirmed: true });
    await subscribe(acct, "professional");
    const a = await as(acct.key, "POST", "/v1/billing/subscription", json({ plan: "developer", interval: "month" }));
    expect(a.body.data.change).toBe("at_period_end");
    await billing.fake.deliverAll();
    const before = await summary(acct);
    expect(before).toMatchObject({ plan: "professional", scheduled_change: { plan: "developer", interval: "month" } });
    expect(Date.parse(before.scheduled_change.at)).toBe(Date.parse(before.current_period_end));
    await billing.fake.clock.advanceTo(Math.floor(Date.parse(before.current_period_end) / 1000) + 60);
    await billing.fake.deliverAll();
    const after = await summary(acct);
    expect(after).toMatchObject({ plan: "developer", status: "active", scheduled_change: null });
    expect(Date.parse(after.current_period_end)).toBeGreaterThan(Date.parse(before.current_period_end));
  });

  it("a schedule's own event shows the waiting downgrade, whatever order the events came in", async () => {
    const acct = await makeAccount({ confirmed: true });
    await subscribe(acct, "growth");
    await as(acct.key, "POST", "/v1/billing/subscription", json({ plan: "developer", interval: "month" }));
    await billing.fake.deliverAll();
    // As if the subscription's event had been read before the schedule had its second phase.
    await rows(sql`update accounts set scheduled_plan = null, scheduled_interval = null, scheduled_at = null where id = ${acct.id}`);
    const { s: sub } = await subscriptionOf(acct);
    const event = billing.fake.events.filter((e) => e.type === "subscription_schedule.updated" && (e.data.object as { subscription?: string }).subscription === sub).at(-1)!;
    await rows(sql`delete from billing_events where id = ${event.id}`);
    billing.received.length = 0;
    billing.fake.resend(event.id);
    await billing.fake.deliverAll();
    expect(await summary(acct)).toMatchObject({ plan: "growth", scheduled_change: { plan: "developer" } });
  });

  it("cancel at the period's end and reactivate before it; then cancel for good: PLAN_REQUIRED, never a trial", async () => {
    const acct = await makeAccount({ confirmed: true });
    await subscribe(acct, "growth");
    const cancel = await as(acct.key, "POST", "/v1/billing/cancel", json({ cancel_at_period_end: true }));
    expect(cancel.body.data.cancel_at_period_end).toBe(true);
    await billing.fake.deliverAll();
    expect(await summary(acct)).toMatchObject({ cancel_at_period_end: true, status: "active" });
    expect((await as(acct.key, "GET", "/v1/sets?limit=1")).status).toBe(200);
    await as(acct.key, "POST", "/v1/billing/cancel", json({ cancel_at_period_end: false }));
    await billing.fake.deliverAll();
    expect(await summary(acct)).toMatchObject({ cancel_at_period_end: false });

    await as(acct.key, "POST", "/v1/billing/cancel", json({ cancel_at_period_end: true }));
    await billing.fake.deliverAll();
    const end = (await summary(acct)).current_period_end;
    await billing.fake.clock.advanceTo(Math.floor(Date.parse(end) / 1000) + 60);
    await billing.fake.deliverAll();
    const d = await me(acct);
    expect(d).toMatchObject({ plan: "growth", status: "canceled", billing_warning: { code: "CANCELED" } });
    const refused = await as(acct.key, "GET", "/v1/sets?limit=1");
    const e = expectRefusal(refused, 403, "PLAN_REQUIRED");
    expect(e).toMatchObject({ status: "canceled", next_step: { action: "subscribe", checkout: "POST /v1/billing/checkout" } });
    expect(refused.h("ratelimit-limit")).toBeNull();
    // Zero-cost routes answer, and subscribing again is open.
    expect((await as(acct.key, "GET", "/v1/keys")).status).toBe(200);
    expect((await as(acct.key, "POST", "/v1/billing/checkout", json({ plan: "developer" }))).status).toBe(200);
  });

  it("a failed payment: served for 7 days with a warning and one mail, then suspended until the invoice is paid", async () => {
    const acct = await makeAccount({ confirmed: true });
    await subscribe(acct, "developer");
    const { c: customer } = await subscriptionOf(acct);
    billing.fake.failPayments(customer, true);
    const end = (await summary(acct)).current_period_end;
    await billing.fake.clock.advanceTo(Math.floor(Date.parse(end) / 1000) + 60);
    await billing.fake.deliverAll();

    const d = await me(acct);
    expect(d.status).toBe("past_due");
    expect(d.billing_warning).toMatchObject({ code: "PAYMENT_FAILED" });
    expect(d.billing_warning.invoice_url).toMatch(/^http/);
    expect((await as(acct.key, "GET", "/v1/sets?limit=1")).status).toBe(200);
    const mails = (await recentMail(20, acct.email)).filter((m) => m.kind === "payment_failed");
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain(d.billing_warning.invoice_url);

    // Seven days on (the grace is a clock, not a job).
    await rows(sql`update accounts set past_due_since = now() - interval '7 days 1 minute' where id = ${acct.id}`);
    forgetAccount(acct.id);
    const refused = await as(acct.key, "GET", "/v1/sets?limit=1");
    const e = expectRefusal(refused, 403, "PLAN_REQUIRED");
    expect(e).toMatchObject({ status: "suspended", next_step: { action: "pay_invoice", invoice_url: d.billing_warning.invoice_url } });
    expect((await as(acct.key, "GET", "/v1/me")).status).toBe(200);
    expect((await me(acct)).billing_warning.code).toBe("SUSPENDED");

    billing.fake.failPayments(customer, false);
    const open = Object.values(billing.fake.state.invoices).find((i) => i.customer === customer && i.status === "open")!;
    billing.fake.payInvoice(open.id);
    await billing.fake.deliverAll();
    expect(await me(acct)).toMatchObject({ status: "active", billing_warning: null });
    expect((await as(acct.key, "GET", "/v1/sets?limit=1")).status).toBe(200);
  });

  it("a deleted subscription stops credited routes at once", async () => {
    const acct = await makeAccount({ confirmed: true });
    await subscribe(acct, "growth");
    billing.fake.endSubscription((await subscriptionOf(acct)).s, "canceled");
    await billing.fake.deliverAll();
    expectRefusal(await as(acct.key, "GET", "/v1/sets?limit=1"), 403, "PLAN_REQUIRED");
    expect((await me(acct)).plan).not.toBe("trial");
  });

  it("a yearly plan counts credits by the month", async () => {
    const acct = await makeAccount({ confirmed: true });
    await subscribe(acct, "growth", "year");
    const s = await summary(acct);
    expect(s).toMatchObject({ plan: "growth", interval: "year" });
    const start = new Date(Date.parse(s.current_period_end));
    start.setUTCFullYear(start.getUTCFullYear() - 1);
    const monthEnd = new Date(start);
    monthEnd.setUTCMonth(monthEnd.getUTCMonth() + 1);
    expect(Math.abs(Date.parse(s.credits_reset_at) - monthEnd.getTime())).toBeLessThan(3 * DAY * 1000);
    expect((await me(acct)).quota).toMatchObject({ credits_limit: 200_000, resets_at: s.credits_reset_at });
  });
});

describe("GET /v1/billing, invoices and the portal", () => {
  it("the summary shows the card and the next invoice; the portal is a URL", async () => {
    const acct = await makeAccount({ confirmed: true });
    const none = await summary(acct);
    expect(none).toMatchObject({ plan: "trial", payment_method: null, next_invoice: null });
    await subscribe(acct, "developer");
    const s = await summary(acct);
    expect(s).toMatchObject({ plan: "developer", interval: "month", status: "active", standing: "ok", cancel_at_period_end: false });
    expect(s.payment_method).toMatchObject({ last4: "4242" });
    expect(s.next_invoice).toMatchObject({ amount_due: 2900, currency: "eur" });
    const portal = await as(acct.key, "POST", "/v1/billing/portal");
    expect(portal.status).toBe(200);
    expect(portal.body.data.url).toMatch(/^http/);
  });

  it("invoices page with links.next, and a foreign cursor is INVALID_CURSOR", async () => {
    const acct = await makeAccount({ confirmed: true });
    await subscribe(acct, "developer");
    await as(acct.key, "POST", "/v1/billing/subscription", json({ plan: "growth", interval: "month" }));
    await billing.fake.deliverAll();
    const first = await as(acct.key, "GET", "/v1/billing/invoices?limit=1");
    expect(first.body.meta).toMatchObject({ limit: 1, count: 1, has_more: true });
    const next = await as(acct.key, "GET", first.body.links.next.replace(/^https?:\/\/[^/]+/, ""));
    expect(next.body.data[0].id).not.toBe(first.body.data[0].id);
    expect(next.body.meta.has_more).toBe(false);
    expect(next.body.links.next).toBeUndefined();
    expectRefusal(await as(acct.key, "GET", "/v1/billing/invoices?cursor=%00"), 400, "INVALID_CURSOR");
    // Well formed, but naming no invoice of the account (made up, or another account's): it was
    // Stripe's resource_missing as 503 BILLING_UNAVAILABLE, and an empty page without a customer.
    const other = await makeAccount({ confirmed: true });
    await subscribe(other, "developer");
    const theirs: string = (await as(other.key, "GET", "/v1/billing/invoices")).body.data[0].id;
    for (const id of ["in_doesnotexist123", theirs]) {
      const cursor = Buffer.from(JSON.stringify({ a: id })).toString("base64url");
      expectRefusal(await as(acct.key, "GET", `/v1/billing/invoices?cursor=${cursor}`), 400, "INVALID_CURSOR");
      expectRefusal(await as((await makeAccount({ confirmed: true })).key, "GET", `/v1/billing/invoices?cursor=${cursor}`), 400, "INVALID_CURSOR");
    }
  });

  it("the summary's standing and grace come from the same read as its status, not from an older copy of the account", async () => {
    const acct = await makeAccount({ confirmed: true });
    // The copy a page or a key held before the payment-failed webhook landed.
    const before = (await selectAccount(acct.id))!;
    await rows(sql`update accounts set status = 'past_due', past_due_since = now() where id = ${acct.id}`);
    const s = await billingSummary(before);
    expect(s).toMatchObject({ status: "past_due", standing: "grace" });
    expect(Date.parse(s.grace_ends_at!)).toBeGreaterThan(Date.now());
  });

  it("changing a plan without a subscription is 404 SUBSCRIPTION_NOT_FOUND", async () => {
    const acct = await makeAccount({ confirmed: true });
    expectRefusal(await as(acct.key, "POST", "/v1/billing/subscription", json({ plan: "growth" })), 404, "SUBSCRIPTION_NOT_FOUND");
    expectRefusal(await as(acct.key, "POST", "/v1/billing/cancel", json({ cancel_at_period_end: true })), 404, "SUBSCRIPTION_NOT_FOUND");
  });
});
