import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import * as authRoute from "@/app/api/auth/[...all]/route";
import { CLIENT_IP_HEADER } from "@/lib/api/client-ip";
import { limitIp } from "@/lib/accounts/abuse";
import { completeRecovery, requestRecovery } from "@/lib/accounts/recovery";
import { signIn } from "@/lib/accounts/signin";
import { resendConfirmation } from "@/lib/accounts/signup";
import { createPasswordUser, findUserByEmail, getAuth } from "@/lib/auth";
import { resetEnvForTests } from "@/lib/env";
import { outboxAccess } from "@/lib/mail/dev-outbox";
import { isOperator } from "@/lib/api/auth";
import { checkBeforeListening } from "@/server/http";
import { call } from "../helpers/api";
import { count, query, queryOne } from "../helpers/db";
import { expectEnvelope } from "../helpers/expect";

// Issue "Account security", tried as an attacker would: better-auth's own endpoints, a dashboard
// user made for someone else's address, the development outbox, replayed signups, and mail
// that can be made to flood a mailbox. Every case here failed on the code before the fix.

const newEmail = (tag: string) => `sec-${tag}-${randomUUID()}@example.com`;
let ipSeq = 0;
const freshIp = (first = "10.91") => `${first}.${(++ipSeq >> 8) & 255}.${ipSeq & 255}`;
const json = { "content-type": "application/json" };

const ENV_KEYS = ["RATE_LIMIT_SIGNUP", "TRUST_PROXY", "RATE_LIMIT_MAIL_RECIPIENT", "SIGNIN_LOCKOUT", "NODE_ENV", "DATABASE_URL", "ADMIN_TOKEN", "PUBLIC_BASE_URL", "SMTP_URL"];
const saved = Object.fromEntries(ENV_KEYS.map((k) => [k, process.env[k]]));
afterEach(() => {
  for (const k of ENV_KEYS) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
  resetEnvForTests();
});

