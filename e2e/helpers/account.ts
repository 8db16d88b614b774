import { randomUUID } from "node:crypto";
import { expect, type APIRequestContext, type Page } from "@playwright/test";
import { E2E_ADMIN_TOKEN } from "../env";

// A person's first steps, shared by the specs: a fresh address, the mail in the development
// outbox (which the server under test shows to the operator token), sign-up and sign-in.

export const PASSWORD = "correct horse battery";

export const uniqueEmail = (tag: string) => `e2e-${tag}-${Date.now()}-${randomUUID().slice(0, 8)}@example.com`;

/** The newest link of a kind of mail to an address, as a path on the server under test. */
export async function linkFromOutbox(request: APIRequestContext, to: string, kind: string, pathPart: string): Promise<string> {
  const res = await request.get(`/dev/outbox?to=${encodeURIComponent(to)}`, { headers: { Authorization: `Bearer ${E2E_ADMIN_TOKEN}` } });
  expect(res.status()).toBe(200);
  const mail = (await res.text()).split('data-testid="mail"').find((m) => m.includes(`data-kind="${kind}"`));
  expect(mail, `a ${kind} mail to ${to}`).toBeDefined();
  expect(mail).toContain(to);
  const href = new RegExp(`href="(https?://[^"/]+${pathPart.replace("?", "\\?")}[0-9A-Za-z]+)"`).exec(mail!)?.[1];
  expect(href, `a ${pathPart} link in the ${kind} mail`).toBeDefined();
  // The link's origin is the configured public one; the path is what matters here.
  const url = new URL(href!);
  return `${url.pathname}${url.search}`;
}

export async function signIn(page: Page, email: string, password: string) {
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** On the confirmation link's page: the registered password, then the button (opening the link confirms nothing). */
export async function confirmWithPassword(page: Page, password = PASSWORD) {
  await expect(page.getByRole("heading", { name: "Confirm your email" })).toBeVisible();
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Confirm my address" }).click();
  await expect(page.getByRole("heading", { name: "Email confirmed" })).toBeVisible();
}

/** Sign up on the page, confirm through the outbox, sign in: the dashboard of a confirmed trial. */
export async function signUpConfirmed(page: Page, request: APIRequestContext, email: string, password = PASSWORD) {
  await page.goto("/sign-up");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByLabel(/^Name/).fill("E2E Person");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("heading", { name: "Check your mail" })).toBeVisible();
  await page.goto(await linkFromOutbox(request, email, "confirm_email", "/confirm-email?token="));
  await confirmWithPassword(page, password);
  await signIn(page, email, password);
  await expect(page).toHaveURL(/\/dashboard$/);
}
