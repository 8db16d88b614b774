import { expect, test, type Page } from "@playwright/test";

// The API reference at /docs: server-rendered HTML from the OpenAPI document, readable without
// JavaScript, every operation of /v1/openapi.json once, the operators' routes last, anchors that
// land on their operation, and a light page. Screenshots go to e2e/screenshots/.

type Doc = { paths: Record<string, Record<string, { operationId: string }>> };

const METHODS = new Set(["get", "put", "post", "patch", "delete", "head", "options", "trace"]);

/** The operations on the page in page order: their anchor and their path. */
const operationsOn = (page: Page) =>
  page.locator("main section.op:not(.schema)").evaluateAll((els) =>
    els.map((el) => ({ id: el.id, path: el.querySelector(".op-path code")?.textContent ?? "" })));

test("without JavaScript, the reference lists every operation of /v1/openapi.json, operators last", async ({ browser, request }) => {
  const doc = (await (await request.get("/v1/openapi.json")).json()) as Doc;
  const expected = Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).filter(([m]) => METHODS.has(m)).map(([, op]) => ({ id: op.operationId, path })));
  expect(expected.length).toBeGreaterThan(40);

  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  const response = await page.goto("/docs");
  expect(response?.status()).toBe(200);
  expect(response?.headers()["content-type"]).toMatch(/^text\/html/);

  await expect(page.getByRole("heading", { level: 1, name: "Pokémon TCG Card Catalogue and Price API" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 3, name: "Search cards" })).toBeVisible();
  const onPage = await operationsOn(page);
  expect(onPage).toHaveLength(expected.length);
  expect(onPage.map((o) => o.id).sort()).toEqual(expected.map((o) => o.id).sort());

  // The operators' routes (/v1/admin/...) come after every other one, on the page and in the contents.
  const firstAdmin = onPage.findIndex((o) => o.path.startsWith("/v1/admin/"));
  expect(firstAdmin).toBeGreaterThan(0);
  expect(onPage.slice(firstAdmin).every((o) => o.path.startsWith("/v1/admin/"))).toBe(true);
  const contents = await page.getByRole("complementary").locator("li a[href^='#']").evaluateAll((as) => as.map((a) => a.getAttribute("href")!.slice(1)));
  const opLinks = contents.filter((id) => onPage.some((o) => o.id === id));
  expect(opLinks).toEqual(onPage.map((o) => o.id));

  // One operation in full: cost, plan, authentication, parameters, responses with error codes, curl.
  const getCard = page.locator("#getCard");
  await expect(getCard.locator(".op-path")).toContainText("GET /v1/cards/{id}");
  await expect(getCard.locator(".facts")).toContainText("Cost");
  await expect(getCard.locator(".facts")).toContainText("every plan, the trial included");
  await expect(getCard.locator(".facts")).toContainText("X-Api-Key header");
  await expect(getCard.getByRole("cell", { name: /^id string path required/i })).toBeVisible();
  await expect(getCard.locator(".codes li", { hasText: "CARD_NOT_FOUND" })).toHaveText("CARD_NOT_FOUND No card with that id or alternate id.");
  await expect(getCard.locator("pre.curl")).toHaveText(`curl -H "X-Api-Key: $KEY" "$BASE/v1/cards/base1-4"`);
  await expect(page.locator("#listPriceMovers .facts")).toContainText(/Plan\s*growth/);
  await expect(page.locator("#error-CARD_NOT_FOUND")).toContainText("404");
  await expect(page.getByRole("link", { name: "/v1/openapi.json" }).first()).toHaveAttribute("href", "/v1/openapi.json");
  await context.close();
});

test("an anchor lands on its operation, below the sticky header, and the contents link there", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/docs#getCard");
  const heading = page.locator("#getCard > h3");
  await expect(heading).toHaveText("One card");
  await expect(heading).toBeInViewport();
  const headerBottom = await page.locator(".site-header").evaluate((el) => el.getBoundingClientRect().bottom);
  expect((await heading.boundingBox())!.y).toBeGreaterThanOrEqual(headerBottom);

  await page.getByRole("complementary").getByRole("link", { name: /Search cards/ }).click();
  await expect(page).toHaveURL(/\/docs#listCards$/);
  await expect(page.getByRole("heading", { level: 3, name: "Search cards" })).toBeInViewport();

  // A field shown once and referred to from another operation opens where it is shown.
  const same = page.locator("#getSealedPrices a[href^='#getCardPrices.']").first();
  const target = (await same.getAttribute("href"))!;
  await page.goto(`/docs${target}`);
  await expect(page.locator(`[id="${target.slice(1)}"]`)).toBeInViewport();
});