function setEnv(values: Record<string, string | undefined>): void {
  for (const [k, v] of Object.entries(values)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetEnvForTests();
}

async function scriptAccount(email: string): Promise<{ key: string; id: string }> {
  const res = await call("POST", "/v1/accounts/free", {
    anonymous: true, headers: { ...json, "idempotency-key": randomUUID(), [CLIENT_IP_HEADER]: freshIp() }, body: JSON.stringify({ email }),
  });
  expect(res.status).toBe(201);
  const d = (await res.json()).data;
  return { key: d.api_key, id: d.account_id };
}

async function register(email: string, password: string) {
  const res = await call("POST", "/v1/accounts/register", {
    anonymous: true, headers: { ...json, [CLIENT_IP_HEADER]: freshIp() }, body: JSON.stringify({ email, password }),
  });
  return { status: res.status, body: await res.json() };
}

const mails = (to: string, kind: string) =>
  query<{ text_body: string }>("select text_body from email_outbox where lower(to_address) = lower($1) and kind = $2 order by id", [to, kind]);

async function tokenOf(to: string, kind: string, page: string): Promise<string> {
  const all = await mails(to, kind);
  const m = new RegExp(`/${page}\\?token=([0-9A-Za-z]+)`).exec(all.at(-1)?.text_body ?? "");
  if (!m) throw new Error(`no ${kind} link to ${to}`);
  return m[1]!;
}

const authCall = (method: "GET" | "POST", path: string, body?: unknown) =>
  (authRoute as Record<string, (r: Request) => Promise<Response>>)[method]!(new Request(`http://localhost:3000/api/auth${path}`, {
    method, headers: { ...json, origin: "http://localhost:3000", [CLIENT_IP_HEADER]: "127.0.0.1" }, body: body === undefined ? undefined : JSON.stringify(body),
  }));

const tryPassword = (email: string, password: string) =>
  signIn(new Request("http://localhost/", { headers: { [CLIENT_IP_HEADER]: freshIp() } }), email, password, new Headers());

describe("better-auth's own endpoints", () => {
  it.each([
    ["POST", "/sign-up/email", { email: "x@example.com", password: "attacker-password", name: "" }],
    ["POST", "/sign-in/email", { email: "x@example.com", password: "attacker-password" }],
    ["POST", "/request-password-reset", { email: "x@example.com" }],
    ["POST", "/reset-password", { token: "x", newPassword: "attacker-password" }],
    ["GET", "/verify-email?token=x", undefined],
  ] as const)("%s /api/auth%s is not exposed: 404 in the envelope", async (method, path, body) => {
    const res = await authCall(method, path, body);
    expect(res.status).toBe(404);
    expect(expectEnvelope(res, await res.json()).code).toBe("NOT_FOUND");
  });

  it("the session routes a browser needs still answer", async () => {
    const res = await authCall("GET", "/get-session");
    expect(res.status).toBe(200);
    expect(await res.json()).toBeNull();
  });

  it("get-session never hands a script the session's token, which the HttpOnly cookie keeps from it", async () => {
    const email = newEmail("token");
    await register(email, "the right password");
    await call("POST", "/v1/accounts/confirm", { anonymous: true, headers: json, body: JSON.stringify({ token: await tokenOf(email, "confirm_email", "confirm-email"), password: "the right password" }) });
    const signedIn = await (await getAuth()).api.signInEmail({ body: { email, password: "the right password" }, asResponse: true });
    const cookie = signedIn.headers.get("set-cookie")!.split(";")[0]!;
    const token = decodeURIComponent(cookie.slice(cookie.indexOf("=") + 1)).split(".")[0]!;
    const res = await (authRoute as Record<string, (r: Request) => Promise<Response>>).GET!(new Request("http://localhost:3000/api/auth/get-session", {
      headers: { cookie, origin: "http://localhost:3000", [CLIENT_IP_HEADER]: "127.0.0.1" },
    }));
    const text = await res.text();
    expect(JSON.parse(text).user.email).toBe(email);
    expect(token.length).toBeGreaterThan(10);
    expect(text).not.toContain(token);
  });
});

describe("taking over a script account", () => {
  it("the attacker's sign-up, recovery and password get nowhere; the owner's recovery replaces what they left", async () => {
    const victim = newEmail("victim");
    const { id } = await scriptAccount(victim);

    // The attacker cannot make a dashboard user for the address through better-auth...
    expect((await authCall("POST", "/sign-up/email", { email: victim, password: "attacker-password", name: "" })).status).toBe(404);
    // ...nor by asking for recovery: that only mails the owner.
    await requestRecovery(victim);
    expect(await findUserByEmail(victim)).toBeUndefined();
    expect((await queryOne<{ auth_user_id: string | null }>("select auth_user_id from accounts where id = $1", [id])).auth_user_id).toBeNull();
    expect((await tryPassword(victim, "attacker-password")).ok).toBe(false);

    // A user left with the attacker's password (as the open sign-up endpoint made) is never
    // adopted: the owner's mailed link replaces it, and only the owner's password works.
    const planted = await createPasswordUser({ email: victim, password: "attacker-password", verified: true });
    expect(planted.ok).toBe(true);
    const done = await completeRecovery(await tokenOf(victim, "reset_password", "reset-password"), "the owner's password");
    expect(done).toEqual({ ok: true, email: victim });
    const account = await queryOne<{ auth_user_id: string; email_confirmed_at: Date | null }>(
      "select auth_user_id, email_confirmed_at from accounts where id = $1", [id]);
    expect(account.auth_user_id).not.toBe(planted.ok && planted.userId);
    expect(account.email_confirmed_at).not.toBeNull();
    expect(await count("select count(*) as n from auth_users where id = $1", [planted.ok ? planted.userId : ""])).toBe(0);
    expect((await tryPassword(victim, "attacker-password")).ok).toBe(false);
    expect(await tryPassword(victim, "the owner's password")).toEqual({ ok: true });
  });

  it("a recovery link works once, for its own account, and not after it expired", async () => {
    const email = newEmail("once");
    await scriptAccount(email);
    await requestRecovery(email);
    const token = await tokenOf(email, "reset_password", "reset-password");
    expect(await completeRecovery(token, "short")).toEqual({ ok: false, reason: "password_too_short" });
    expect((await completeRecovery(token, "a long enough password")).ok).toBe(true);
    expect(await completeRecovery(token, "a long enough password")).toEqual({ ok: false, reason: "used" });
    await requestRecovery(email);
    const later = await tokenOf(email, "reset_password", "reset-password");
    await query("update email_tokens set expires_at = now() - interval '1 second' where account_id = (select id from accounts where lower(email) = lower($1)) and kind = 'reset' and used_at is null", [email]);
    expect(await completeRecovery(later, "a long enough password")).toEqual({ ok: false, reason: "expired" });
    // A confirmation token is not a reset token.
    expect((await completeRecovery(await tokenOf(email, "confirm_email", "confirm-email"), "a long enough password")).ok).toBe(false);
  });
});

describe("registering (POST /v1/accounts/register)", () => {
  it("answers the same whether or not the address has an account; the owner is mailed instead", async () => {
    const known = newEmail("known");
    await scriptAccount(known);
    const fresh = newEmail("fresh");
    const a = await register(fresh, "correct horse battery");
    const b = await register(known, "correct horse battery");
    expect(a.status).toBe(202);
    expect(b.status).toBe(202);
    expect(b.body).toEqual(JSON.parse(JSON.stringify(a.body).replaceAll(fresh, known)));
    expect(JSON.stringify(a.body)).not.toMatch(/ppk_live_|acct_/);
    expect(await count("select count(*) as n from accounts where lower(email) = lower($1)", [known])).toBe(1);
    expect(await mails(known, "account_exists")).toHaveLength(1);
    expect(await mails(fresh, "confirm_email")).toHaveLength(1);
  });

  it("someone who registers another's address cannot get in through the owner's link: it turns a password on only with that password", async () => {
    const victim = newEmail("prehijack");
    expect((await register(victim, "attacker-password")).status).toBe(202);
    const confirm = (body: Record<string, string>) => call("POST", "/v1/accounts/confirm", { anonymous: true, headers: json, body: JSON.stringify(body) });
    const token = await tokenOf(victim, "confirm_email", "confirm-email");
    // The owner (or a mail scanner) uses the link without the password: the address is confirmed,
    // the registered password still does not sign in.
    const wrong = await confirm({ token, password: "the owner's guess" });
    expect(wrong.status).toBe(400);
    expect((await wrong.json()).error.details).toMatchObject({ parameter: "password", reason: "wrong_password" });
    expect((await confirm({ token })).status).toBe(200);
    expect(await tryPassword(victim, "attacker-password")).toMatchObject({ ok: false, code: "EMAIL_NOT_VERIFIED" });
    // The owner takes the account through recovery; the registered password is gone.
    await requestRecovery(victim);
    expect((await completeRecovery(await tokenOf(victim, "reset_password", "reset-password"), "the owner's own password")).ok).toBe(true);
    expect((await tryPassword(victim, "attacker-password")).ok).toBe(false);
    expect(await tryPassword(victim, "the owner's own password")).toEqual({ ok: true });
  });

  it("an address confirmed without the password gets a new link on request, which turns the sign-in on with it", async () => {
    const email = newEmail("later");
    await register(email, "the right password");
    const confirm = (body: Record<string, string>) => call("POST", "/v1/accounts/confirm", { anonymous: true, headers: json, body: JSON.stringify(body) });
    expect((await confirm({ token: await tokenOf(email, "confirm_email", "confirm-email") })).status).toBe(200);
    const account = await queryOne<{ id: string }>("select id from accounts where lower(email) = lower($1)", [email]);
    expect(await resendConfirmation(account.id)).toEqual({ sent: true });
    expect((await confirm({ token: await tokenOf(email, "confirm_email", "confirm-email"), password: "the right password" })).status).toBe(200);
    expect(await tryPassword(email, "the right password")).toEqual({ ok: true });
  });

  it("over a stale dashboard user of the address, stores a working user, not a made-up id", async () => {
    const email = newEmail("stale");
    const stale = await createPasswordUser({ email, password: "someone else's password", verified: false });
    expect(stale.ok).toBe(true);
    expect((await register(email, "my own password")).status).toBe(202);
    const row = await queryOne<{ id: string; auth_user_id: string }>("select id, auth_user_id from accounts where lower(email) = lower($1)", [email]);
    expect(await count("select count(*) as n from auth_users where id = $1", [row.auth_user_id])).toBe(1);
    expect(row.auth_user_id).not.toBe(stale.ok && stale.userId);
    const confirmed = await call("POST", "/v1/accounts/confirm", {
      anonymous: true, headers: json, body: JSON.stringify({ token: await tokenOf(email, "confirm_email", "confirm-email"), password: "my own password" }),
    });
    expect(confirmed.status).toBe(200);
    expect(await tryPassword(email, "my own password")).toEqual({ ok: true });
    expect((await tryPassword(email, "someone else's password")).ok).toBe(false);
  });
});

describe("limits per account and per recipient", () => {
  it("locks an address's sign-in after SIGNIN_LOCKOUT failures, from any network, even with the right password", async () => {
    setEnv({ SIGNIN_LOCKOUT: "3/900" });
    const email = newEmail("lock");
    await register(email, "the right password");
    await call("POST", "/v1/accounts/confirm", { anonymous: true, headers: json, body: JSON.stringify({ token: await tokenOf(email, "confirm_email", "confirm-email"), password: "the right password" }) });
    expect(await tryPassword(email, "the right password")).toEqual({ ok: true });
    for (let i = 0; i < 2; i++) expect((await tryPassword(email, `wrong ${i}`)).ok).toBe(false);
    expect(await tryPassword(email, "wrong 3")).toMatchObject({ ok: false, code: "LOCKED" });
    expect(await tryPassword(email, "the right password")).toMatchObject({ ok: false, code: "LOCKED" });
    // The way out the lock's message names: a new password through recovery lifts it.
    await requestRecovery(email);
    expect((await completeRecovery(await tokenOf(email, "reset_password", "reset-password"), "a new right password")).ok).toBe(true);
    expect(await tryPassword(email, "a new right password")).toEqual({ ok: true });
    // An address without an account locks the same way: the lock tells nothing.
    const nobody = newEmail("nobody");
    for (let i = 0; i < 3; i++) await tryPassword(nobody, "guess");
    expect(await tryPassword(nobody, "guess")).toMatchObject({ ok: false, code: "LOCKED" });
  });

  it("guesses sent at once are counted one after another: no more than SIGNIN_LOCKOUT of them reach the password check", async () => {
    setEnv({ SIGNIN_LOCKOUT: "3/900" });
    const email = newEmail("race");
    await register(email, "the right password");
    await call("POST", "/v1/accounts/confirm", { anonymous: true, headers: json, body: JSON.stringify({ token: await tokenOf(email, "confirm_email", "confirm-email"), password: "the right password" }) });
    const outcomes = await Promise.all([...Array.from({ length: 12 }, (_, i) => tryPassword(email, `wrong ${i}`)), tryPassword(email, "the right password")]);
    const checked = outcomes.filter((o) => o.ok || o.code === "INVALID_EMAIL_OR_PASSWORD");
    expect(checked.length).toBeLessThanOrEqual(3);
    expect(outcomes.filter((o) => !o.ok && o.code === "LOCKED").length).toBeGreaterThanOrEqual(10);
  });

  it("POST /v1/accounts/confirmation mails at most RATE_LIMIT_MAIL_RECIPIENT links, then 429 RATE_LIMITED", async () => {
    setEnv({ RATE_LIMIT_MAIL_RECIPIENT: "2/3600" });
    const email = newEmail("resend");
    const { key } = await scriptAccount(email);
    const answers: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await call("POST", "/v1/accounts/confirmation", { headers: { "x-api-key": key, [CLIENT_IP_HEADER]: freshIp() } });
      answers.push(res.status);
      if (res.status === 429) {
        expect(expectEnvelope(res, await res.json()).code).toBe("RATE_LIMITED");
        expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
      }
    }
    expect(answers).toEqual([202, 202, 429, 429]);
    // The signup's own mail and two more.
    expect(await mails(email, "confirm_email")).toHaveLength(3);
  });

  it("recovery mails an address at most RATE_LIMIT_MAIL_RECIPIENT times", async () => {
    setEnv({ RATE_LIMIT_MAIL_RECIPIENT: "2/3600" });
    const email = newEmail("flood");
    await scriptAccount(email);
    for (let i = 0; i < 5; i++) await requestRecovery(email);
    expect(await mails(email, "reset_password")).toHaveLength(2);
  });
});

