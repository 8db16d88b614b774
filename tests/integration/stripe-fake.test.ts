// The local Stripe fake (lib/billing/fake) driven through the real `stripe` SDK: the checkout
// paid over HTTP on its page, signed webhooks verified by constructEvent, price changes,
// schedules, renewals on an advanced clock, failing payments, previews, the portal, resends.

import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeStripe, type FakeStripe } from "@/lib/billing/fake";

const SECRET = "whsec_fake_stripe_test";
const DAY = 86400;

interface Received {
  event: Stripe.Event;
  raw: string;
}

/** A webhook endpoint like the app's: raw body, constructEvent, 400 when the signature is wrong. */
async function startReceiver() {
  const received: Received[] = [];
  const rejected: string[] = [];
  const plan = { failNext: 0 };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      if (plan.failNext > 0) {
        plan.failNext -= 1;
        res.writeHead(500).end("try again");
        return;
      }
      try {
        const event = Stripe.webhooks.constructEvent(raw, String(req.headers["stripe-signature"]), SECRET);
        received.push({ event, raw });
        res.writeHead(200, { "content-type": "application/json" }).end('{"received":true}');
      } catch (e) {
        rejected.push(e instanceof Error ? e.message : String(e));
        res.writeHead(400).end("bad signature");
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook`;
  return { server, url, received, rejected, plan };
}

let fake: FakeStripe;
let stripe: Stripe;
let rx: Awaited<ReturnType<typeof startReceiver>>;

/** Events received about these objects, in the order they arrived. */
function eventsFor(...ids: (string | null | undefined)[]): Stripe.Event[] {
  return rx.received.map((r) => r.event).filter((e) => ids.includes((e.data.object as { id?: string }).id));
}

async function priceId(lookupKey: string): Promise<string> {
  const list = await stripe.prices.list({ lookup_keys: [lookupKey] });
  const price = list.data[0];
  if (!price) throw new Error(`no price ${lookupKey}`);
  return price.id;
}

/** Customer → checkout session → the page's Pay form posted over HTTP → the subscription. */
async function subscribe(lookupKey: string, email = `u${Math.random().toString(36).slice(2)}@example.com`) {
  const customer = await stripe.customers.create({ email, metadata: { account: "acct_1" } });
  const session = await stripe.checkout.sessions.create({
    mode: "subscription",
    customer: customer.id,
    client_reference_id: "acct_1",
    line_items: [{ price: await priceId(lookupKey), quantity: 1 }],
    success_url: "http://app.test/billing/success?session={CHECKOUT_SESSION_ID}",
    cancel_url: "http://app.test/billing",
    metadata: { account: "acct_1" },
    subscription_data: { metadata: { account: "acct_1" } },
  });
  const page = await fetch(session.url as string);
  const html = await page.text();
  const action = /<form method="post" action="([^"]+\/pay)"/.exec(html)?.[1];
  if (!action) throw new Error("no pay form on the checkout page");
  const paid = await fetch(action.replace(/&amp;/g, "&"), {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "card=4242424242424242",
    redirect: "manual",
  });
  expect(paid.status).toBe(303);
  expect(paid.headers.get("location")).toBe(`http://app.test/billing/success?session=${session.id}`);
  await fake.deliverAll();
  const done = await stripe.checkout.sessions.retrieve(session.id);
  const sub = await stripe.subscriptions.retrieve(done.subscription as string);
  return { customer, session: done, sub, html };
}

beforeAll(async () => {
  rx = await startReceiver();
  fake = await startFakeStripe({ webhookUrl: rx.url, webhookSecret: SECRET, retryMs: 5, tickMs: 0 });
  stripe = new Stripe("sk_test_fake", { ...fake.stripeOptions, maxNetworkRetries: 0 });
});

afterAll(async () => {
  await fake?.close();
  await new Promise((r) => rx?.server.close(r));
});

describe("catalogue, customers, errors", () => {
  it("finds the six seeded prices by lookup_key, with their products", async () => {
    const keys = ["developer", "growth", "professional"].flatMap((p) => [`${p}_month`, `${p}_year`]);
    const list = await stripe.prices.list({ lookup_keys: keys, active: true, expand: ["data.product"] });
    expect(list.object).toBe("list");
    expect(list.data).toHaveLength(6);
    const growth = list.data.find((p) => p.lookup_key === "growth_month");
    expect(growth).toMatchObject({ currency: "eur", unit_amount: 9900, recurring: { interval: "month" } });
    expect((growth?.product as Stripe.Product).name).toBe("Growth");
    const yearly = list.data.find((p) => p.lookup_key === "professional_year");
    expect(yearly?.unit_amount).toBe(249000);
    expect(yearly?.recurring?.interval).toBe("year");
    expect(list.data.every((p) => p.id.startsWith("price_") && p.livemode === false)).toBe(true);
  });

  it("creates, updates and finds customers; answers Stripe's errors", async () => {
    const c = await stripe.customers.create({ email: "find-me@example.com", name: "Ash", metadata: { account: "a1" } });
    expect(c.id).toMatch(/^cus_/);
    await stripe.customers.update(c.id, { metadata: { account: "a2" } });
    const found = await stripe.customers.list({ email: "find-me@example.com" });
    expect(found.data.map((x) => x.id)).toEqual([c.id]);
    expect(found.data[0]?.metadata.account).toBe("a2");

    await expect(stripe.customers.retrieve("cus_nope")).rejects.toMatchObject({
      type: "StripeInvalidRequestError",
      statusCode: 404,
      code: "resource_missing",
    });
    await expect(stripe.customers.create({ nonsense: 1 } as never)).rejects.toMatchObject({ code: "parameter_unknown" });

    const noKey = await fetch(`${fake.url}/v1/customers`);
    expect(noKey.status).toBe(401);
    const unknown = await fetch(`${fake.url}/v1/teapots`, { headers: { authorization: "Bearer sk_test_x" } });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { type: string } }).error.type).toBe("invalid_request_error");
    const elsewhere = await fetch(`${fake.url}/nowhere`);
    expect(elsewhere.status).toBe(404);
    expect(((await elsewhere.json()) as { error: { message: string } }).error.message).toContain("Unrecognized request URL");
  });
});

