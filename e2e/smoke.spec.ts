import { expect, test } from "@playwright/test";

// The public pages load, show real content, and leave a screenshot in test-results/; an address
// that leads nowhere is a 404 page with one header and a way on.

test("landing page says what the API is and links to the reference", async ({ page }) => {
  const response = await page.goto("/");
  expect(response?.status()).toBe(200);

  await expect(page.getByRole("heading", { level: 1 })).toContainText("Pokémon card catalogue");
  await expect(page.getByText("39,000 cards", { exact: false })).toBeVisible();
  await expect(page.locator("pre.example")).toContainText('curl -H "X-Api-Key: $KEY" "$BASE/v1/cards?q=name:charizard&limit=5"');
  await expect(page.getByRole("link", { name: "Read the API reference" })).toHaveAttribute("href", "/docs");
  await expect(page.getByRole("link", { name: "OpenAPI 3.1 document" })).toHaveAttribute("href", "/v1/openapi.json");

  await page.screenshot({ path: "test-results/screenshots/landing.png", fullPage: true });
});

test("docs page renders the operations of /v1/openapi.json", async ({ page, baseURL }) => {
  const origin = new URL(baseURL ?? "http://127.0.0.1").origin;
  const external: string[] = [];
  page.on("request", (req) => {
    const url = new URL(req.url());
    if (url.protocol.startsWith("http") && url.origin !== origin) external.push(req.url());
  });
  const errors: string[] = [];
  page.on("pageerror", (err) => errors.push(err.message));

  const response = await page.goto("/docs");
  expect(response?.status()).toBe(200);

  // The reference is server-rendered from the OpenAPI document: operations are there at once.
  await expect(page.getByRole("heading", { name: "Pokémon TCG Card Catalogue and Price API" })).toBeVisible({ timeout: 30_000 });
  const sidebar = page.getByRole("complementary");
  await sidebar.getByRole("link", { name: /Search cards/ }).click();
  const operation = page.getByRole("heading", { name: "Search cards" });
  await expect(operation).toBeVisible();
  await expect(operation).toBeInViewport();
  await expect(page).toHaveURL(/#listCards$/);

  await page.screenshot({ path: "test-results/screenshots/docs.png", fullPage: false });

  // Nothing is fetched from other hosts (fonts, scripts, telemetry), and the page throws nothing.
  expect(external, "requests to other origins").toEqual([]);
  expect(errors, "uncaught page errors").toEqual([]);
});

test("an address that leads nowhere answers 404 with the site's header and a way on", async ({ page }) => {
  for (const path of ["/no-such-page", "/cards/base1-999", "/sets/no-such-set"]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    await expect(page.getByRole("heading", { level: 1 }), path).toHaveText("Nothing here");
    // One header, not one from the layout and another from the not-found page.
    await expect(page.getByRole("navigation", { name: "Main" }), path).toHaveCount(1);
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Cards" }), path).toBeVisible();
    await expect(page.getByRole("link", { name: "Search the cards" }), path).toHaveAttribute("href", "/cards");
  }
  await page.screenshot({ path: "test-results/screenshots/not-found.png", fullPage: false });
});