describe("links in mail", () => {
  it("point at the configured origin, never at a Host header the caller chose", async () => {
    setEnv({ PUBLIC_BASE_URL: "https://api.pokeprice.example" });
    const email = newEmail("host");
    const res = await call("POST", "http://evil.example/v1/accounts/free", {
      anonymous: true, headers: { ...json, host: "evil.example", "idempotency-key": randomUUID(), [CLIENT_IP_HEADER]: freshIp() }, body: JSON.stringify({ email }),
    });
    expect(res.status).toBe(201);
    await requestRecovery(email);
    for (const kind of ["confirm_email", "reset_password"]) {
      const [m] = await mails(email, kind);
      expect(m!.text_body).toContain("https://api.pokeprice.example/");
      expect(m!.text_body).not.toContain("evil.example");
    }
  });

  it("without a configured origin, use this machine's port", async () => {
    setEnv({ PUBLIC_BASE_URL: undefined });
    const email = newEmail("local");
    await call("POST", "http://evil.example/v1/accounts/free", {
      anonymous: true, headers: { ...json, host: "evil.example", "idempotency-key": randomUUID(), [CLIENT_IP_HEADER]: freshIp() }, body: JSON.stringify({ email }),
    });
    const [m] = await mails(email, "confirm_email");
    expect(m!.text_body).toMatch(/^http:\/\/localhost:\d+\/confirm-email\?token=/m);
  });
});