describe("only under this machine's names", () => {
  // A page whose domain was rebound to 127.0.0.1 would reach the fake from a browser under its own name.
  const get = (path: string, host: string) => new Promise<number>((resolve, reject) => {
    const u = new URL(fake.url);
    http.get({ hostname: u.hostname, port: u.port, path, headers: { host } }, (res) => {
      res.resume();
      resolve(res.statusCode!);
    }).on("error", reject);
  });

  it("refuses a request that names another host, and serves localhost and 127.0.0.1", async () => {
    expect(await get("/_control", "rebind.evil.example:3601")).toBe(421);
    expect(await get("/v1/customers", "rebind.evil.example")).toBe(421);
    expect(await get("/_control", `localhost:${new URL(fake.url).port}`)).toBe(200);
    expect(await get("/_control", `127.0.0.1:${new URL(fake.url).port}`)).toBe(200);
  });
});

describe("checkout", () => {
  it("pays on the hosted page; three events arrive signed, in order; the subscription is complete", async () => {
    const { customer, session, sub, html } = await subscribe("growth_month");
    expect(html).toContain("Growth");
    expect(html).toContain("€99.00");
    expect(session).toMatchObject({ status: "complete", payment_status: "paid", customer: customer.id });

    const types = eventsFor(session.id, sub.id, session.invoice as string).map((e) => e.type);
    expect(types).toEqual(["checkout.session.completed", "customer.subscription.created", "invoice.paid"]);
    for (const r of rx.received) expect(r.event.api_version).toBe(Stripe.API_VERSION);
    expect(rx.rejected).toEqual([]);

    const full = await stripe.subscriptions.retrieve(sub.id, { expand: ["default_payment_method", "latest_invoice"] });
    expect(full.status).toBe("active");
    expect(full.metadata.account).toBe("acct_1");
    const item = full.items.data[0] as Stripe.SubscriptionItem;
    expect(item.price.lookup_key).toBe("growth_month");
    expect(item.current_period_end - item.current_period_start).toBeGreaterThanOrEqual(28 * DAY);
    const pm = full.default_payment_method as Stripe.PaymentMethod;
    expect(pm.card).toMatchObject({ brand: "visa", last4: "4242" });
    const inv = full.latest_invoice as Stripe.Invoice;
    expect(inv).toMatchObject({ status: "paid", amount_paid: 9900, billing_reason: "subscription_create" });
    expect(inv.parent?.subscription_details?.subscription).toBe(sub.id);
    expect(inv.hosted_invoice_url).toBe(`${fake.publicUrl}/invoices/${inv.id}`);
    const pdf = await fetch(inv.invoice_pdf as string);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect((await pdf.text()).startsWith("%PDF-1.4")).toBe(true);

    const c = await stripe.customers.retrieve(customer.id);
    expect((c as Stripe.Customer).invoice_settings.default_payment_method).toBe(pm.id);
    const expanded = await stripe.checkout.sessions.retrieve(session.id, { expand: ["subscription", "line_items"] });
    expect((expanded.subscription as Stripe.Subscription).id).toBe(sub.id);
    expect(expanded.line_items?.data[0]?.price?.lookup_key).toBe("growth_month");
  });

  it("a declined card leaves the session open; Cancel goes back to cancel_url", async () => {
    const customer = await stripe.customers.create({ email: "declined@example.com" });
    const session = await stripe.checkout.sessions.create({
      mode: "subscription",
      customer: customer.id,
      line_items: [{ price: await priceId("developer_month"), quantity: 1 }],
      success_url: "http://app.test/ok",
      cancel_url: "http://app.test/cancelled",
    });
    const declined = await fetch(`${session.url}/pay`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "card=4000000000000002",
      redirect: "manual",
    });
    expect(declined.status).toBe(402);
    expect(await declined.text()).toContain("Your card was declined.");
    expect((await stripe.checkout.sessions.retrieve(session.id)).status).toBe("open");
    const cancel = await fetch(`${session.url}/cancel`, { method: "POST", redirect: "manual" });
    expect(cancel.status).toBe(303);
    expect(cancel.headers.get("location")).toBe("http://app.test/cancelled");
  });
});

