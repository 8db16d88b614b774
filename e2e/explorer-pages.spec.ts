import { execFileSync } from "node:child_process";
import { shoot as shootBoth } from "./helpers/screens";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { expectAccessible } from "./helpers/axe";

// The collector's price explorer: a card page (face, catalogue data, other printings, the index
// and the sources behind it, a chart with a line per source over switchable ranges, raw and
// graded quotes, the thin-market flag), the movers, a sealed product and an artist. The prices
// come from feed files in each provider's own shape, applied by the real jobs: four sources for
// CARD with a year of history, one thin source for THIN_CARD, a falling card, a sealed product.

const CARD = "base1-15"; // Venusaur, Mitsuhiro Arita: reprinted in base4, base6, pop2…
const THIN_CARD = "base1-16"; // Zapdos: one Cardmarket figure from two sellers
const FALLER = "base1-11"; // Nidoking
// These cards are priced by no other test: the e2e server shares the integration run's database,
// where bulk.test.ts prices Mewtwo (base1-10) on the same day as the last delivery here (CI failed
// on it: the later file's figure won, and Mewtwo no longer fell).
const SEALED = "base-set-base-set-theme-deck-blackout-revised-base-set-repr-136401";
const ARTIST = "mitsuhiro-arita";

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const write = (dir: string, source: string, name: string, lines: unknown[]) => {
  mkdirSync(path.join(dir, source), { recursive: true });
  writeFileSync(path.join(dir, source, name), lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
};
const job = (...args: string[]) => execFileSync("npx", ["tsx", "lib/jobs/cli.ts", ...args], { env: { ...process.env }, stdio: "pipe" });

// One worker runs the file in order: the prices are made once, in beforeAll.
test.describe.configure({ mode: "default" });

test.beforeAll(() => {
  test.setTimeout(240_000);
  const stamp = Date.now();
  // ECB-style rates for every day of the window, so USD figures convert to EUR.
  const fxDir = mkdtempSync(path.join(tmpdir(), "e2e-fx-"));
  const fxRows = Array.from({ length: 440 }, (_, i) => `${day(-438 + i)},1.0800,160.00,0.8500`);
  writeFileSync(path.join(fxDir, "fx.csv"), ["Date,USD,JPY,GBP", ...fxRows].join("\n") + "\n");
  job("import-fx", "--file", path.join(fxDir, "fx.csv"));

  // A year and more of history before the first delivery (history files: one series per line).
  const hist = mkdtempSync(path.join(tmpdir(), "e2e-explorer-history-"));
  const n = 385; // day -420 to day -36
  const ramp = (from: number, to: number) => Array.from({ length: n }, (_, i) => Math.round((from + ((to - from) * i) / (n - 1)) * 100) / 100);
  const series = (product: string, o: Record<string, unknown>) => ({
    product, basis: "SOLD", locale: "en", grading: null, sample_n: 12, from: day(-420), ...o,
  });
  write(hist, "cardmarket", `history-e2e-explorer-${stamp}.ndjson`, [
    series(`card:${CARD}`, { variant: "TREND", currency: "EUR", condition: "NEAR_MINT", printing: "HOLOFOIL", provenance: "Cardmarket", amounts: ramp(12, 19) }),
    series(`sealed:${SEALED}`, { variant: "TREND", currency: "EUR", condition: "NEAR_MINT", printing: "NORMAL", provenance: "Cardmarket", amounts: ramp(60, 75) }),
  ]);
  write(hist, "tcgplayer", `history-e2e-explorer-${stamp}.ndjson`, [
    series(`card:${CARD}`, { variant: "MARKET", currency: "USD", condition: "NEAR_MINT", printing: "HOLOFOIL", provenance: "TCGplayer", sample_n: null, amounts: ramp(14, 21) }),
    series(`sealed:${SEALED}`, { variant: "MARKET", currency: "USD", condition: "NEAR_MINT", printing: "NORMAL", provenance: "TCGplayer", sample_n: null, amounts: ramp(66, 80) }),
  ]);
  job("refresh-prices", "--source", hist, "--force");

  // Four deliveries, each followed by refresh-index: the index gains a point per run, and the
  // movers' windows (24h, 7d, 30d) have a start and an end.
  for (const [offset, f] of [[-35, 1], [-8, 1.3], [-3, 1.5], [-2, 1.55]] as const) {
    const dir = mkdtempSync(path.join(tmpdir(), "e2e-explorer-feeds-"));
    const date = day(offset);
    const name = `${date}-e2e-explorer-${stamp}.ndjson`;
    const r = (v: number) => Math.round(v * f * 100) / 100;
    write(dir, "cardmarket", name, [
      { product: `card:${CARD}`, date, language: "en", printing: "HOLOFOIL", sellers: 14, low: r(18), trend: r(20), avg7: r(19.5), avg1: r(20.5) },
      { product: `card:${THIN_CARD}`, date, language: "en", printing: "HOLOFOIL", sellers: 2, trend: r(12) },
      { product: `card:${FALLER}`, date, language: "en", printing: "HOLOFOIL", sellers: 9, trend: Math.round((40 / f) * 100) / 100 },
      { product: `sealed:${SEALED}`, date, language: "en", printing: "NORMAL", sellers: 6, trend: r(76), low: r(70) },
    ]);
    write(dir, "tcgplayer", name, [
      { product: `card:${CARD}`, date, subTypeName: "Holofoil", lowPrice: r(20), marketPrice: r(22.5) },
      { product: `sealed:${SEALED}`, date, subTypeName: "Normal", marketPrice: r(82) },
    ]);
    write(dir, "ebay", name, [
      { product: `card:${CARD}`, date, grade: null, median_usd: r(23), sold_count: 9 },
      { product: `card:${CARD}`, date, grade: "PSA 10", median_usd: r(420), sold_count: 3 },
      { product: `card:${CARD}`, date, grade: "CGC 9.5", median_usd: r(150), sold_count: 6 },
    ]);
    write(dir, "pricecharting", name, [
      { product: `card:${CARD}`, date, "loose-price": Math.round(r(2150)), graded: { "PSA 10": Math.round(r(45000)), "PSA 9": Math.round(r(21000)), "BGS 9.5": Math.round(r(30000)) }, "sales-volume": 20 },
    ]);
    job("refresh-prices", "--source", dir);
    job("refresh-index");
  }
});

const shoot = (page: Page, name: string) => shootBoth(page, `explorer-${name}`, { sideways: false });

test("card page: face, linked set and artist, printings, index provenance, a line per source, readable labels", async ({ page }) => {
  await page.goto(`/cards/${CARD}`);
  await expect(page).toHaveTitle("Venusaur (Base 15/102) price · PokéPrice");
  expect(await page.locator('meta[name="description"]').getAttribute("content")).toContain("composite price index");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Venusaur");

  const img = page.getByTestId("card-image");
  await expect(img).toHaveAttribute("src", `/images/cards/${CARD}/front-large.webp`);
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBeGreaterThan(300);

  await expect(page.getByTestId("set-link")).toHaveAttribute("href", "/sets/base1");
  await expect(page.getByTestId("artist-link")).toHaveAttribute("href", `/artists/${ARTIST}`);
  await expect(page.getByTestId("languages")).toContainText("English");
  const printings = page.getByTestId("printings");
  await expect(printings.locator('a[href="/cards/base4-18"]')).toBeVisible();
  await expect(printings.locator('a[href="/cards/pop2-6"]')).toBeVisible();

  // The index and who agrees: four sources, each with its own figure and currency.
  await expect(page.locator(".fact", { hasText: "Sources agreeing" }).locator(".v")).toHaveText("4");
  await expect(page.locator(".fact", { hasText: "Sources agreeing" })).not.toContainText("Thin market");
  const prov = page.getByTestId("index-provenance");
  await expect(prov).toContainText("English, holofoil");
  for (const s of ["Cardmarket (trend price)", "TCGplayer (market price)", "eBay sold listings (market price)", "PriceCharting (market price)"]) await expect(prov).toContainText(s);
  await expect(prov).toContainText(/\$[\d.]+ ≈ €[\d.]+/);
  await expect(page.locator(".fact", { hasText: "As of" })).toContainText(day(-2));

  // The chart: the index and one line per source.
  const chart = page.getByTestId("price-chart");
  await expect(chart.locator("path.recharts-curve")).toHaveCount(5);
  await expect(page.getByTestId("chart-legend").locator("li")).toHaveCount(5);
  await expect(page.getByTestId("chart-legend")).toContainText("TCGplayer market price (USD in EUR)");
  await expect(page.getByTestId("chart-table")).toContainText("Composite index");

  // Raw per printing, graded per company and grade, own currency with EUR beside it.
  await expect(page.locator("table.quotes.raw caption")).toContainText(["Raw (ungraded), holofoil"]);
  const graded = page.getByTestId("graded-quotes");
  for (const g of ["PSA 10", "PSA 9", "BGS 9.5", "CGC 9.5"]) await expect(graded).toContainText(g);
  await expect(graded.locator("tr", { hasText: "CGC 9.5" })).toContainText(/\$[\d.]+/);
  await expect(graded.locator("tr", { hasText: "CGC 9.5" })).toContainText(/≈ €[\d.]+/);

  // Labels: never a raw code.
  const text = await page.locator("main").innerText();
  expect(text).not.toMatch(/\b(AVG_1D|AVG_7D|MEDIAN_GRADED|FIRST_EDITION\w*|NEAR_MINT|HOLOFOIL|TREND|MARKET)\b/);
  expect(text).toContain("Trend price");
  expect(text).toContain("Near mint");
  // The PSA 10 eBay median rests on 3 sales: flagged thin, the rule said.
  await expect(graded.locator("tr", { hasText: "PSA 10" }).filter({ hasText: "eBay" })).toContainText("Thin market");
  await expect(page.getByTestId("thin-rule")).toContainText("fewer than 2 sources");

  await expectAccessible(page);
  await shoot(page, "card");
});

test("card page: ranges switch in the browser through the chart route, without reloading", async ({ page }) => {
  await page.goto(`/cards/${CARD}`);
  await expect(page.locator(".fact .k", { hasText: "Low / high" })).toHaveText("Low / high (1y)");
  await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
  const fetched = page.waitForRequest((r) => r.url().includes(`/cards/${CARD}/chart?window=30d`));
  await page.getByRole("navigation", { name: "Range" }).getByRole("link", { name: "30d" }).click();
  await fetched;
  await expect(page).toHaveURL(/window=30d/);
  await expect(page.locator(".fact .k", { hasText: "Low / high" })).toHaveText("Low / high (30d)");
  await expect(page.getByRole("navigation", { name: "Range" }).getByRole("link", { name: "30d" })).toHaveAttribute("aria-current", "page");
  expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
  await page.getByRole("navigation", { name: "Range" }).getByRole("link", { name: "all" }).click();
  await expect(page.locator(".fact .k", { hasText: "Low / high" })).toHaveText("Low / high (all)");
  await expect(page.getByTestId("chart-table")).toContainText("weekly means");
});

test("card page without JavaScript: the figures are in a table and the ranges are links", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`/cards/${CARD}?window=90d`);
  await expect(page.locator(".fact .k", { hasText: "Low / high" })).toHaveText("Low / high (90d)");
  const table = page.getByTestId("chart-table");
  await expect(table.locator("tbody tr")).toHaveCount(5);
  await expect(table).toContainText("Cardmarket trend price");
  await page.getByRole("navigation", { name: "Range" }).getByRole("link", { name: "7d" }).click();
  await expect(page).toHaveURL(/window=7d/);
  await expect(page.locator(".fact .k", { hasText: "Low / high" })).toHaveText("Low / high (7d)");
  await context.close();
});

