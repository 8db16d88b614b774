import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { sendConfirmation } from "@/lib/accounts/confirm";
import { closeDb, getDb } from "@/lib/db/client";
import { resetEnvForTests } from "@/lib/env";
import { enqueue } from "@/lib/mail/outbox";
import { deliverDue, drainOutbox } from "@/lib/mail/sender";
import { forgetRoomyKeys, makeAccount } from "../helpers/accounts";
import { ensureDatabase, query } from "../helpers/db";

// The outbox sender against a real SMTP server (smtp-server, started here): a queued mail is
// delivered as written and marked sent; while the server is down the row stays unsent with its
// error and a later retry time; once the server is back it goes out, once. On a database of
// its own, so that no other file's mail is sent or counted here.

const DB = "pokeprice_mail_test";
const FROM = "PokéPrice Test <sender@example.test>";

type Received = { from: string; to: string[]; raw: string };
type OutboxDbRow = { id: string; sent_at: string | null; attempts: number; last_error: string | null; due_in_s: number };

let server: SMTPServer | undefined;
let port = 0;
let received: Received[] = [];
let previous: Record<string, string | undefined> = {};

function startSmtp(onPort = 0): Promise<number> {
  const s = new SMTPServer({
    authOptional: true,
    // nodemailer upgrades to TLS when offered; the test server has no trusted certificate.
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        callback();
      });
    },
  });
  server = s;
  return new Promise((resolve, reject) => {
    s.once("error", reject);
    s.listen(onPort, "127.0.0.1", () => resolve((s.server.address() as AddressInfo).port));
  });
}

function stopSmtp(): Promise<void> {
  const s = server;
  server = undefined;
  return new Promise((resolve) => (s ? s.close(() => resolve()) : resolve()));
}

const smtpUrl = () => `smtp://127.0.0.1:${port}`;
const outbox = (id: string | number) =>
  query<OutboxDbRow>(
    `select id::text, sent_at::text, attempts, last_error,
       extract(epoch from send_after - now())::float8 as due_in_s
     from email_outbox where id = $1`, [id], DB,
  ).then((r) => r[0]!);
