import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";

// A collector's way: search the catalogue, open a card, read its index over time and its
// current quotes. The prices come from feed files applied by the real jobs, as in production.

const CARD = "base1-8";
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

test.beforeAll(() => {
  // Three deliveries, each followed by refresh-index: the index gains a point per run.
  for (const [offset, trend] of [[-40, 20], [-20, 26], [-2, 31]] as const) {
    const dir = mkdtempSync(path.join(tmpdir(), "e2e-feeds-"));
    mkdirSync(path.join(dir, "cardmarket"));
    writeFileSync(path.join(dir, "cardmarket", `${day(offset)}-e2e-${Date.now()}.ndjson`),
      JSON.stringify({ product: `card:${CARD}`, date: day(offset), language: "en", printing: "HOLOFOIL", trend, low: trend - 2, provenance: `Cardmarket (e2e ${Date.now()})` }) + "\n");
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
  await expect(page.getByTestId("price-chart").locator("path.recharts-curve")).toHaveCount(1);
  await expect(page.getByRole("table")).toContainText("TREND");
  await expect(page.getByRole("table")).toContainText("€29.00");
  await page.getByRole("link", { name: "7d" }).click();
  await expect(page).toHaveURL(/window=7d/);
  await expect(page.getByRole("link", { name: "7d" })).toHaveAttribute("aria-current", "page");
});

test("highest price first lists priced cards only, the dearest first", async ({ page }) => {
  await page.goto("/cards?q=set.code:base1&sort=price");
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
