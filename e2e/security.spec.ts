import { randomUUID } from "node:crypto";
import { request as httpRequest } from "node:http";
import { expect, test } from "@playwright/test";

// The account side as an attacker meets it on the running app (production mode, PostgreSQL):
// the takeover of a script account through better-auth's own sign-up and the recovery page,
// the development outbox, the headers that keep pages from being framed or sniffed, and page
// addresses PostgreSQL cannot look up.

const uniqueEmail = (tag: string) => `e2e-${tag}-${Date.now()}-${randomUUID().slice(0, 8)}@example.com`;

test("a script account cannot be taken over with better-auth's sign-up and the recovery page", async ({ page, request }) => {
  const victim = uniqueEmail("victim");
  const created = await request.post("/v1/accounts/free", { headers: { "Idempotency-Key": randomUUID() }, data: { email: victim } });
  expect(created.status()).toBe(201);

  const signUp = await request.post("/api/auth/sign-up/email", { data: { email: victim, password: "attacker password", name: "" } });
  expect(signUp.status()).toBe(404);
  expect((await signUp.json()).error.code).toBe("NOT_FOUND");

  // Recovery only mails the owner: nothing the attacker can use appears.
  await page.goto("/recover");
  await page.getByLabel("Email").fill(victim);
  await page.getByRole("button", { name: "Send the link" }).click();
  await expect(page.getByRole("main").getByRole("status")).toContainText(`If an account exists for ${victim}`);

  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(victim);
  await page.getByLabel("Password").fill("attacker password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("main").getByRole("alert")).toContainText("do not match");
  await expect(page).toHaveURL(/\/sign-in$/);
});

test("the development outbox does not exist for a stranger on a production server", async ({ request }) => {
  const res = await request.get("/dev/outbox");
  expect(res.status()).toBe(404);
  expect(await res.text()).not.toContain("confirm-email?token=");
});

test("pages carry the security headers and load without breaking their own policy", async ({ page }) => {
  const violations: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text());
  });
  for (const path of ["/", "/sign-in", "/sign-up", "/recover", "/cards", "/docs"]) {
    const res = await page.goto(path);
    expect(res?.status(), path).toBe(200);
    const h = res!.headers();
    expect(h["content-security-policy"], path).toContain("frame-ancestors 'none'");
    expect(h["x-content-type-options"], path).toBe("nosniff");
    expect(h["x-frame-options"], path).toBe("DENY");
    expect(h["referrer-policy"], path).toBe("strict-origin-when-cross-origin");
    await page.waitForLoadState("networkidle");
  }
  expect(violations).toEqual([]);
});

test("a page's address that does not decode, or holds a NUL, is a 400, not a 500", async ({ request }) => {
  // The pages look up what their address names in PostgreSQL, whose text cannot hold U+0000.
  const bad = [
    "/cards/%E0%A4%A", "/cards/%C0%AF", "/cards/%00", "/cards/a%00b/chart", "/sets/%00", "/sets/%E0", "/series/%E0",
    "/sealed/%00", "/sealed/%E0/chart", "/artists/%00", "/cards?set=%00", "/cards?rarity=%00", "/movers?set=%00", "/sealed?set=%00",
  ];
  for (const path of bad) {
    const res = await request.get(path);
    expect(res.status(), path).toBe(400);
    expect(await res.text(), path).toContain("not valid percent-encoded UTF-8 text, or holds a NUL");
  }
  // Well-formed escapes still reach their pages: Unown "?" of Unseen Forces, a search for "é".
  for (const path of ["/cards/ex10-%3F", "/cards?q=%C3%A9", "/sets/base1"]) expect((await request.get(path)).status(), path).toBe(200);
  expect((await request.get("/cards/no-such-card")).status()).toBe(404);
  // Escaped twice: Next decodes a segment once, and what is left decodes to a NUL or not at all.
  // Such a segment names nothing: 404 (the chart routes and the set symbol answered 500).
  for (const path of ["/cards/%2500", "/cards/%25E0", "/sets/%2500", "/series/%25E0", "/artists/%2500", "/sealed/%2500"]) {
    expect((await request.get(path)).status(), path).toBe(404);
  }
  for (const path of ["/cards/%2500/chart", "/cards/%25E0/chart", "/sealed/%2500/chart"]) {
    const res = await request.get(path);
    expect(res.status(), path).toBe(404);
    expect((await res.json()).error, path).toMatch(/^No such/);
  }
  expect((await request.get("/sets/%2500/symbol.svg")).status()).toBe(404);
});

