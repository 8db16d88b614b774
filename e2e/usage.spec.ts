import { expect, test, type Page } from "@playwright/test";
import { cardScan } from "../tests/helpers/images";
import { signUpConfirmed, uniqueEmail } from "./helpers/account";
import { expectAccessible } from "./helpers/axe";
import { shoot } from "./helpers/screens";

// The owner's usage (issue 13), as a person sees it: a key made on the dashboard with an expiry,
// a few calls with it (one of them an error), the Usage page's totals, range and grouping, the
// request log filtered by status and found by a pasted request id, a row's details, the keys
// panel's last use, expiry and count, the centering tool without a key, and the log's next page.
// Screenshots: e2e/screenshots/usage-*.png, at desktop and phone width.

const KEY_RE = /^ppk_live_[0-9A-Za-z]{32}$/;
const DATE = String.raw`\d{1,2} [A-Z][a-z]{2} \d{4}`;

/** Reloads until the locator's text matches: the log is written in batches, seconds behind. */
async function eventually(page: Page, testId: string, expected: string) {
  await expect
    .poll(async () => {
      await page.reload();
      return (await page.getByTestId(testId).textContent())?.trim();
    }, { timeout: 20_000, intervals: [300, 600, 1000, 2000] })
    .toBe(expected);
}

