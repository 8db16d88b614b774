import { randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import { cardScan, centeringPhoto } from "../tests/helpers/images";
import { confirmWithPassword, linkFromOutbox, PASSWORD, signIn, uniqueEmail } from "./helpers/account";

// A person's way through the site: sign up, read the confirmation mail in the development
// outbox, confirm, sign in, create a key, see plan, keys and usage on the dashboard, and manage
// keys. Then a script account (POST /v1/accounts/free, no password) sets its first password
// through recovery. The server runs without SMTP_URL, in production on PostgreSQL: the outbox
// there answers only to the operator token (lib/mail/dev-outbox.ts), which these tests hold.

const KEY_RE = /^ppk_live_[0-9A-Za-z]{32}$/;

test("sign up, confirm through the outbox, sign in, and manage keys on the dashboard", async ({ page, request }) => {
  const email = uniqueEmail("person");
  const errors: string[] = [];
  page.on("pageerror", (err) => errors.push(err.message));

  // Sign up: no key yet, a mail to confirm the address.
  await page.goto("/");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
  await page.getByRole("link", { name: "Create one" }).click();
  await expect(page.getByRole("heading", { name: "Create an account" })).toBeVisible();
  await page.getByLabel("Email").fill(email);
  await page.getByLabel(/^Password/).fill(PASSWORD);
  await page.getByLabel(/^Name/).fill("E2E Person");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("heading", { name: "Check your mail" })).toBeVisible();
  await expect(page.getByTestId("signup-done")).not.toContainText("ppk_live_");
  await page.screenshot({ path: "test-results/screenshots/sign-up-done.png", fullPage: true });

  // Signing in before confirming explains why not, and sends the link again on request.
  await signIn(page, email, PASSWORD);
  await expect(page.getByRole("main").getByRole("alert")).toContainText("not confirmed");
  await page.getByRole("button", { name: "Send the confirmation link again" }).click();
  await expect(page.getByRole("main").getByRole("status")).toContainText(`If an account exists for ${email}`);

  // The confirmation mail, from the development outbox.
  // Opening the link confirms nothing (a mail scanner may fetch it): its form does, with the
  // password the account was registered with; a wrong one leaves the link unused.
  const confirmPath = await linkFromOutbox(request, email, "confirm_email", "/confirm-email?token=");
  await page.goto(confirmPath);
  await page.goto(confirmPath);
  await page.getByLabel("Password").fill("not the password at all");
  await page.getByRole("button", { name: "Confirm my address" }).click();
  await expect(page.getByRole("main").getByRole("alert")).toContainText("not the password this account was registered with");
  await confirmWithPassword(page);
  await page.goto(confirmPath);
  await expect(page.getByRole("heading", { name: "This link was already used" })).toBeVisible();

  // Sign in: the first key is made on the dashboard, shown once.
  await signIn(page, email, PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.getByLabel("Name of the new key").fill("first");
  await page.getByRole("button", { name: "Create key" }).click();
  const secret = await page.getByTestId("new-key").locator("input").inputValue();
  expect(secret).toMatch(KEY_RE);
  const prefix = `${secret.slice(0, "ppk_live_".length + 6)}…`;
  await page.getByRole("button", { name: "I saved it" }).click();
  const me = await request.get("/v1/me", { headers: { "X-Api-Key": secret } });
  expect(me.status()).toBe(200);
  expect((await me.json()).data).toMatchObject({ email, email_confirmed: true, plan: "trial" });

  // A few calls, so the usage chart has something to draw; then the dashboard shows plan,
  // quota, the key's prefix and the usage.
  for (let i = 0; i < 2; i++) expect((await request.get("/v1/sets?limit=1", { headers: { "X-Api-Key": secret } })).status()).toBe(200);
  await page.reload();
  await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();
  await expect(page.getByTestId("plan")).toContainText("Trial");
  await expect(page.getByTestId("plan")).toContainText("days left");
  await expect(page.getByTestId("credits")).toContainText("left of 800");
  await expect(page.getByTestId("keys")).toContainText(prefix);
  await expect(page.getByTestId("usage-chart")).toBeVisible();
  await expect(page.getByTestId("usage-chart").locator("svg.recharts-surface").first()).toBeVisible();
  // GET /v1/me above (0 credits) and the two set lists (1 credit each).
  await expect(page.locator(".totals")).toContainText("3 requests");
  await expect(page.locator(".totals")).toContainText("2 credits");
  await expect(page.getByText("Confirm your email.")).toHaveCount(0);
  await page.screenshot({ path: "test-results/screenshots/dashboard.png", fullPage: true });

  // The centering tool: a scan measured as the signed-in account (no key to paste), a frame line
  // moved, the lines confirmed.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Centering" }).click();
  await expect(page.getByRole("heading", { name: "Centering" })).toBeVisible();
  await expect(page.getByLabel("API key")).toHaveCount(0);
  await page.getByLabel("Scan or photo of one face").setInputFiles({ name: "scan.jpg", mimeType: "image/jpeg", buffer: await cardScan({ left_right: 62, top_bottom: 50 }) });
  await page.getByRole("button", { name: "Measure" }).click();
  await expect(page.getByTestId("ratios")).toHaveText(/^6[12](\.\d+)?\/3[78](\.\d+)? · (49|50)(\.\d+)?\/(50|49)(\.\d+)?$/);
  await expect(page.getByRole("img", { name: "The card with its measured lines" }).locator("line")).toHaveCount(8);
  // Moving the frame's left line to the card's edge + 5 px makes the left border the narrow one.
  const edge = Number(await page.getByLabel("Card edge left").inputValue());
  await page.getByLabel("Frame left").fill(String(edge + 5));
  await expect(page.getByTestId("ratios")).toHaveText(/^1\d(\.\d+)?\//);
  await page.getByRole("button", { name: "Confirm these lines" }).click();
  const ceilings = page.getByRole("table", { name: "Grade ceilings" });
  await expect(ceilings).toContainText("PSA");
  await expect(ceilings).toContainText("SGC");
  await page.screenshot({ path: "test-results/screenshots/centering.png", fullPage: true });
  // A phone photo in perspective: the lines are drawn over the card squared up in the browser.
  await page.getByLabel("Scan or photo of one face").setInputFiles({ name: "photo.jpg", mimeType: "image/jpeg", buffer: await centeringPhoto({ left_right: 64, top_bottom: 42 }) });
  await page.getByRole("button", { name: "Measure" }).click();
  await expect(page.getByTestId("ratios")).toHaveText(/^6[345](\.\d+)?\/3[456](\.\d+)? · 4[123](\.\d+)?\/5[789](\.\d+)?$/);
  await expect(page.getByRole("img", { name: "The card with its measured lines" }).locator("image")).toHaveAttribute("href", /^data:image\/jpeg/);
  await page.screenshot({ path: "test-results/screenshots/centering-photo.png", fullPage: true });
  await page.goto("/dashboard");

  // Create a key: its secret is shown once, works, and is gone after a reload.
  await page.getByLabel("Name of the new key").fill("e2e second");
  await page.getByRole("button", { name: "Create key" }).click();
  const fresh = page.getByTestId("new-key");
  await expect(fresh).toContainText("Key e2e second created");
  const second = await fresh.locator("input").inputValue();
  expect(second).toMatch(KEY_RE);
  expect(second).not.toBe(secret);
  await expect(page.getByTestId("keys").locator("tbody tr")).toHaveCount(2);
  const viaSecond = await request.get("/v1/me", { headers: { Authorization: `Bearer ${second}` } });
  expect(viaSecond.status()).toBe(200);
  expect((await viaSecond.json()).data.email).toBe(email);
  await page.getByRole("button", { name: "I saved it" }).click();
  await expect(fresh).toHaveCount(0);
  await page.reload();
  expect(await page.content()).not.toContain(second);

  // Rotate it: a new secret, the old one stops working at once.
  const row = page.getByTestId("keys").locator("tbody tr", { hasText: "e2e second" });
  await row.getByRole("button", { name: "Rotate" }).click();
  await expect(page.getByTestId("new-key")).toContainText("rotated");
  const rotated = await page.getByTestId("new-key").locator("input").inputValue();
  expect(rotated).toMatch(KEY_RE);
  const old = await request.get("/v1/me", { headers: { "X-Api-Key": second } });
  expect(old.status()).toBe(401);
  expect((await old.json()).error.code).toBe("INVALID_API_KEY");
  expect((await request.get("/v1/me", { headers: { "X-Api-Key": rotated } })).status()).toBe(200);

  // Delete it (after a confirmation step); the first key is untouched.
  await page.getByRole("button", { name: "I saved it" }).click();
  const rotatedRow = page.getByTestId("keys").locator("tbody tr", { hasText: "e2e second" });
  await rotatedRow.getByRole("button", { name: "Delete" }).click();
  await rotatedRow.getByRole("button", { name: "Delete" }).click();
  await expect(page.getByTestId("keys").locator("tbody tr")).toHaveCount(1);
  await expect(page.getByTestId("keys")).toContainText(prefix);
  expect((await request.get("/v1/me", { headers: { "X-Api-Key": rotated } })).status()).toBe(401);
  expect((await request.get("/v1/me", { headers: { "X-Api-Key": secret } })).status()).toBe(200);

  // Signing out ends the session.
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/sign-in$/);

  expect(errors, "uncaught page errors").toEqual([]);
});

test("a script account sets its first password through /recover and signs in", async ({ page, request }) => {
  const email = uniqueEmail("script");

  const created = await request.post("/v1/accounts/free", {
    headers: { "Idempotency-Key": randomUUID() },
    data: { email },
  });
  expect(created.status()).toBe(201);
  const { api_key: key, account_id: accountId } = (await created.json()).data;
  expect(key).toMatch(KEY_RE);

  // No password yet: sign-in fails, and says where to go.
  await signIn(page, email, PASSWORD);
  await expect(page.getByRole("main").getByRole("alert")).toContainText("do not match");
  await page.getByRole("main").getByRole("alert").getByRole("link", { name: "set one through recovery" }).click();
  await expect(page).toHaveURL(/\/recover$/);

  // The answer is the same whether the address has an account or not.
  await page.getByLabel("Email").fill(uniqueEmail("nobody"));
  await page.getByRole("button", { name: "Send the link" }).click();
  await expect(page.getByRole("main").getByRole("status")).toContainText("If an account exists for");
  await page.goto("/recover");
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Send the link" }).click();
  await expect(page.getByRole("main").getByRole("status")).toContainText(`If an account exists for ${email}`);

  const resetPath = await linkFromOutbox(request, email, "reset_password", "/reset-password?token=");
  await page.goto(resetPath);
  await page.getByLabel(/^New password/).fill(PASSWORD);
  await page.getByLabel("The same again").fill(PASSWORD);
  await page.getByRole("button", { name: "Set password" }).click();
  await expect(page.getByRole("heading", { name: "Password set" })).toBeVisible();

  // The reset link works once.
  await page.goto(resetPath);
  await page.getByLabel(/^New password/).fill("another password 2");
  await page.getByLabel("The same again").fill("another password 2");
  await page.getByRole("button", { name: "Set password" }).click();
  await expect(page.getByRole("main").getByRole("alert")).toContainText("not valid any more");

  // Setting the password proved the mailbox: sign-in works, and the address counts as confirmed.
  await signIn(page, email, PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId("plan")).toContainText("Trial");
  await expect(page.getByTestId("keys")).toContainText(`${key.slice(0, "ppk_live_".length + 6)}…`);
  await expect(page.getByText(accountId)).toBeVisible();
  await expect(page.getByTestId("usage-chart")).toBeVisible();
  const me = await request.get("/v1/me", { headers: { "X-Api-Key": key } });
  expect((await me.json()).data).toMatchObject({ account_id: accountId, email_confirmed: true });
});

test("without script, the recovery and confirmation links' forms work: their pages keep the Referer to this site, so a form's Origin is its own", async ({ browser, request }) => {
  // With "no-referrer" the browser posted those forms with Origin: null, which the server refuses
  // as another origin's (403 FORBIDDEN_ORIGIN as raw JSON in place of the page).
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  const script = uniqueEmail("nojs-script");
  expect((await request.post("/v1/accounts/free", { headers: { "Idempotency-Key": randomUUID() }, data: { email: script } })).status()).toBe(201);
  await page.goto("/recover");
  await page.getByLabel("Email").fill(script);
  await page.getByRole("button", { name: "Send the link" }).click();
  await expect(page.getByRole("main").getByRole("status")).toContainText(`If an account exists for ${script}`);
  await page.goto(await linkFromOutbox(request, script, "reset_password", "/reset-password?token="));
  await page.getByLabel(/^New password/).fill(PASSWORD);
  await page.getByLabel("The same again").fill(PASSWORD);
  await page.getByRole("button", { name: "Set password" }).click();
  await expect(page.getByRole("heading", { name: "Password set" })).toBeVisible();

  // (The sign-up page itself needs script: registered through the API here.)
  const person = uniqueEmail("nojs-person");
  expect((await request.post("/v1/accounts/register", { data: { email: person, password: PASSWORD } })).status()).toBe(202);
  await page.goto(await linkFromOutbox(request, person, "confirm_email", "/confirm-email?token="));
  await confirmWithPassword(page);
  await context.close();
});