test("a thin market is flagged: one source, two sellers", async ({ page }) => {
  await page.goto(`/cards/${THIN_CARD}`);
  await expect(page.locator(".fact", { hasText: "Sources agreeing" })).toContainText("Thin market");
  await expect(page.locator("table.quotes.raw").first()).toContainText("Thin market");
  await expect(page.getByTestId("thin-market").first()).toHaveAttribute("title", /fewer than 2 sources/);
  await expectAccessible(page);
});

test("movers: risers and fallers, filtered by set", async ({ page }) => {
  await page.goto("/movers?window=30d");
  await expect(page).toHaveTitle(/Price movers/);
  await page.getByLabel("Set code").fill("base1");
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(/set=base1/);
  await expect(page).toHaveURL(/window=30d/);
  await expect(page.getByTestId("movers-filter")).toContainText("of set base1");
  await expect(page.getByTestId("risers").locator(`a[href="/cards/${CARD}"]`)).toBeVisible();
  await expect(page.getByTestId("fallers").locator(`a[href="/cards/${FALLER}"]`)).toBeVisible();
  for (const cell of await page.getByTestId("risers").locator("tbody tr td:nth-child(2)").allTextContents()) expect(cell).toBe("Base");
  await expect(page.getByTestId("risers").locator("tr", { hasText: "Venusaur" })).toContainText(/\+[\d.]+ %/);
  await page.getByRole("link", { name: "7d" }).click();
  await expect(page).toHaveURL(/window=7d.*set=base1|set=base1.*window=7d/);
  await expect(page.getByTestId("risers").locator(`a[href="/cards/${CARD}"]`)).toBeVisible();
  await page.goto("/movers?window=30d&set=nosuchset");
  await expect(page.locator("p.error-note[role=alert]")).toContainText("No set");
  await page.goto("/movers?window=30d&set=base1");
  await expectAccessible(page);
  await shoot(page, "movers");
});