test("usage, the request log and the keys panel show the owner's own calls", async ({ page, request }) => {
  test.setTimeout(300_000);
  const errors: string[] = [];
  page.on("pageerror", (err) => errors.push(err.message));
  const email = uniqueEmail("usage");
  await signUpConfirmed(page, request, email);

  // A key with an expiry; while its secret is on the page, the quick start's lines hold it.
  await expect(page.getByTestId("quick-start")).toHaveAttribute("data-with-secret", "no");
  await page.getByLabel("Name of the new key").fill("usage e2e");
  await page.getByLabel("Expiry of the new key").selectOption("30");
  await page.getByRole("button", { name: "Create key" }).click();
  const secret = await page.getByTestId("new-key").locator("input").inputValue();
  expect(secret).toMatch(KEY_RE);
  const prefix = `${secret.slice(0, "ppk_live_".length + 6)}…`;
  await expect(page.getByTestId("new-key")).toContainText("It expires on");
  await expect(page.getByTestId("quick-start")).toHaveAttribute("data-with-secret", "yes");
  await expect(page.getByTestId("quick-start")).toContainText(`export PPK_KEY='${secret}'`);
  await expect(page.getByTestId("quick-start")).toContainText('curl -H "X-Api-Key: $PPK_KEY"');
  await shoot(page, "usage-new-key");
  await page.getByRole("button", { name: "I saved it" }).click();
  await expect(page.getByTestId("quick-start")).toHaveAttribute("data-with-secret", "no");
  await expect(page.getByTestId("quick-start")).toContainText(prefix);
  await expect(page.getByTestId("quick-start")).toContainText("not its secret");
  expect(await page.getByTestId("quick-start").textContent()).not.toContain(secret);

  // Four calls: /v1/me (free), two set lists (1 credit each), an unknown card (404, refunded).
  const key = { "X-Api-Key": secret };
  expect((await request.get("/v1/me", { headers: key })).status()).toBe(200);
  for (let i = 0; i < 2; i++) expect((await request.get("/v1/sets?limit=1", { headers: key })).status()).toBe(200);
  const failed = await request.get("/v1/cards/no-such-card-e2e", { headers: key });
  expect(failed.status()).toBe(404);
  const failedId = failed.headers()["x-request-id"]!;
  expect(failedId).toMatch(/^req_[0-9a-f]{24}$/);
  expect((await failed.json()).error).toMatchObject({ code: "CARD_NOT_FOUND", request_id: failedId });

  // Usage: the header leads there; the totals are those calls, refunds apart from credits.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Usage" }).click();
  await expect(page).toHaveURL(/\/dashboard\/usage$/);
  await expect(page.getByRole("heading", { name: "Usage" })).toBeVisible();
  await eventually(page, "total-requests", "4");
  await expect(page.getByTestId("total-credits")).toHaveText("2");
  await expect(page.getByTestId("total-refunds")).toHaveText("1");
  await expect(page.getByTestId("usage-cards")).toContainText("Distinct cards");
  await expect(page.getByTestId("credits-chart").locator("svg.recharts-surface")).toBeVisible();
  await expect(page.getByTestId("requests-chart").locator("svg.recharts-surface")).toBeVisible();
  await expect(page.getByTestId("usage-groups")).toContainText("/v1/sets");
  await expect(page.getByTestId("usage-groups")).toContainText("/v1/cards/{id}");
  await shoot(page, "usage-page");
  await expectAccessible(page);

  // Range and grouping are the URL's: the last 24 hours by status, then by key.
  await page.getByRole("navigation", { name: "Time range" }).getByRole("link", { name: "24 hours" }).click();
  await expect(page).toHaveURL(/[?&]range=24h(&|$)/);
  await expect(page.getByRole("navigation", { name: "Time range" }).getByRole("link", { name: "24 hours" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByTestId("usage-window")).toContainText("per hour");
  await expect(page.getByTestId("total-requests")).toHaveText("4");
  await page.getByRole("navigation", { name: "Group by" }).getByRole("link", { name: "Status" }).click();
  await expect(page).toHaveURL(/range=24h&group_by=status$/);
  await expect(page.getByTestId("usage-groups")).toContainText("404");
  await expect(page.getByTestId("usage-groups")).toContainText("200");
  await shoot(page, "usage-page-24h-status");
  await page.getByRole("navigation", { name: "Group by" }).getByRole("link", { name: "Key" }).click();
  await expect(page).toHaveURL(/range=24h&group_by=key$/);
  await expect(page.getByTestId("usage-groups")).toContainText("usage e2e");
  await page.getByRole("navigation", { name: "Time range" }).getByRole("link", { name: "This period" }).click();
  await expect(page).toHaveURL(/range=period&group_by=key$/);
  await expect(page.getByTestId("total-requests")).toHaveText("4");

  // The request log: every call, newest first.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Requests" }).click();
  await expect(page).toHaveURL(/\/dashboard\/requests$/);
  const rows = page.getByTestId("requests").locator("tbody tr");
  await expect(rows).toHaveCount(4);
  await expect(rows.first()).toContainText("/v1/cards/{id}");
  await expect(rows.first()).toContainText("CARD_NOT_FOUND");
  await expect(rows.nth(1)).toContainText("/v1/sets");
  await shoot(page, "usage-requests");
  await expectAccessible(page);

  // Filtered by status class: the one error; the filter is in the URL.
  await page.getByLabel("Status").selectOption("4xx");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/\/dashboard\/requests\?status=4xx$/);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute("data-request-id", failedId);
  await expect(rows.first()).toContainText("404");
  await page.getByRole("link", { name: "Clear filter" }).click();
  await expect(page).toHaveURL(/\/dashboard\/requests$/);
  await expect(rows).toHaveCount(4);

  // The request id as pasted from the answer's headers finds exactly its row, with a tidy URL.
  await page.getByLabel("Request id").fill(`X-Request-Id: ${failedId}`);
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/requests\\?request_id=${failedId}$`));
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute("data-request-id", failedId);
  // The same filtered view as a link, even an untidy one (as a form sends it without script).
  await page.goto(`/dashboard/requests?request_id=%20${failedId}%20&status=&key=`);
  await expect(page).toHaveURL(new RegExp(`/dashboard/requests\\?request_id=${failedId}$`));
  await expect(rows).toHaveCount(1);

  // Its details: every field, the id to copy, a curl line without the secret.
  await rows.first().getByRole("button", { name: /^Details of GET \/v1\/cards\/\{id\}/ }).click();
  const details = page.getByTestId("request-details");
  await expect(details).toBeVisible();
  await expect(details.getByTestId("details-request-id")).toHaveText(failedId);
  await expect(details).toContainText("CARD_NOT_FOUND");
  await expect(details).toContainText("refunded");
  await expect(details).toContainText("usage e2e");
  await expect(details.getByTestId("details-curl")).toHaveText(/^curl -H "X-Api-Key: \$PPK_KEY" 'http:\/\/[^']+\/v1\/cards\/\{id\}'$/);
  expect(await details.textContent()).not.toContain(secret);
  await expect(details.getByRole("button", { name: "Copy the request id" })).toBeVisible();
  await shoot(page, "usage-request-details", { fullPage: false });
  await expectAccessible(page);
  await details.getByRole("button", { name: "Close" }).click();
  await expect(details).toHaveCount(0);

  // An id of no call of this account finds nothing, and says why.
  await page.goto("/dashboard/requests?request_id=req_000000000000000000000000");
  await expect(page.getByTestId("requests-empty")).toContainText("No call with the request id");

  // The keys panel: created, last used, expiry in 30 days, 4 requests.
  await page.goto("/dashboard");
  const row = page.getByTestId("keys").locator("tbody tr", { hasText: "usage e2e" });
  await expect(row.locator('[data-col="created"]')).toHaveText(new RegExp(`^${DATE}$`));
  await expect(row.locator('[data-col="last-used"]')).toHaveText(/^(just now|\d+ min ago)$/);
  const in30 = new Date(Date.now() + 30 * 86_400_000).toLocaleDateString("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
  await expect(row.locator('[data-col="expires"]')).toHaveText(in30);
  await expect(row.locator('[data-col="requests"]')).toHaveText("4");
  await shoot(page, "usage-keys");
  await expectAccessible(page);

  // The centering tool measures with the session: no key to paste; it is metered and logged.
  await page.goto("/dashboard/centering");
  await expect(page.getByLabel("API key")).toHaveCount(0);
  await page.getByLabel("Scan or photo of one face").setInputFiles({ name: "scan.jpg", mimeType: "image/jpeg", buffer: await cardScan({ left_right: 60, top_bottom: 50 }) });
  await page.getByRole("button", { name: "Measure" }).click();
  await expect(page.getByTestId("ratios")).toHaveText(/^(59|6[01])(\.\d+)?\/(39|4[01])(\.\d+)? · (49|50)(\.\d+)?\/(50|49)(\.\d+)?$/);
  await expect(page.getByTestId("centering-cost")).toHaveText("Last call: 25 credits.");
  await page.getByRole("button", { name: "Confirm these lines" }).click();
  await expect(page.getByRole("table", { name: "Grade ceilings" })).toContainText("PSA");
  await expect(page.getByTestId("centering-cost")).toHaveText("Last call: 5 credits.");
  await shoot(page, "usage-centering");
  await page.goto("/dashboard/requests?route=%2Fv1%2Fcentering%2Fmeasure");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("200");
  await expect(rows.first()).toContainText("25");

  // The session's centering routes are the dashboard's own: not callable cross-site, nor signed out.
  const confirmBody = { front: { outer: { left: 60, right: 690, top: 55, bottom: 935 }, inner: { left: 97, right: 657, top: 88, bottom: 901 } } };
  const noHeader = await page.request.post("/dashboard/centering/confirm", { data: confirmBody });
  expect(noHeader.status()).toBe(403);
  const crossSite = await page.request.post("/dashboard/centering/confirm", { data: confirmBody, headers: { "x-dashboard-call": "1", "sec-fetch-site": "cross-site" } });
  expect(crossSite.status()).toBe(403);
  const signedOut = await request.post("/dashboard/centering/confirm", { data: confirmBody, headers: { "x-dashboard-call": "1", "sec-fetch-site": "same-origin" } });
  expect(signedOut.status()).toBe(401);
  const sameSite = await page.request.post("/dashboard/centering/confirm", { data: confirmBody, headers: { "x-dashboard-call": "1", "sec-fetch-site": "same-origin" } });
  expect(sameSite.status()).toBe(200);
  expect((await sameSite.json()).data.ceilings.length).toBeGreaterThan(0);

  // More calls than a page holds (those the meter refuses are logged too): "Load more".
  await Promise.all(Array.from({ length: 50 }, () => request.get("/v1/me", { headers: key })));
  await page.goto("/dashboard/requests");
  await expect.poll(async () => {
    await page.reload();
    return page.getByRole("button", { name: "Load more" }).count();
  }, { timeout: 20_000 }).toBe(1);
  await expect(rows).toHaveCount(50);
  await page.getByRole("button", { name: "Load more" }).click();
  await expect.poll(() => rows.count()).toBeGreaterThan(50);
  await expect(rows.last()).toContainText("/v1/me");
  const ids = await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-request-id")));
  expect(new Set(ids).size).toBe(ids.length);

  expect(errors, "uncaught page errors").toEqual([]);
});