describe("subscription changes", () => {
  it("an upgrade with always_invoice bills the prorated difference at once", async () => {
    const { sub } = await subscribe("developer_month");
    await fake.clock.advance(10 * DAY);
    const item = sub.items.data[0] as Stripe.SubscriptionItem;
    const updated = await stripe.subscriptions.update(sub.id, {
      items: [{ id: item.id, price: await priceId("growth_month") }],
      proration_behavior: "always_invoice",
      expand: ["latest_invoice"],
    });
    await fake.deliverAll();
    expect(updated.items.data[0]?.price.lookup_key).toBe("growth_month");
    const inv = updated.latest_invoice as Stripe.Invoice;
    const share = (item.current_period_end - fake.clock.now()) / (item.current_period_end - item.current_period_start);
    expect(inv.billing_reason).toBe("subscription_update");
    expect(inv.status).toBe("paid");
    expect(Math.abs(inv.amount_paid - (9900 - 2900) * share)).toBeLessThanOrEqual(1);
    expect(inv.lines.data.every((l) => l.parent?.subscription_item_details?.proration)).toBe(true);

    const evs = eventsFor(sub.id).filter((e) => e.type === "customer.subscription.updated");
    const prev = evs.at(-1)?.data.previous_attributes as Partial<Stripe.Subscription>;
    expect(prev.items?.data[0]?.price.lookup_key).toBe("developer_month");
    expect(eventsFor(inv.id).map((e) => e.type)).toEqual(["invoice.paid"]);
  });

  it("a downgrade through a schedule applies at the period end", async () => {
    const { sub } = await subscribe("professional_month");
    const item = sub.items.data[0] as Stripe.SubscriptionItem;
    const sched = await stripe.subscriptionSchedules.create({ from_subscription: sub.id });
    expect(sched.id).toMatch(/^sub_sched_/);
    const phase = sched.phases[0] as Stripe.SubscriptionSchedule.Phase;
    await stripe.subscriptionSchedules.update(sched.id, {
      end_behavior: "release",
      phases: [
        { items: [{ price: await priceId("professional_month"), quantity: 1 }], start_date: phase.start_date, end_date: phase.end_date },
        { items: [{ price: await priceId("developer_month"), quantity: 1 }], duration: { interval: "month", interval_count: 1 } },
      ],
    });
    expect((await stripe.subscriptions.retrieve(sub.id)).schedule).toBe(sched.id);
    const preview = await stripe.invoices.createPreview({ customer: sub.customer as string, subscription: sub.id });
    expect(preview.amount_due).toBe(2900);

    await fake.clock.advance(item.current_period_end - fake.clock.now() + 60);
    await fake.deliverAll();
    const after = await stripe.subscriptions.retrieve(sub.id, { expand: ["latest_invoice"] });
    expect(after.items.data[0]?.price.lookup_key).toBe("developer_month");
    expect(after.items.data[0]?.current_period_start).toBe(item.current_period_end);
    expect((after.latest_invoice as Stripe.Invoice).amount_paid).toBe(2900);
    expect((after.latest_invoice as Stripe.Invoice).billing_reason).toBe("subscription_cycle");

    // the second phase ends a period later: the schedule lets go of the subscription
    await fake.clock.advance(32 * DAY);
    await fake.deliverAll();
    expect((await stripe.subscriptionSchedules.retrieve(sched.id)).status).toBe("released");
    expect((await stripe.subscriptions.retrieve(sub.id)).schedule).toBeNull();
  });

  it("cancel_at_period_end ends the subscription at the renewal", async () => {
    const { sub } = await subscribe("growth_year");
    const item = sub.items.data[0] as Stripe.SubscriptionItem;
    expect(item.current_period_end - item.current_period_start).toBeGreaterThanOrEqual(365 * DAY);
    const set = await stripe.subscriptions.update(sub.id, { cancel_at_period_end: true });
    expect(set.cancel_at).toBe(item.current_period_end);
    await expect(stripe.invoices.createPreview({ subscription: sub.id })).rejects.toMatchObject({ code: "invoice_upcoming_none" });
    await fake.clock.advance(item.current_period_end - fake.clock.now() + 1);
    await fake.deliverAll();
    const ended = await stripe.subscriptions.retrieve(sub.id);
    expect(ended.status).toBe("canceled");
    expect(ended.ended_at).toBe(item.current_period_end);
    expect(eventsFor(sub.id).map((e) => e.type).slice(-2)).toEqual(["customer.subscription.updated", "customer.subscription.deleted"]);
  });

  it("cancel now (DELETE) emits customer.subscription.deleted", async () => {
    const { sub } = await subscribe("developer_month");
    const canceled = await stripe.subscriptions.cancel(sub.id);
    await fake.deliverAll();
    expect(canceled.status).toBe("canceled");
    expect(eventsFor(sub.id).at(-1)?.type).toBe("customer.subscription.deleted");
    const listed = await stripe.subscriptions.list({ customer: sub.customer as string });
    expect(listed.data).toEqual([]);
    expect((await stripe.subscriptions.list({ customer: sub.customer as string, status: "canceled" })).data).toHaveLength(1);
  });
});