test("movers over 24h: the newest day's index against the day before's", async ({ page }) => {
  await page.goto("/movers?set=base1");
  await page.getByRole("navigation", { name: "Window" }).getByRole("link", { name: "24h" }).click();
  await expect(page).toHaveURL(/window=24h/);
  await expect(page.getByRole("navigation", { name: "Window" }).getByRole("link", { name: "24h" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByRole("table", { name: "Risers over 24 hours" })).toBeVisible();
  // CARD went from 1.5 to 1.55 times its figures, FALLER the other way.
  const riser = page.getByTestId("risers").locator("tr", { has: page.locator(`a[href="/cards/${CARD}"]`) });
  await expect(riser).toContainText(/\+3\.\d %/);
  await expect(page.getByTestId("fallers").locator(`a[href="/cards/${FALLER}"]`)).toBeVisible();
  await expect(page.getByTestId("fallers").locator("tr", { hasText: "Nidoking" })).toContainText(/−3\.\d %/);
  await expectAccessible(page);
  await shoot(page, "movers-24h");
});

test("sealed: the list filters by set and type, a product page has its index, sources and chart", async ({ page }) => {
  await page.goto("/sealed?set=base1&type=theme-deck");
  await expect(page).toHaveTitle(/Sealed products/);
  const link = page.getByTestId("sealed-list").locator(`a[href="/sealed/${SEALED}"]`);
  await expect(link).toBeVisible();
  for (const t of await page.getByTestId("sealed-list").locator("tbody td:nth-child(2)").allTextContents()) expect(t).toBe("Theme deck");
  await expectAccessible(page);
  await shoot(page, "sealed-list");
  await link.click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Blackout");
  await expect(page.getByTestId("set-link")).toHaveAttribute("href", "/sets/base1");
  await expect(page.locator(".fact", { hasText: "Sources agreeing" }).locator(".v")).toHaveText("2");
  await expect(page.getByTestId("index-provenance")).toContainText("TCGplayer (market price)");
  await expect(page.getByTestId("price-chart").locator("path.recharts-curve")).toHaveCount(3);
  await expect(page.locator("table.quotes.raw")).toContainText("Lowest listing");
  await expectAccessible(page);
  await shoot(page, "sealed");
});

test("artists: the list, and an artist's cards with faces and prices", async ({ page }) => {
  await page.goto("/artists?q=arita");
  await expect(page).toHaveTitle(/artists/i);
  await page.getByTestId("artist-list").getByRole("link", { name: "Mitsuhiro Arita" }).click();
  await expect(page).toHaveURL(`/artists/${ARTIST}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Mitsuhiro Arita");
  const cards = page.getByTestId("artist-cards");
  // Dearest first: the priced Venusaur leads.
  await expect(cards.locator("li").first()).toContainText("Venusaur");
  await expect(cards.locator("li").first()).toContainText("€");
  await expect(cards.locator("li img").first()).toHaveAttribute("src", /front-small\.webp/);
  await expectAccessible(page);
  await shoot(page, "artist");
  await page.goto("/artists");
  await expectAccessible(page);
  await shoot(page, "artists");
});
