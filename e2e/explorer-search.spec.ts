import { execFileSync } from "node:child_process";
import { shoot as shootBoth } from "./helpers/screens";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { expectAccessible } from "./helpers/axe";

// The collector's price explorer: search with suggestions as one types, filters that write q,
// sorts, faces or a table; a set's cards in number order with its value; a series' sets.
// Prices for a dozen Jungle cards come from feed files applied by the real jobs (as prices.spec
// does for Base Set), three deliveries 30 days apart so the set has a 30-day change.

const SET = "base2";
const PRICED = Array.from({ length: 12 }, (_, i) => `${SET}-${i + 1}`);
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

// Long pages (a 48-face grid, every set) under axe take a while on a busy machine.
test.describe.configure({ timeout: 180_000 });

test.beforeAll(() => {
  for (const [offset, base] of [[-33, 10], [-12, 12], [-1, 15]] as const) {
    const dir = mkdtempSync(path.join(tmpdir(), "e2e-explorer-feeds-"));
    mkdirSync(path.join(dir, "cardmarket"));
    const lines = PRICED.map((card, i) => JSON.stringify({
      product: `card:${card}`, date: day(offset), language: "en", printing: "HOLOFOIL",
      trend: base + i * 3, low: base + i * 3 - 1, provenance: "Cardmarket (e2e explorer)",
    }));
    writeFileSync(path.join(dir, "cardmarket", `${day(offset)}-e2e-explorer-${Date.now()}.ndjson`), lines.join("\n") + "\n");
    execFileSync("npx", ["tsx", "lib/jobs/cli.ts", "refresh-prices", "--source", dir], { env: process.env, stdio: "pipe" });
    execFileSync("npx", ["tsx", "lib/jobs/cli.ts", "refresh-index"], { env: process.env, stdio: "pipe" });
  }
});

const shoot = (page: Page, name: string) => shootBoth(page, `explorer-${name}`);

const euros = (texts: string[]) => texts.map((t) => Number(t.replace(/\(demo data\)/, "").replace(/[^0-9.]/g, "")));

test("suggestions appear while typing: Pikachu, an accented name, a Japanese name; a pick searches it", async ({ page }) => {
  await page.goto("/cards");
  await expect(page).toHaveTitle(/Search cards/);
  const box = page.getByRole("combobox", { name: "Search cards" });
  const list = page.getByRole("listbox", { name: "Card names" });
  await box.pressSequentially("pikac", { delay: 40 });
  await expect(list.getByRole("option", { name: "Pikachu", exact: true })).toBeVisible();
  await shoot(page, "suggest");

  await box.fill("");
  await box.pressSequentially("flabe", { delay: 40 });
  await expect(list.getByRole("option", { name: "Flabébé" })).toBeVisible();

  await box.fill("");
  await box.pressSequentially("ピカ", { delay: 40 });
  await expect(list.getByRole("option", { name: "ピカチュウ", exact: true })).toBeVisible();

  await box.fill("");
  await box.pressSequentially("pikac", { delay: 40 });
  await list.getByRole("option", { name: "Pikachu", exact: true }).click();
  await expect(page).toHaveURL(/q=name%3A%22Pikachu%22/);
  await expect(page.getByTestId("card-grid").locator("li").first()).toContainText("Pikachu");
  await expectAccessible(page);
});

test("the suggestion route answers JSON without a key", async ({ request }) => {
  const res = await request.get("/cards/suggest?q=dracau");
  expect(res.ok()).toBe(true);
  const { data } = await res.json();
  expect(data.map((s: { name: string }) => s.name)).toContain("Dracaufeu");
});

test("filters write q, which is shown and searched", async ({ page }) => {
  await page.goto("/cards");
  await page.getByLabel("Region").selectOption("JP");
  await page.getByLabel("Type").selectOption("Fire");
  await page.getByRole("combobox", { name: "Search cards" }).fill("charizard");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/region=JP/);
  await expect(page.getByTestId("q-shown")).toContainText("charizard set.region:JP types:Fire");
  await expect(page.getByTestId("card-grid").locator("li").first()).toContainText(/リザードン|Charizard/);
  await shoot(page, "filters");
  await expectAccessible(page);
});

