import { expect, type Page } from "@playwright/test";

// Screenshots of a page at desktop and phone width (e2e/screenshots/, not committed), and the
// check that goes with the phone one: the page never scrolls sideways (a wide table scrolls
// inside its own box).

export const SHOTS = "e2e/screenshots";
export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 390, height: 844 };

/** Elements sticking out past the viewport's right edge, when the page scrolls sideways. */
export async function sidewaysOverflow(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const limit = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth <= limit) return [];
    return [...document.querySelectorAll("body *")]
      .filter((el) => el.getBoundingClientRect().right > limit + 0.5)
      .slice(0, 10)
      .map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].join(".")} to ${Math.round(el.getBoundingClientRect().right)} px`);
  });
}

/** `<name>.png` at desktop width and `<name>-phone.png` at 390 px; the viewport is left at desktop width. */
export async function shoot(page: Page, name: string, opts: { fullPage?: boolean; sideways?: boolean } = {}) {
  const fullPage = opts.fullPage ?? true;
  await page.setViewportSize(DESKTOP);
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage });
  await page.setViewportSize(PHONE);
  // Charts measure their box after a resize: a frame for them to redraw.
  await page.waitForTimeout(150);
  await page.screenshot({ path: `${SHOTS}/${name}-phone.png`, fullPage });
  if (opts.sideways !== false) expect(await sidewaysOverflow(page), `${name} at 390 px scrolls sideways`).toEqual([]);
  await page.setViewportSize(DESKTOP);
}
