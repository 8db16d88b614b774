import { expect, test, type Page } from "@playwright/test";
import { shoot as shootBoth } from "./helpers/screens";
import { signUpConfirmed, uniqueEmail } from "./helpers/account";

// The owner's billing page against the local Stripe fake (STRIPE_FAKE=1 in playwright.config.ts,
// docs/stripe-fake.md): subscribe through the fake's hosted Checkout page, come back while the
// webhook is on its way, upgrade (at once, a second invoice), schedule a downgrade, cancel at the
// period's end and keep the subscription. Screenshots at desktop and phone width go to
// e2e/screenshots/billing-*.png.

// Stripe sends the browser back to the configured origin (BETTER_AUTH_URL, else
// http://localhost:PORT), so the session's cookie must belong to that host, not 127.0.0.1.
test.use({ baseURL: process.env.E2E_BASE_URL ?? "http://localhost:3210" });

const DATE = String.raw`\d{1,2} [A-Z][a-z]{2} \d{4}`;

const shoot = (page: Page, name: string) => shootBoth(page, `billing-${name}`);

test("the owner subscribes through Checkout, upgrades, schedules a downgrade, cancels and keeps the subscription", async ({ page, request, context }) => {
  test.setTimeout(120_000);
  const errors: string[] = [];
  page.on("pageerror", (err) => errors.push(err.message));
  const email = uniqueEmail("billing");
  await signUpConfirmed(page, request, email);

  // From the dashboard's header to the billing page of a trial.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Billing" }).click();
  await expect(page).toHaveURL(/\/dashboard\/billing$/);
  await expect(page.getByRole("heading", { name: "Billing", level: 1 })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Billing" })).toHaveAttribute("aria-current", "page");
  const plan = page.getByTestId("billing-plan");
  await expect(plan).toContainText("Trial");
  await expect(plan).toContainText(/\d+ days left/);
  await expect(page.getByTestId("invoices")).toHaveCount(0);
  await expect(page.getByText("No invoices yet.")).toBeVisible();

  // The picker: monthly prices, yearly at ten months, Enterprise through sales.
  const card = (name: string) => page.getByRole("article", { name });
  await expect(card("Developer")).toContainText("€29 a month");
  await expect(card("Growth")).toContainText("€99 a month");
  await expect(card("Professional")).toContainText("€249 a month");
  await page.getByLabel(/^Yearly/).check();
  await expect(card("Developer")).toContainText("€290 a year");
  await expect(card("Professional")).toContainText("€2,490 a year");
  await expect(card("Enterprise").getByRole("link", { name: "Contact sales" })).toHaveAttribute("href", /^mailto:sales@/);
  await shoot(page, "trial");
  await expect(card("Developer")).toContainText("€24.17 a month, billed yearly");
  await page.getByLabel("Monthly").check();
  await expect(card("Developer")).toContainText("€29 a month");

  // Checkout abandoned on Stripe's page: back, nothing charged.
  await card("Developer").getByRole("button", { name: "Subscribe" }).click();
  await expect(page).toHaveURL(/:3211\/checkout\/cs_/);
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(page).toHaveURL(/\/dashboard\/billing\?checkout=canceled$/);
  await expect(page.getByRole("main").getByRole("status").filter({ hasText: "Checkout was canceled" })).toBeVisible();
  await expect(plan).toContainText("Trial");

  // A second tab still shows the trial's buttons, for later.
  const stale = await context.newPage();
  await stale.goto("/dashboard/billing");

  // Subscribe to Developer monthly and pay on the fake's hosted page.
  await card("Developer").getByRole("button", { name: "Subscribe" }).click();
  await expect(page).toHaveURL(/:3211\/checkout\/cs_/);
  const fake = new URL(page.url()).origin;
  await expect(page.locator("body")).toContainText("€29.00");
  // The return address carries the session, caught as the navigation commits: the page drops it
  // once it has said so, which on a fast webhook came before a poll of the address saw it.
  await Promise.all([
    page.waitForURL(/\/dashboard\/billing\?checkout=success&session_id=cs_/, { waitUntil: "commit" }),
    page.getByRole("button", { name: /^Pay €/ }).click(),
  ]);
  // The webhook lands a moment later; the page says so, then shows the plan.
  await expect(page.getByTestId("checkout-return")).toContainText("Payment confirmed");
  await expect(page, "said once: the address drops ?checkout=").toHaveURL(/\/dashboard\/billing$/);
  await expect(plan).toContainText("Developer");
  await expect(plan).toContainText("Monthly");
  await expect(plan).toContainText("€29 a month");
  await expect(page.getByTestId("billing-renewal")).toHaveText(new RegExp(`^Renews on ${DATE}\\.$`));
  await expect(page.getByTestId("payment-method")).toContainText(/Visa\s*····\s*ending in\s*4242/);
  await expect(page.getByTestId("payment-method")).toContainText(/Expires \d{2}\/\d{4}/);
  await expect(page.getByTestId("next-invoice")).toContainText("€29.00");
  const invoices = page.getByTestId("invoices").locator("tbody tr");
  await expect(invoices).toHaveCount(1);
  await expect(invoices.first()).toContainText("€29.00");
  await expect(invoices.first()).toContainText("Paid");
  await expect(invoices.first().getByRole("link", { name: /^View invoice/ })).toHaveAttribute("href", /:3211\/invoices\/in_/);
  await expect(invoices.first().getByRole("link", { name: /^PDF of invoice/ })).toHaveAttribute("href", /:3211\/invoices\/in_.*\.pdf$/);
  await expect(card("Developer")).toContainText("Current plan");
  await shoot(page, "developer");

  // The card is changed in Stripe's portal, which links back here.
  await page.getByRole("button", { name: "Manage payment method" }).click();
  await expect(page).toHaveURL(/:3211\/portal\//);
  await page.goto("/dashboard/billing");

  // The stale tab's Subscribe is refused with Stripe's reason, not a crash.
  await stale.getByRole("article", { name: "Growth" }).getByRole("button", { name: "Subscribe" }).click();
  await expect(stale.getByRole("main").getByRole("alert")).toContainText("already has a developer subscription");
  await stale.close();

  // Upgrade to Growth: at once, prorated, a second invoice.
  await card("Growth").getByRole("button", { name: "Upgrade" }).click();
  await expect(card("Growth")).toContainText("charged to your card at once");
  await shoot(page, "confirm-upgrade");
  await card("Growth").getByRole("button", { name: "Confirm upgrade" }).click();
  await expect(card("Growth").getByRole("status")).toContainText("You are on Growth (monthly) from now on");
  await expect(plan).toContainText("Growth");
  await expect(plan).toContainText("€99 a month");
  await expect(invoices).toHaveCount(2);
  await expect(invoices.first()).toContainText("Paid");
  await expect(card("Growth")).toContainText("Current plan");
  await expect(page.getByTestId("checkout-return")).toHaveCount(0);
  await expect(card("Developer").getByRole("button", { name: "Downgrade" })).toBeVisible();
  await expect(card("Professional").getByRole("button", { name: "Upgrade" })).toBeVisible();
  await shoot(page, "growth");

  // Downgrade back to Developer: waits for the period's end.
  await card("Developer").getByRole("button", { name: "Downgrade" }).click();
  await expect(card("Developer")).toContainText("Nothing is charged now");
  await card("Developer").getByRole("button", { name: "Confirm downgrade" }).click();
  await expect(page.getByTestId("billing-renewal")).toHaveText(new RegExp(`^Changes to Developer on ${DATE}\\.$`));
  await expect(card("Developer").getByRole("status")).toContainText(new RegExp(`Developer \\(monthly\\) starts on ${DATE}`));
  await expect(card("Developer")).toContainText(new RegExp(`From ${DATE}`));
  await expect(plan).toContainText("Growth");
  await expect(invoices).toHaveCount(2);
  await shoot(page, "downgrade");

  // Cancel at the period's end (which drops the waiting downgrade), then keep the subscription.
  await plan.getByRole("button", { name: "Cancel at period end" }).click();
  await expect(plan).toContainText("calls that cost credits are refused");
  await shoot(page, "confirm-cancel");
  await plan.getByRole("button", { name: "Confirm cancellation" }).click();
  await expect(page.getByTestId("billing-renewal")).toHaveText(new RegExp(`^Cancels on ${DATE}: it serves until then and is not renewed\\.$`));
  await expect(page.getByTestId("next-invoice")).toContainText("None: the subscription ends with this period.");
  await expect(card("Professional").getByRole("button", { name: "Upgrade" })).toBeDisabled();
  await expect(card("Developer").getByRole("button", { name: "Downgrade" })).toBeDisabled();
  await expect(card("Developer").getByRole("status"), "the dropped downgrade's note is gone").toHaveCount(0);
  await expect(page.getByRole("note")).toContainText("Keep it first to change its plan");
  await shoot(page, "canceling");

  await plan.getByRole("button", { name: "Keep my subscription" }).click();
  await expect(page.getByTestId("billing-renewal")).toHaveText(new RegExp(`^Renews on ${DATE}\\.$`));
  await expect(plan.getByRole("status")).toContainText("renews on");
  await expect(card("Professional").getByRole("button", { name: "Upgrade" })).toBeEnabled();
  await expect(page.getByTestId("next-invoice")).toContainText("€99.00");

  // A payment that fails: an upgrade charged at once to a card that now declines (the fake's
  // control API). The page warns, with the open invoice to pay; paying it clears the warning.
  const control = await (await request.get(`${fake}/_control/state`)).json() as {
    customers: Record<string, { id: string; email: string }>; subscriptions: Record<string, { id: string; customer: string; status: string }>;
  };
  const customer = Object.values(control.customers).find((c) => c.email === email)!;
  expect(customer, "the account's Stripe customer").toBeDefined();
  const failing = (fail: boolean) => request.post(`${fake}/_control/customers/${customer.id}/fail`, { data: { fail } });
  expect((await failing(true)).ok()).toBe(true);
  await card("Professional").getByRole("button", { name: "Upgrade" }).click();
  await card("Professional").getByRole("button", { name: "Confirm upgrade" }).click();
  const standing = page.getByTestId("billing-standing");
  await expect(standing).toContainText(new RegExp(`The last payment failed\\. The API keeps answering until ${DATE}`));
  await expect(standing).toHaveAttribute("role", "alert");
  await expect(plan).toContainText("Professional");
  await expect(plan).toContainText("past due");
  await expect(invoices).toHaveCount(3);
  await expect(invoices.first()).toContainText("Due");
  await shoot(page, "past-due");
  expect((await failing(false)).ok()).toBe(true);
  await standing.getByRole("link", { name: "Pay the invoice" }).click();
  await expect(page).toHaveURL(/:3211\/invoices\/in_/);
  await page.getByRole("button", { name: /^Pay .* with card 4242$/ }).click();
  await page.goto("/dashboard/billing");
  // Paid on Stripe's page: the webhook, then the page without a warning (no action of ours waits here).
  await expect(async () => {
    await page.reload();
    await expect(standing).toHaveCount(0, { timeout: 500 });
  }).toPass({ timeout: 15_000 });
  await expect(plan).toContainText("Professional");
  await expect(plan).not.toContainText("past due");
  await expect(invoices.first()).toContainText("Paid");

  // The dashboard's plan says Professional; the header leads back to billing.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Dashboard" }).click();
  await expect(page.getByTestId("plan")).toContainText("Professional");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Billing" }).click();
  await expect(page).toHaveURL(/\/dashboard\/billing$/);

  // The subscription ended for good (dunning's end, through the control API): subscribe again.
  const subscription = Object.values(control.subscriptions).find((x) => x.customer === customer.id && x.status !== "canceled")!;
  expect((await request.post(`${fake}/_control/subscriptions/${subscription.id}/cancel`, { data: { status: "canceled" } })).ok()).toBe(true);
  await expect(async () => {
    await page.reload();
    await expect(standing).toContainText("The subscription has ended", { timeout: 500 });
  }).toPass({ timeout: 15_000 });
  await expect(plan).toContainText("canceled");
  await expect(card("Developer").getByRole("button", { name: "Subscribe" })).toBeEnabled();
  await expect(page.getByTestId("next-invoice")).toContainText("None.");
  await shoot(page, "ended");

  expect(errors, "uncaught page errors").toEqual([]);
});
