import { expect, test } from "@playwright/test";
import { PASSWORD, signUpConfirmed, uniqueEmail } from "./helpers/account";

// The dashboard's quick start prints curl lines to paste: their address must be the one the
// browser is on. Signing in renders the dashboard inside the sign-in's own request, where the
// server knew itself only by the name it listens on (HOST, 0.0.0.0 by default): a newcomer at
// http://localhost:3000 was shown lines for http://0.0.0.0:3000.

test("the quick start's lines use the address the browser is on, also right after signing in", async ({ page, request, baseURL }) => {
  test.skip(!baseURL?.includes("127.0.0.1"), "needs the server under test by a second name");
  const email = uniqueEmail("origin");
  await signUpConfirmed(page, request, email);
  await expect(page.getByTestId("quick-start")).toContainText(`'${baseURL}/v1/me'`);

  // The same server under its other name: a new session there, the dashboard from the redirect.
  const other = baseURL!.replace("127.0.0.1", "localhost");
  await page.goto(`${other}/sign-in`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(`${other}/dashboard`);
  await expect(page.getByTestId("quick-start")).toContainText(`'${other}/v1/me'`);
  await page.reload();
  await expect(page.getByTestId("quick-start")).toContainText(`'${other}/v1/me'`);
});