describe("payments", () => {
  it("failing payments: past_due at the renewal, 402 on pay, then paid and active", async () => {
    const { sub, customer } = await subscribe("growth_month");
    const res = await fetch(`${fake.url}/_control/customers/${customer.id}/fail`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ fail: true }),
    });
    expect(res.status).toBe(200);
    const item = sub.items.data[0] as Stripe.SubscriptionItem;
    await fake.clock.advance(item.current_period_end - fake.clock.now() + 1);
    await fake.deliverAll();

    const due = await stripe.subscriptions.retrieve(sub.id, { expand: ["latest_invoice"] });
    expect(due.status).toBe("past_due");
    const open = due.latest_invoice as Stripe.Invoice;
    expect(open).toMatchObject({ status: "open", amount_due: 9900, attempt_count: 1 });
    expect(open.next_payment_attempt).toBeGreaterThan(fake.clock.now());
    expect(eventsFor(sub.id, open.id).slice(-2).map((e) => e.type)).toEqual(["invoice.payment_failed", "customer.subscription.updated"]);

    await expect(stripe.invoices.pay(open.id)).rejects.toMatchObject({ type: "StripeCardError", statusCode: 402, code: "card_declined" });

    fake.failPayments(customer.id, false);
    const paid = await stripe.invoices.pay(open.id);
    await fake.deliverAll();
    expect(paid.status).toBe("paid");
    expect((await stripe.subscriptions.retrieve(sub.id)).status).toBe("active");
    expect(eventsFor(sub.id).at(-1)).toMatchObject({ type: "customer.subscription.updated", data: { previous_attributes: { status: "past_due" } } });
    expect(eventsFor(open.id).map((e) => e.type)).toEqual(["invoice.payment_failed", "invoice.payment_failed", "invoice.paid"]);
  });

  it("unanswered dunning cancels the subscription after the last retry", async () => {
    const { sub, customer } = await subscribe("developer_month");
    fake.failPayments(customer.id);
    const item = sub.items.data[0] as Stripe.SubscriptionItem;
    await fake.clock.advance(item.current_period_end - fake.clock.now() + 15 * DAY);
    await fake.deliverAll();
    const s = await stripe.subscriptions.retrieve(sub.id);
    expect(s.status).toBe("canceled");
    expect(s.cancellation_details?.reason).toBe("payment_failed");
  });

  it("the control API ends a subscription as unpaid", async () => {
    const { sub } = await subscribe("developer_month");
    const res = await fetch(`${fake.url}/_control/subscriptions/${sub.id}/cancel`, { method: "POST", body: JSON.stringify({ status: "unpaid" }) });
    expect(((await res.json()) as { status: string }).status).toBe("unpaid");
  });

  it("createPreview shows the next renewal, and what an upgrade would bill now", async () => {
    const { sub } = await subscribe("developer_month");
    const item = sub.items.data[0] as Stripe.SubscriptionItem;
    const next = await stripe.invoices.createPreview({ customer: sub.customer as string, subscription: sub.id });
    expect(next.amount_due).toBe(2900);
    expect(next.next_payment_attempt).toBe(item.current_period_end);
    expect(next.lines.data[0]?.period).toEqual({
      start: item.current_period_end,
      end: expect.any(Number),
    });
    const upgrade = await stripe.invoices.createPreview({
      subscription: sub.id,
      subscription_details: {
        items: [{ id: item.id, price: await priceId("professional_month") }],
        proration_behavior: "always_invoice",
        proration_date: fake.clock.now(),
      },
    });
    expect(upgrade.amount_due).toBeGreaterThan(24900 - 2900 - 100);
    expect(upgrade.amount_due).toBeLessThanOrEqual(24900 - 2900);
    // a preview stores nothing
    expect((await stripe.subscriptions.retrieve(sub.id)).items.data[0]?.price.lookup_key).toBe("developer_month");
  });
});

