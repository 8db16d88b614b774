import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { signUpConfirmed, uniqueEmail } from "./helpers/account";
import { expectAccessible } from "./helpers/axe";

// A collector's collection (issue 14): sign up, add a card through the "Add to collection"
// form, see its value and gain, change the quantity, set a price alert, export the CSV, remove
// the card and import the file back; a bad file is refused with its line numbers. Prices come
// from feed files applied by the real jobs (DATABASE_URL of the server under test).

const CARD = "neo1-2"; // Azumarill
const HEADER = "card_id,quantity,condition,printing,language,price_paid,currency,added_at";
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const SHOTS = "e2e/screenshots";

test.beforeAll(() => {
  for (const [offset, trend] of [[-40, 20], [-2, 31]] as const) {
    const dir = mkdtempSync(path.join(tmpdir(), "e2e-collection-feeds-"));
    mkdirSync(path.join(dir, "cardmarket"));
    writeFileSync(path.join(dir, "cardmarket", `${day(offset)}-collection-${Date.now()}.ndjson`),
      JSON.stringify({ product: `card:${CARD}`, date: day(offset), language: "en", printing: "HOLOFOIL", trend, provenance: `Cardmarket (e2e ${Date.now()})` }) + "\n");
    const env = { ...process.env };
    execFileSync("npx", ["tsx", "lib/jobs/cli.ts", "refresh-prices", "--source", dir], { env, stdio: "pipe" });
    execFileSync("npx", ["tsx", "lib/jobs/cli.ts", "refresh-index"], { env, stdio: "pipe" });
  }
});

async function shoot(page: Page, name: string) {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.waitForTimeout(150);
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(250);
  await page.screenshot({ path: `${SHOTS}/${name}-phone.png`, fullPage: true });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `${name} at 390 px scrolls sideways`).toBeLessThanOrEqual(0);
  await page.setViewportSize({ width: 1280, height: 900 });
}