describe("the script signup's limit per address", () => {
  const signup = (ip: string, key: string, email: string) => call("POST", "/v1/accounts/free", {
    anonymous: true, headers: { ...json, "idempotency-key": key, [CLIENT_IP_HEADER]: ip }, body: JSON.stringify({ email }),
  });

  it("counts the attempts that may make an account, not replays of one made: those answer for their 24 hours", async () => {
    setEnv({ RATE_LIMIT_SIGNUP: "2/3600" });
    const ip = freshIp();
    const [key, email] = [randomUUID(), newEmail("replayed")];
    const first = await signup(ip, key, email);
    expect(first.status).toBe(201);
    const made = (await first.json()).data;
    const replayed = async () => {
      const again = await signup(ip, key, email);
      expect(again.status).toBe(201);
      expect(again.headers.get("idempotent-replayed")).toBe("true");
      expect((await again.json()).data).toEqual(made);
    };
    for (let i = 0; i < 3; i++) await replayed();
    const second = await signup(ip, randomUUID(), newEmail("second"));
    expect(second.status).toBe(201);
    await second.arrayBuffer();
    const third = await signup(ip, randomUUID(), newEmail("third"));
    expect(third.status).toBe(429);
    expect(expectEnvelope(third, await third.json()).code).toBe("RATE_LIMITED");
    // The address's limit spent, the first key still answers as it did.
    await replayed();
  });

  it("does not count this machine's own, on PostgreSQL too: forwarded, under another name, behind a proxy or from elsewhere it does", async () => {
    setEnv({ RATE_LIMIT_SIGNUP: "1/3600", DATABASE_URL: "postgres://x@127.0.0.1/db", TRUST_PROXY: undefined, PUBLIC_BASE_URL: "https://api.example.com" });
    const req = (ip: string, host = "localhost:3000", extra: Record<string, string> = {}) =>
      new Request("http://x/v1/accounts/free", { method: "POST", headers: { [CLIENT_IP_HEADER]: ip, host, ...extra } });
    const twice = async (r: () => Request) => [(await limitIp(r(), "signup")).ok, (await limitIp(r(), "signup")).ok];
    for (let i = 0; i < 3; i++) {
      expect((await limitIp(req("::1"), "signup")).ok).toBe(true);
      expect((await limitIp(req("127.0.0.1", "127.0.0.1:3300"), "register")).ok).toBe(true);
    }
    const remote = freshIp();
    expect(await twice(() => req(remote))).toEqual([true, false]);
    const rebound = freshIp("127.91");
    expect(await twice(() => req(rebound, "rebind.evil.example:3000"))).toEqual([true, false]);
    // A same-host proxy passes the public name on, or says whom it forwards.
    const publicName = freshIp("127.94");
    expect(await twice(() => req(publicName, "api.example.com"))).toEqual([true, false]);
    const forwarded = freshIp("127.95");
    expect(await twice(() => req(forwarded, "localhost:3000", { "x-forwarded-for": "203.0.113.9" }))).toEqual([true, false]);
    setEnv({ TRUST_PROXY: "1" });
    const proxied = freshIp("127.92");
    expect(await twice(() => req(proxied))).toEqual([true, false]);
  });
});