test("sort by price: priced cards only, the dearest first", async ({ page }) => {
  await page.goto(`/cards?set=${SET}&sort=price&view=table`);
  await expect(page.getByTestId("q-shown")).toContainText(`set.code:${SET}`);
  const values = euros(await page.locator("table.cards tbody td.num").allTextContents());
  expect(values.length).toBe(PRICED.length);
  expect([...values].sort((a, b) => b - a)).toEqual(values);
  expect(values[0]).toBeGreaterThan(values.at(-1)!);
});

test("grid and table: the toggle is in the URL; faces are the app's small images, lazy, sized", async ({ page }) => {
  await page.goto(`/cards?set=${SET}`);
  const grid = page.getByTestId("card-grid");
  await expect(grid).toBeVisible();
  const img = grid.locator("img").nth(6);
  await expect(img).toHaveAttribute("src", `/images/cards/${SET}-7/front-small.webp`);
  await expect(img).toHaveAttribute("loading", "lazy");
  await expect(img).toHaveAttribute("width", "245");
  await expect(img).toHaveAttribute("height", "342");
  await expect.poll(() => grid.locator("img").first().evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth)).toBeGreaterThan(0);
  await shoot(page, "grid");
  await expect(page.getByRole("link", { name: "Table", exact: true })).toHaveAttribute("href", `/cards?set=${SET}&view=table`);
  await page.getByRole("link", { name: "Table", exact: true }).click();
  await page.waitForURL(/view=table/, { timeout: 30_000 });
  await expect(page.locator("table.cards")).toBeVisible();
  await expect(page.getByRole("link", { name: "Table", exact: true })).toHaveAttribute("aria-current", "page");
  await shoot(page, "table");
  await expectAccessible(page);
});

test("a set page: cards in number order with prices, the set's total value and change, its dearest cards", async ({ page }) => {
  await page.goto(`/sets/${SET}?view=table`);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Jungle");
  await expect(page).toHaveTitle(/Jungle/);
  const numbers = (await page.locator("table.cards tbody tr td:nth-child(3)").allTextContents()).map(Number);
  expect(numbers.slice(0, 12)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  expect([...numbers].sort((a, b) => a - b)).toEqual(numbers);
  const prices = euros(await page.locator("table.cards tbody td.num").allTextContents()).filter((v) => v > 0);
  expect(prices.length).toBe(PRICED.length);
  const total = euros([await page.getByTestId("set-total").locator(".v").textContent() ?? ""])[0]!;
  expect(total).toBeCloseTo(prices.reduce((s, v) => s + v, 0), 1);
  await expect(page.getByTestId("set-change").locator(".v")).toContainText("%");
  await expect(page.getByTestId("top-cards").locator("li").first()).toContainText(/€/);
  await expectAccessible(page);
  await page.goto(`/sets/${SET}`);
  await shoot(page, "set");
});

test("the sets page groups sets by series; a series page lists its sets", async ({ page }) => {
  await page.goto("/sets");
  await expect(page).toHaveTitle(/Sets/);
  const base = page.locator("section", { has: page.getByRole("heading", { name: /^Base/ }) });
  await expect(base.getByRole("link", { name: "Jungle" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Sets" })).toHaveAttribute("aria-current", "page");
  await expectAccessible(page);
  await shoot(page, "sets");

  await page.goto("/series");
  await expect(page.getByRole("link", { name: "Base", exact: true })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole("link", { name: "Base", exact: true }).click();
  await expect(page).toHaveURL(/\/series\/base$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Base");
  for (const name of ["Base", "Jungle", "Fossil"]) await expect(page.locator(".set-list").getByRole("link", { name, exact: true })).toBeVisible();
  await expectAccessible(page);
  await shoot(page, "series");
});