test("collect a card, value it, alert on it, export and import the CSV", async ({ page, request }) => {
  test.setTimeout(180_000);
  const email = uniqueEmail("collection");
  await signUpConfirmed(page, request, email);

  await page.goto("/collection");
  await expect(page.getByRole("heading", { level: 1, name: "Your collection" })).toBeVisible();
  await expect(page.getByTestId("collection-empty")).toBeVisible();

  // Find the card by its id and add two copies through the form other pages mount.
  await page.getByLabel("Card id").first().fill(CARD);
  await page.getByRole("button", { name: "Find" }).click();
  const form = page.getByTestId("add-to-collection");
  await expect(form).toBeVisible();
  await expect(form.getByLabel("Printing").locator("option")).toHaveText(["Holofoil", "1st edition holofoil"]);
  await form.getByLabel("Quantity").fill("2");
  await form.getByLabel("Price paid (each)").fill("25");
  await form.getByRole("button", { name: "Add to collection" }).click();
  await expect(page.getByTestId("add-result")).toHaveText(/Added 2 copies to your collection/);

  await page.goto("/collection");
  const row = page.getByTestId("collection-item");
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("Azumarill");
  await expect(page.getByTestId("collection-value")).toHaveText("€62.00");
  await expect(page.getByTestId("collection-gain")).toContainText("+€12.00");
  await expect(page.getByTestId("value-chart").locator("path.recharts-curve")).toHaveCount(1);

  // The quantity through the TanStack Query mutation.
  await row.getByLabel("Quantity of Azumarill").fill("3");
  await row.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("collection-value")).toHaveText("€93.00");

  // A price alert.
  const alertForm = page.getByTestId("alert-form");
  await alertForm.getByLabel("Card id").fill(CARD);
  await alertForm.getByLabel("When the price is").selectOption("above");
  await alertForm.getByLabel("Price (EUR)").fill("40");
  await alertForm.getByRole("button", { name: "Set alert" }).click();
  await expect(page.getByRole("status")).toHaveText("Price alert set.");
  await expect(page.getByTestId("alerts")).toContainText("≥ €40.00");
  await expect(page.getByTestId("alerts")).toContainText("€31.00");

  await expectAccessible(page);
  await shoot(page, "collection");

  // Another account's item (here: none of this account's) is 404; a cross-site call is refused.
  const foreign = await page.request.patch("/collection/items/999999999", { data: { quantity: 2 }, headers: { origin: new URL(page.url()).origin } });
  expect(foreign.status()).toBe(404);
  const cross = await page.request.delete("/collection/items/1", { headers: { origin: "https://evil.example" } });
  expect(cross.status()).toBe(403);

  // Export.
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("export-csv").click()]);
  const csv = readFileSync((await download.path())!, "utf8");
  const lines = csv.trimEnd().split("\n");
  expect(lines[0]).toBe(HEADER);
  expect(lines[1]).toMatch(new RegExp(`^${CARD},3,NM,HOLOFOIL,en,25\\.00,EUR,\\d{4}-`));

  // Remove it, then import the file back.
  await row.getByRole("button", { name: /^Remove Azumarill/ }).click();
  await expect(page.getByTestId("collection-empty")).toBeVisible();
  const file = path.join(mkdtempSync(path.join(tmpdir(), "e2e-collection-")), "collection.csv");
  writeFileSync(file, csv);
  const importForm = page.getByTestId("import-form");
  await importForm.getByLabel("CSV file").setInputFiles(file);
  await importForm.getByRole("button", { name: "Import" }).click();
  await expect(page.getByTestId("import-result")).toHaveText("Imported 1 line.");
  await expect(page.getByTestId("collection-value")).toHaveText("€93.00");
  const [again] = await Promise.all([page.waitForEvent("download"), page.getByTestId("export-csv").click()]);
  expect(readFileSync((await again.path())!, "utf8")).toBe(csv);

  // A bad file: its lines named, nothing imported.
  const bad = file.replace(/\.csv$/, "-bad.csv");
  writeFileSync(bad, `${HEADER}\n${CARD},1,NM,HOLOFOIL,en,,,\n${CARD},1,MINT,HOLOFOIL,en,,,\nno-such-card,1,NM,HOLOFOIL,en,,,\n`);
  await importForm.getByLabel("CSV file").setInputFiles(bad);
  await importForm.getByRole("button", { name: "Import" }).click();
  await expect(page.getByTestId("import-errors")).toContainText("Nothing was imported");
  await expect(page.getByTestId("import-errors")).toContainText("line 3: condition must be one of NM, LP, MP, HP, DMG");
  await expect(page.getByTestId("collection-item")).toHaveCount(1);
  await expectAccessible(page);
  await shoot(page, "collection-import-errors");
});

test("without script: the plain forms change the quantity and remove", async ({ browser, request }) => {
  test.setTimeout(120_000);
  const setup = await browser.newPage();
  const email = uniqueEmail("collection-nojs");
  await signUpConfirmed(setup, request, email);
  const state = await setup.context().storageState();
  await setup.close();
  const context = await browser.newContext({ javaScriptEnabled: false, storageState: state });
  const page = await context.newPage();
  await page.goto(`/collection?add=${CARD}`);
  await page.getByTestId("add-to-collection").getByRole("button", { name: "Add to collection" }).click();
  await expect(page.getByTestId("add-result")).toContainText("Added 1 copy");
  await page.goto("/collection");
  const row = page.getByTestId("collection-item");
  await row.getByLabel("Quantity of Azumarill").fill("4");
  await row.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("status")).toHaveText("Quantity saved.");
  await expect(page.getByTestId("collection-value")).toHaveText("€124.00");
  await page.getByTestId("collection-item").getByRole("button", { name: /^Remove Azumarill/ }).click();
  await expect(page.getByTestId("collection-empty")).toBeVisible();
  // The notices are the server's own: a link cannot put its words in the page's alert boxes.
  await page.goto("/collection?error=Your%20account%20is%20suspended&done=Re-enter%20your%20password&import_errors=at%20evil.example#import");
  await expect(page.getByRole("heading", { name: "Your collection" })).toBeVisible();
  await expect(page.getByText(/suspended|Re-enter|evil\.example/)).toHaveCount(0);
  await context.close();
});

test("signed out, the page says how to start and the card form is a sign-in link", async ({ page }) => {
  await page.goto(`/collection?add=${CARD}`);
  await expect(page.getByRole("link", { name: "Sign in" }).first()).toBeVisible();
  await expect(page.getByTestId("add-to-collection")).toHaveCount(0);
  await expectAccessible(page);
});