describe("a short operator token", () => {
  const asOperator = (token: string) => isOperator(new Request("http://x/v1/admin/accounts/acct_x", { headers: { authorization: `Bearer ${token}` } }));

  it("keeps a deployment on PostgreSQL from starting, and opens nothing there", () => {
    setEnv({ NODE_ENV: "production", DATABASE_URL: "postgres://x@127.0.0.1/db", ADMIN_TOKEN: "short-and-guessable" });
    expect(() => checkBeforeListening()).toThrow(/at least 32 characters/);
    expect(asOperator("short-and-guessable")).toBe(false);
  });

  it("is taken on the embedded default, a machine's own test database, with a warning", () => {
    setEnv({ NODE_ENV: "production", DATABASE_URL: undefined, ADMIN_TOKEN: "blackbox-admin" });
    const warned: string[] = [];
    const warn = console.warn;
    console.warn = (m: string) => void warned.push(m);
    try {
      checkBeforeListening();
    } finally {
      console.warn = warn;
    }
    expect(warned.join("\n")).toMatch(/at least 32 characters/);
    expect(asOperator("blackbox-admin")).toBe(true);
    expect(asOperator("blackbox-admiN")).toBe(false);
  });
});

describe("the development outbox", () => {
  const req = (ip: string, headers: Record<string, string> = {}) => new Request("http://x/dev/outbox", { headers: { [CLIENT_IP_HEADER]: ip, ...headers } });
  const token = `op-${randomUUID()}-${randomUUID()}`;

  it("is closed in production on PostgreSQL, to local and remote callers alike", () => {
    setEnv({ NODE_ENV: "production", DATABASE_URL: "postgres://x@127.0.0.1/db", SMTP_URL: undefined, ADMIN_TOKEN: token });
    expect(outboxAccess(req("203.0.113.9"))).toBe("closed");
    expect(outboxAccess(req("127.0.0.1"))).toBe("closed");
    expect(outboxAccess(req("203.0.113.9", { authorization: "Bearer wrong" }))).toBe("closed");
  });

  it("opens to the operator token, in development, and on the embedded default to this machine only", () => {
    setEnv({ NODE_ENV: "production", DATABASE_URL: "postgres://x@127.0.0.1/db", SMTP_URL: undefined, ADMIN_TOKEN: token });
    expect(outboxAccess(req("203.0.113.9", { authorization: `Bearer ${token}` }))).toBe("operator");
    setEnv({ DATABASE_URL: undefined });
    expect(outboxAccess(req("127.0.0.1"))).toBe("local");
    expect(outboxAccess(req("::1"))).toBe("local");
    expect(outboxAccess(req("203.0.113.9"))).toBe("closed");
    setEnv({ NODE_ENV: "development", DATABASE_URL: "postgres://x@127.0.0.1/db" });
    expect(outboxAccess(req("203.0.113.9"))).toBe("development");
  });

  it("answers only under this machine's own names: a page whose domain was rebound to 127.0.0.1 finds it closed", () => {
    setEnv({ NODE_ENV: "production", DATABASE_URL: undefined, SMTP_URL: undefined, ADMIN_TOKEN: token, PUBLIC_BASE_URL: "https://api.example.com" });
    const at = (host: string) => req("127.0.0.1", { host });
    expect(outboxAccess(at("localhost:3000"))).toBe("local");
    expect(outboxAccess(at("127.0.0.1:3000"))).toBe("local");
    expect(outboxAccess(at("[::1]:3000"))).toBe("local");
    expect(outboxAccess(at("api.example.com"))).toBe("local");
    expect(outboxAccess(at("rebind.evil.example:3000"))).toBe("closed");
    setEnv({ NODE_ENV: "development" });
    expect(outboxAccess(at("rebind.evil.example:3000"))).toBe("closed");
    expect(outboxAccess(at("localhost:3000"))).toBe("development");
  });

  it("does not exist once mail leaves the machine", () => {
    setEnv({ NODE_ENV: "development", SMTP_URL: "smtp://127.0.0.1:2525", ADMIN_TOKEN: token });
    expect(outboxAccess(req("127.0.0.1", { authorization: `Bearer ${token}` }))).toBe("closed");
  });
});