describe("portal and events", () => {
  it("a portal session links to a page listing the subscription and the way back", async () => {
    const { customer } = await subscribe("growth_month");
    const portal = await stripe.billingPortal.sessions.create({ customer: customer.id, return_url: "http://app.test/account" });
    expect(portal.id).toMatch(/^bps_/);
    expect(portal.url).toBe(`${fake.publicUrl}/portal/${portal.id}`);
    const page = await (await fetch(portal.url)).text();
    expect(page).toContain("Growth");
    expect(page).toContain('href="http://app.test/account"');
  });

  it("resend delivers the same event id again; failed deliveries are retried and recorded", async () => {
    const { sub } = await subscribe("developer_month");
    const created = eventsFor(sub.id).find((e) => e.type === "customer.subscription.created") as Stripe.Event;
    rx.plan.failNext = 2;
    const res = await fetch(`${fake.url}/_control/events/${created.id}/resend`, { method: "POST" });
    expect(res.status).toBe(200);
    await (await fetch(`${fake.url}/_control/deliver`, { method: "POST" })).json();
    const copies = rx.received.filter((r) => r.event.id === created.id);
    expect(copies).toHaveLength(2);
    expect(copies[1]?.raw).toBe(copies[0]?.raw);
    const attempts = fake.deliveries(created.id).map((a) => a.status);
    expect(attempts).toEqual([200, 500, 500, 200]);
    const listed = (await (await fetch(`${fake.url}/_control/events?type=customer.subscription.created`)).json()) as {
      data: { id: string; deliveries: unknown[] }[];
    };
    expect(listed.data.find((x) => x.id === created.id)?.deliveries).toHaveLength(4);
    expect((await stripe.events.retrieve(created.id)).type).toBe("customer.subscription.created");
  });

  it("constructEvent refuses a forged signature or a changed body", async () => {
    const raw = rx.received[0]?.raw as string;
    const forged = Stripe.webhooks.generateTestHeaderString({ payload: raw, secret: "whsec_someone_else" });
    expect(() => Stripe.webhooks.constructEvent(raw, forged, SECRET)).toThrow(Stripe.errors.StripeSignatureVerificationError);
    const good = Stripe.webhooks.generateTestHeaderString({ payload: raw, secret: SECRET });
    expect(() => Stripe.webhooks.constructEvent(raw.replace("livemode", "livemodE"), good, SECRET)).toThrow(
      Stripe.errors.StripeSignatureVerificationError,
    );
  });
});