const idOf = async (to: string) => (await query<{ id: string }>("select id::text from email_outbox where to_address = $1", [to], DB))[0]!.id;
const unique = (tag: string) => `${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;

// ── A small MIME reader: enough for what nodemailer writes (encoded words, QP, base64). ──

function decodeWords(value: string): string {
  return value.replace(/\?=\s+=\?/g, "?==?").replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_, _charset: string, enc: string, text: string) => {
    const bytes = enc.toUpperCase() === "B"
      ? Buffer.from(text, "base64")
      : Buffer.from(text.replace(/_/g, " ").replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16))), "latin1");
    return bytes.toString("utf8");
  });
}

function parseMail(raw: string): { headers: Map<string, string>; text: string } {
  const split = raw.indexOf("\r\n\r\n");
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, " ");
  const headers = new Map<string, string>();
  for (const line of head.split("\r\n")) {
    const i = line.indexOf(":");
    headers.set(line.slice(0, i).trim().toLowerCase(), decodeWords(line.slice(i + 1).trim()));
  }
  let body = raw.slice(split + 4);
  const cte = (headers.get("content-transfer-encoding") ?? "7bit").toLowerCase();
  if (cte === "quoted-printable") {
    body = Buffer.from(body.replace(/=\r\n/g, "").replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16))), "latin1").toString("utf8");
  } else if (cte === "base64") {
    body = Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
  }
  return { headers, text: body.replace(/\r\n/g, "\n").replace(/\n$/, "") };
}

const mailTo = (to: string) => received.filter((m) => m.to.includes(to));

beforeAll(async () => {
  previous = { DATABASE_URL: process.env.DATABASE_URL, SMTP_URL: process.env.SMTP_URL, MAIL_FROM: process.env.MAIL_FROM };
  await closeDb();
  process.env.DATABASE_URL = await ensureDatabase(DB, { fresh: true });
  process.env.MAIL_FROM = FROM;
  delete process.env.SMTP_URL;
  resetEnvForTests();
  forgetRoomyKeys();
  await getDb(); // opening it applies the migrations
  port = await startSmtp();
});

beforeEach(async () => {
  received = [];
  if (!server) port = await startSmtp(port);
  // Each test starts with nothing due: earlier tests' leftovers are sent or pushed away.
  await query("update email_outbox set sent_at = coalesce(sent_at, now())", [], DB);
});

afterAll(async () => {
  await stopSmtp();
  await closeDb();
  for (const [k, v] of Object.entries(previous)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetEnvForTests();
  forgetRoomyKeys();
});

describe("deliverDue", () => {
  it("delivers a queued mail with its address, subject and text, and marks it sent", async () => {
    const to = unique("plain");
    const text = "Bonjour Pokémon fan,\n\nopen https://example.test/confirm-email?token=abc123 to go on.\n\n– PokéPrice";
    await enqueue({ to, subject: "Ünïcode subject for PokéPrice", text, kind: "test" });
    const id = await idOf(to);

    const r = await deliverDue({ smtpUrl: smtpUrl() });
    expect(r).toMatchObject({ sent: 1, failed: 0, skipped: 0 });

    const [mail] = mailTo(to);
    expect(mailTo(to)).toHaveLength(1);
    expect(mail!.to).toEqual([to]);
    expect(mail!.from).toBe("sender@example.test");
    const parsed = parseMail(mail!.raw);
    expect(parsed.headers.get("to")).toBe(to);
    expect(parsed.headers.get("subject")).toBe("Ünïcode subject for PokéPrice");
    expect(parsed.headers.get("from")).toContain("sender@example.test");
    expect(parsed.headers.get("message-id")).toMatch(new RegExp(`^<outbox-${id}-\\d+@example\\.test>$`));
    expect(parsed.text).toBe(text);

    const row = await outbox(id);
    expect(row.sent_at).not.toBeNull();
    expect(row.attempts).toBe(1);
    expect(row.last_error).toBeNull();

    // Sent is sent: another pass sends nothing again.
    expect(await deliverDue({ smtpUrl: smtpUrl() })).toMatchObject({ sent: 0, failed: 0 });
    expect(mailTo(to)).toHaveLength(1);
  });

  it("sends the confirmation mail of an account with its link", async () => {
    const account = await makeAccount({ email: unique("confirm") });
    process.env.PUBLIC_BASE_URL = "https://pokeprice.example";
    resetEnvForTests();
    try {
      await sendConfirmation(account);
    } finally {
      delete process.env.PUBLIC_BASE_URL;
      resetEnvForTests();
    }
    expect(await deliverDue({ smtpUrl: smtpUrl() })).toMatchObject({ sent: 1, failed: 0 });
    const parsed = parseMail(mailTo(account.email)[0]!.raw);
    expect(parsed.headers.get("subject")).toBe("Confirm your email for the PokéPrice API");
    expect(parsed.text).toMatch(/^https:\/\/pokeprice\.example\/confirm-email\?token=[0-9A-Za-z]{40}$/m);
  });

  it("keeps the mail while the SMTP server is down, backs off, and delivers it once it is back", async () => {
    const to = unique("outage");
    await stopSmtp();
    await enqueue({ to, subject: "Sent after the outage", text: "Nothing is lost.", kind: "test" });
    const id = await idOf(to);

    const down = await deliverDue({ smtpUrl: smtpUrl() });
    expect(down).toMatchObject({ sent: 0, failed: 1 });
    expect(down.errors[0]).toMatch(new RegExp(`^#${id}: `));

    const failed = await outbox(id);
    expect(failed.sent_at).toBeNull();
    expect(failed.attempts).toBe(1);
    expect(failed.last_error).toMatch(/ECONNREFUSED|connect/i);
    // The first retry waits 30 s (then 1 min, 2 min … up to 1 h).
    expect(failed.due_in_s).toBeGreaterThan(20);
    expect(failed.due_in_s).toBeLessThanOrEqual(31);
    // Not due yet: a pass in the meantime leaves it alone.
    expect(await deliverDue({ smtpUrl: smtpUrl() })).toMatchObject({ sent: 0, failed: 0 });

    // A second failure doubles the wait.
    await query("update email_outbox set send_after = now() where id = $1", [id], DB);
    expect(await deliverDue({ smtpUrl: smtpUrl() })).toMatchObject({ sent: 0, failed: 1 });
    const twice = await outbox(id);
    expect(twice.attempts).toBe(2);
    expect(twice.due_in_s).toBeGreaterThan(50);
    expect(twice.due_in_s).toBeLessThanOrEqual(61);

    // The server comes back and the retry time passes (moved here instead of waited for).
    port = await startSmtp(port);
    await query("update email_outbox set send_after = now() where id = $1", [id], DB);
    expect(await deliverDue({ smtpUrl: smtpUrl() })).toMatchObject({ sent: 1, failed: 0 });
    expect(mailTo(to)).toHaveLength(1);
    expect(parseMail(mailTo(to)[0]!.raw).headers.get("subject")).toBe("Sent after the outage");
    const sent = await outbox(id);
    expect(sent.sent_at).not.toBeNull();
    expect(sent.attempts).toBe(3);
    expect(sent.last_error).toBeNull();
  });

  it("loses nothing over an outage with many mails, and two senders never send one mail twice", async () => {
    const tos = Array.from({ length: 30 }, (_, i) => unique(`bulk${i}`));
    await stopSmtp();
    for (const to of tos) await enqueue({ to, subject: `Bulk ${to}`, text: `For ${to}`, kind: "test" });
    const down = await drainOutbox({ smtpUrl: smtpUrl() });
    expect(down).toMatchObject({ sent: 0, failed: 30 });
    expect(Number((await query<{ n: string }>("select count(*) as n from email_outbox where sent_at is null", [], DB))[0]!.n)).toBe(30);

    port = await startSmtp(port);
    await query("update email_outbox set send_after = now() where sent_at is null", [], DB);
    // Two instances' passes at the same time: each row is claimed by exactly one of them.
    const [a, b] = await Promise.all([deliverDue({ smtpUrl: smtpUrl(), limit: 50 }), deliverDue({ smtpUrl: smtpUrl(), limit: 50 })]);
    expect(a.sent + b.sent).toBe(30);
    expect(a.failed + b.failed).toBe(0);
    for (const to of tos) expect(mailTo(to), to).toHaveLength(1);
    expect(Number((await query<{ n: string }>("select count(*) as n from email_outbox where sent_at is null", [], DB))[0]!.n)).toBe(0);
  });

  it("refuses to run without SMTP_URL rather than pretending to send", async () => {
    await expect(deliverDue()).rejects.toThrow(/SMTP_URL/);
  });
});
