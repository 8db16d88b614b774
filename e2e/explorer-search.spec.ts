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

test("a set's symbol is an SVG of the app's own; an unknown set is a 404 in the error envelope", async ({ request }) => {
  const res = await request.get(`/sets/${SET}/symbol.svg`);
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toContain("image/svg+xml");
  const svg = await res.text();
  expect(svg).toContain("<title>Jungle symbol</title>");
  expect(svg).not.toMatch(/https?:\/\/(?!www\.w3\.org)/);
  const missing = await request.get("/sets/nosuchset/symbol.svg");
  expect(missing.status()).toBe(404);
  expect((await missing.json()).error.code).toBe("SET_NOT_FOUND");
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

test("price range: two bounds written into q as one price term, searched on the index", async ({ page }) => {
  await page.goto(`/cards?set=${SET}&view=table`);
  await page.getByLabel("Lowest price in EUR").fill("20");
  await page.getByLabel("Highest price in EUR").fill("30");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/min_eur=20&max_eur=30/);
  await expect(page.getByTestId("q-shown")).toContainText(`set.code:${SET} price:[20 TO 30]`);
  // The figures are 15 + 3 i: 21, 24, 27 and 30 lie in the range.
  const values = euros(await page.locator("table.cards tbody td.num").allTextContents());
  expect(values).toHaveLength(4);
  for (const v of values) expect(v).toBeGreaterThanOrEqual(20), expect(v).toBeLessThanOrEqual(30);
  await expect(page.getByLabel("Lowest price in EUR")).toHaveValue("20");
  await expectAccessible(page);
  await shoot(page, "price-range");

  // One bound alone; a bound that is no amount is named, not dropped.
  await page.goto(`/cards?set=${SET}&min_eur=40&view=table`);
  await expect(page.getByTestId("q-shown")).toContainText("price:>=40");
  for (const v of euros(await page.locator("table.cards tbody td.num").allTextContents())) expect(v).toBeGreaterThanOrEqual(40);
  await page.goto(`/cards?set=${SET}&max_eur=cheap`);
  await expect(page.locator("p.error-note[role=alert]")).toContainText("amount in EUR");
});

test("sorts by the 7- and 30-day change, by number (numeric) and by name", async ({ page }) => {
  // Every priced card rose (+3 EUR a delivery on figures of 15 + 3 i): the cheapest rose most.
  await page.goto(`/cards?set=${SET}&view=table`);
  await page.getByLabel("Sort").selectOption({ label: "Biggest 7d rise" });
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/sort=rise-7d/);
  await expect(page.locator("table.cards thead")).toContainText("7d change");
  const changes = async () => (await page.locator("table.cards tbody td:last-child").allTextContents()).map((t) => Number(t.replace("−", "-").replace(/[^0-9.+-]/g, "")));
  const rise7 = await changes();
  expect(rise7).toHaveLength(PRICED.length);
  expect([...rise7].sort((a, b) => b - a)).toEqual(rise7);
  await expect(page.locator("table.cards tbody tr").first()).toContainText("+");
  await shoot(page, "sort-change");

  await page.goto(`/cards?set=${SET}&sort=fall-30d&view=table`);
  const fall30 = await changes();
  expect(fall30).toHaveLength(PRICED.length);
  expect([...fall30].sort((a, b) => a - b)).toEqual(fall30);
  await expectAccessible(page);

  await page.goto(`/cards?set=${SET}&sort=rise-7d`);
  await expect(page.getByTestId("card-grid").locator("li").first().locator(".c-price .up")).toContainText("%");

  await page.goto(`/cards?set=${SET}&sort=number&view=table`);
  const numbers = (await page.locator("table.cards tbody tr td:nth-child(3)").allTextContents()).map(Number);
  expect(numbers.slice(0, 12)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  expect([...numbers].sort((a, b) => a - b)).toEqual(numbers);

  await page.goto(`/cards?set=${SET}&sort=name&view=table`);
  const names = await page.locator("table.cards tbody tr td:first-child").allTextContents();
  expect(names.length).toBeGreaterThan(10);
  expect(names[0]!.localeCompare(names.at(-1)!, "en")).toBeLessThan(0);

  await page.goto(`/cards?region=WEST&sort=release-asc&view=table`);
  await expect(page.locator("table.cards tbody tr").first()).toContainText(/.+/);
  await expect(page.locator("table.cards tbody tr td:nth-child(2)").first()).toHaveText(/Base|Wizards|Promo/);
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
  // The set's symbol: drawn by the app, from its own origin, loaded.
  const symbol = page.getByRole("heading", { level: 1 }).locator("img.set-symbol");
  await expect(symbol).toHaveAttribute("src", `/sets/${SET}/symbol.svg`);
  await expect.poll(() => symbol.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth)).toBeGreaterThan(0);
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
  // Every set has its symbol.
  const rows = page.locator(".set-list li");
  await expect(rows.first()).toBeVisible();
  expect(await page.locator(".set-list li img.set-symbol").count()).toBe(await rows.count());
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