describe("options", () => {
  it("manual delivery with shuffle: nothing goes out until deliverAll, then every event", async () => {
    const other = await startReceiver();
    const f = await startFakeStripe({ webhookUrl: other.url, webhookSecret: SECRET, deliver: "manual", shuffle: true, tickMs: 0 });
    try {
      const s = new Stripe("sk_test_manual", f.stripeOptions);
      const customer = await s.customers.create({ email: "m@example.com" });
      const price = (await s.prices.list({ lookup_keys: ["growth_month"] })).data[0] as Stripe.Price;
      const session = await s.checkout.sessions.create({
        mode: "subscription",
        customer: customer.id,
        line_items: [{ price: price.id, quantity: 1 }],
        success_url: "http://app.test/ok",
      });
      const res = await fetch(`${f.url}/_control/checkout/${session.id}/complete`, { method: "POST" });
      expect(((await res.json()) as { status: string }).status).toBe("paid");
      await new Promise((r) => setTimeout(r, 50));
      expect(other.received).toHaveLength(0);
      await f.deliverAll();
      expect(other.received.map((r) => r.event.type).sort()).toEqual([
        "checkout.session.completed",
        "customer.subscription.created",
        "invoice.paid",
      ]);
    } finally {
      await f.close();
      await new Promise((r) => other.server.close(r));
    }
  });

  it("stateFile keeps customers across restarts", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "fake-stripe-"));
    const stateFile = path.join(dir, "state.json");
    try {
      const a = await startFakeStripe({ webhookSecret: SECRET, stateFile, tickMs: 0 });
      const c = await new Stripe("sk_test_a", a.stripeOptions).customers.create({ email: "kept@example.com" });
      await a.clock.advance(DAY);
      const then = a.clock.now();
      await a.close();
      const b = await startFakeStripe({ webhookSecret: SECRET, stateFile, tickMs: 0 });
      try {
        const again = await new Stripe("sk_test_b", b.stripeOptions).customers.retrieve(c.id);
        expect((again as Stripe.Customer).email).toBe("kept@example.com");
        expect(b.clock.now()).toBeGreaterThanOrEqual(then);
      } finally {
        await b.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