test("the reference is one light document: no script, a small transfer, painted at once", async ({ page, baseURL }) => {
  const origin = new URL(baseURL ?? "http://127.0.0.1").origin;
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
  const sizes = new Map<string, number>();
  const kinds = new Map<string, string>();
  cdp.on("Network.responseReceived", (e) => kinds.set(e.requestId, `${e.type} ${e.response.url}`));
  cdp.on("Network.loadingFinished", (e) => sizes.set(e.requestId, e.encodedDataLength));
  const errors: string[] = [];
  page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
  page.on("pageerror", (e) => errors.push(e.message));

  const response = await page.goto("/docs", { waitUntil: "load" });
  expect(response?.status()).toBe(200);
  await page.waitForTimeout(500);
  const nav = await page.evaluate(() => {
    const n = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
    const fcp = performance.getEntriesByType("paint").find((p) => p.name === "first-contentful-paint");
    return { decoded: n.decodedBodySize, fcp: fcp?.startTime ?? Infinity, scripts: document.scripts.length };
  });
  const requests = [...kinds.values()];
  const transferred = [...sizes.values()].reduce((a, b) => a + b, 0);
  console.log(`/docs: ${nav.decoded} bytes of HTML, ${transferred} bytes transferred in ${requests.length} requests, FCP ${Math.round(nav.fcp)} ms`);

  // Bounds: the whole reference (55 operations with their field tables) is about 285 KB of HTML,
  // stylesheet inlined, about 40 KB gzip. The issue asked for well under 300 KB; the page it
  // replaced was 4.6 MB decoded and 1.5 MB transferred, 1.25 MB of it script. 300 KB
  // transferred still holds if a proxy in front does not compress.
  expect(nav.decoded).toBeLessThan(300_000);
  expect(transferred).toBeLessThan(300_000);
  expect(nav.scripts).toBe(0);
  expect(requests.filter((r) => r.startsWith("Script")), "scripts").toEqual([]);
  expect(requests.filter((r) => !r.includes(origin)), "requests to other origins").toEqual([]);
  expect(nav.fcp).toBeLessThan(2_000);
  expect(errors, "console errors").toEqual([]);
});

test("from the landing page, the header's link opens the reference", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("link", { name: "Read the API reference" }).click();
  await expect(page).toHaveURL(/\/docs$/);
  await expect(page.getByRole("heading", { level: 1, name: "Pokémon TCG Card Catalogue and Price API" })).toBeVisible();
});

test("screenshots: desktop and a 390 px phone, with the contents opening on the phone", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/docs#listCards");
  await expect(page.locator("#listCards > h3")).toBeInViewport();
  await page.screenshot({ path: "e2e/screenshots/docs.png" });

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/docs#getCard");
  await expect(page.locator("#getCard > h3")).toBeInViewport();
  // No horizontal scrolling on a phone.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: "e2e/screenshots/docs-phone.png" });
  const contents = page.getByRole("complementary");
  await expect(contents).toBeHidden();
  await page.getByRole("link", { name: "Contents" }).click();
  await expect(contents).toBeVisible();
  await contents.getByRole("link", { name: /One set/ }).click();
  await expect(contents).toBeHidden();
  await expect(page.locator("#getSet > h3")).toBeInViewport();
});

test("/favicon.ico and /icon.svg answer with an image", async ({ request }) => {
  const ico = await request.get("/favicon.ico");
  expect(ico.status()).toBe(200);
  expect(ico.headers()["content-type"]).toMatch(/^image\//);
  expect((await ico.body()).subarray(0, 4)).toEqual(Buffer.from([0, 0, 1, 0]));
  const svg = await request.get("/icon.svg");
  expect(svg.status()).toBe(200);
  expect(svg.headers()["content-type"]).toMatch(/^image\/svg\+xml/);
});
