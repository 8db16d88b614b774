import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";

// A collector's way: search the catalogue, open a card, read its index over time and its
// current quotes. The prices come from feed files applied by the real jobs, as in production.
// DEMO_CARD's figures are labelled as a demo generator labels them: every figure of it, in the
// list, the index facts and the chart, must say "(demo data)" (CONTRACT.md §1).

const CARD = "base1-8";
const DEMO_CARD = "base1-9";
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

test.beforeAll(() => {
  // Three deliveries, each followed by refresh-index: the index gains a point per run.
  for (const [offset, trend] of [[-40, 20], [-20, 26], [-2, 31]] as const) {
    const dir = mkdtempSync(path.join(tmpdir(), "e2e-feeds-"));
    mkdirSync(path.join(dir, "cardmarket"));
    const line = (card: string, provenance: string) =>
      JSON.stringify({ product: `card:${card}`, date: day(offset), language: "en", printing: "HOLOFOIL", trend, low: trend - 2, provenance });
    writeFileSync(path.join(dir, "cardmarket", `${day(offset)}-e2e-${Date.now()}.ndjson`),
      [line(CARD, `Cardmarket (e2e ${Date.now()})`), line(DEMO_CARD, "Cardmarket (demo data)")].join("\n") + "\n");
    const env = { ...process.env };
    execFileSync("npx", ["tsx", "lib/jobs/cli.ts", "refresh-prices", "--source", dir], { env, stdio: "pipe" });
    execFileSync("npx", ["tsx", "lib/jobs/cli.ts", "refresh-index"], { env, stdio: "pipe" });
  }
});

test("search a card, open it, read its index chart and quotes", async ({ page }) => {
  await page.goto("/cards?q=name:machamp set.code:base1");
  const link = page.locator(`a[href="/cards/${CARD}"]`);
  await expect(link).toBeVisible();
  await link.click();
  await expect(page).toHaveURL(new RegExp(`/cards/${CARD}`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Machamp");
  await expect(page.getByTestId("price-chart")).toBeVisible();
  // The composite index and one line per source (here Cardmarket alone).
  await expect(page.getByTestId("price-chart").locator("path.recharts-curve")).toHaveCount(2);
  await expect(page.locator("table.quotes.raw")).toContainText("Trend price");
  await expect(page.locator("table.quotes.raw")).toContainText("€29.00");
  await page.getByRole("link", { name: "7d" }).click();
  await expect(page).toHaveURL(/window=7d/);
  await expect(page.getByRole("link", { name: "7d" })).toHaveAttribute("aria-current", "page");
});

test("highest price first lists priced cards only, the dearest first", async ({ page }) => {
  await page.goto("/cards?q=set.code:base1&sort=price&view=table");
  const cells = page.locator("table.cards tbody tr td.num");
  await expect(cells.first()).toContainText("€");
  const values = (await cells.allTextContents()).map((t) => Number(t.replace(/[^0-9.]/g, "")));
  expect(values.length).toBeGreaterThan(0);
  expect([...values].sort((a, b) => b - a)).toEqual(values);
});

test("a query that does not parse is explained, not a crash", async ({ page }) => {
  await page.goto("/cards?q=name:(");
  await expect(page.locator("p.error-note[role=alert]")).toContainText("needs a value");
});

test("catalogue order sorts numbers as numbers: 1, 2, … 10, 11, never 1, 10, 100, 11", async ({ page }) => {
  await page.goto("/cards?q=set.code:base1&view=table");
  const numbers = (await page.locator("table.cards tbody tr td:nth-child(3)").allTextContents()).map(Number);
  expect(numbers.slice(0, 12)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  expect([...numbers].sort((a, b) => a - b)).toEqual(numbers);
});

test("every demo figure says (demo data): the list, the index facts, the chart's title, legend and tooltip", async ({ page }) => {
  await page.goto("/cards?q=set.code:base1&sort=price&view=table");
  const row = (id: string) => page.locator("table.cards tbody tr", { has: page.locator(`a[href="/cards/${id}"]`) });
  await expect(row(DEMO_CARD).locator("td.num")).toContainText(/€[\d.,]+ \(demo data\)/);
  // A figure from a feed that is not demo data carries no such label.
  await expect(row(CARD).locator("td.num")).toContainText("€");
  await expect(row(CARD).locator("td.num")).not.toContainText("demo");

  await page.goto(`/cards/${DEMO_CARD}`);
  for (const fact of ["Composite index", "Low / high", "Change"]) {
    await expect(page.locator(".fact .k", { hasText: fact })).toContainText("(demo data)");
  }
  const chart = page.getByTestId("price-chart");
  await expect(chart).toHaveAttribute("aria-label", /Composite index \(demo data\) in EUR/);
  await expect(page.getByTestId("price-chart-title")).toContainText("Composite index (demo data)");
  await expect(page.locator("table.quotes.raw")).toContainText("Cardmarket (demo data)");
  // The card page shows the card's face first: the chart is below the fold.
  await chart.scrollIntoViewIfNeeded();
  const box = (await chart.locator(".recharts-surface").boundingBox())!;
  await page.mouse.move(box.x + box.width - 12, box.y + box.height / 2);
  await expect(chart.locator(".recharts-tooltip-wrapper")).toContainText("(demo data)");

  await page.goto(`/cards/${CARD}`);
  await expect(page.getByTestId("price-chart-title")).toHaveText(/Composite index, EUR/);
  await expect(page.locator(".index-section .facts")).not.toContainText("demo");
  await expect(page.locator(".explorer .facts")).not.toContainText("demo");
});