test("a page's form posted from another origin, or declaring a body over Next's limit, is refused in the envelope, not a 500", async ({ request }) => {
  // Next answered both with a 500 and a digest. The action id needs no meaning: both are refused
  // before Next looks it up.
  const action = { "next-action": "7f00000000000000000000000000000000000000aa", "content-type": "text/plain;charset=UTF-8" };
  for (const origin of ["http://evil.example", "null"]) {
    const res = await request.post("/sign-in", { headers: { ...action, origin }, data: "[]" });
    expect(res.status(), origin).toBe(403);
    const body = await res.json();
    expect(body.error.code, origin).toBe("FORBIDDEN_ORIGIN");
    expect(res.headers()["x-request-id"], origin).toBe(body.error.request_id);
  }
  // The same form sent without script (no Next-Action header, a multipart body) from another origin.
  const noScript = await request.post("/sign-in", { headers: { origin: "http://evil.example" }, multipart: { $ACTION_KEY: "k", email: "ab@example.com", password: "x" } });
  expect(noScript.status()).toBe(403);
  expect((await noScript.json()).error.code).toBe("FORBIDDEN_ORIGIN");
  const own = new URL(test.info().project.use.baseURL!).origin;
  const big = await request.post("/sign-in", { headers: { ...action, origin: own }, data: "x".repeat(1024 * 1024 + 1) });
  expect(big.status()).toBe(413);
  expect((await big.json()).error.code).toBe("PAYLOAD_TOO_LARGE");
  // The same without script (no Next-Action header): Next answered a plain-text 500.
  const bigForm = await request.post("/sign-in", { headers: { origin: own }, multipart: { $ACTION_KEY: "k", email: "ab@example.com", password: "x".repeat(1024 * 1024 + 1) } });
  expect(bigForm.status()).toBe(413);
  expect((await bigForm.json()).error.code).toBe("PAYLOAD_TOO_LARGE");
  // Sent in chunks, without Content-Length: its size is unknown until read (Next's 500 past the limit).
  const chunked = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = httpRequest(`${own}/dashboard`, { method: "POST", headers: { ...action, origin: own } }, (res) => {
      let body = "";
      res.on("data", (c) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.write("[");
    req.end("]");
  });
  expect(chunked.status).toBe(411);
  expect(JSON.parse(chunked.body).error.code).toBe("LENGTH_REQUIRED");
});

test("a page's parameter given twice is a 400, not a 500", async ({ request }) => {
  // The pages read each parameter once; a repeated one reached them as an array.
  for (const path of ["/cards?q=a&q=b", "/cards?type=Fire&type=Water", "/artists?q=ken&q=sugi", "/movers?set=base1&set=base2", "/sealed?set=a&set=b"]) {
    const res = await request.get(path);
    expect(res.status(), path).toBe(400);
    expect(await res.text(), path).toContain("is given more than once");
  }
  expect((await request.get("/cards?q=pikachu&set=base1")).status()).toBe(200);
});

test("a page's parameter named like an object's own property (constructor, toString) is an unknown value, not JavaScript's internals", async ({ request }) => {
  // `x in TABLE` took them for known regions and sorts: "Showing cards, function Object() { [native code] } prints",
  // and a sort whose API link read orderBy=undefined.
  for (const value of ["constructor", "toString", "__proto__"]) {
    const movers = await (await request.get(`/movers?region=${value}`)).text();
    expect(movers, value).not.toContain("native code");
    expect(movers, value).not.toContain("[object Object]");
    const cards = await request.get(`/cards?sort=${value}`);
    expect(cards.status(), value).toBe(200);
    expect(await cards.text(), value).not.toContain("orderBy=undefined");
  }
});
