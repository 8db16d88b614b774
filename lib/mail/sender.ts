import nodemailer, { type Transporter } from "nodemailer";
import { sql } from "drizzle-orm";
import { rows } from "@/lib/db/client";
import { dueMail, markFailed, markSent, type OutboxRow } from "./outbox";

// Delivers the outbox over SMTP (SMTP_URL, e.g. smtp://user:pass@mail.example.com:587 or
// smtps://…:465). Each due row is claimed first, so two instances never send the same mail;
// a claim that is never settled (the process died mid-send) lapses after CLAIM_S and the row
// is due again. A failure leaves the row unsent with its error and a later retry time
// (markFailed backs off from 30 s to 1 h), so a mail server that is down loses nothing.

export const DEFAULT_FROM = "PokéPrice <no-reply@localhost>";
const CLAIM_S = 120;
const TIMEOUT_MS = 15_000;

export function mailFrom(): string {
  return process.env.MAIL_FROM?.trim() || DEFAULT_FROM;
}

const slot = globalThis as unknown as { __smtp?: { url: string; transport: Transporter } };

function transport(url: string): Transporter {
  if (slot.__smtp?.url !== url) {
    slot.__smtp?.transport.close();
    slot.__smtp = {
      url,
      transport: nodemailer.createTransport({
        url,
        connectionTimeout: TIMEOUT_MS,
        greetingTimeout: TIMEOUT_MS,
        socketTimeout: TIMEOUT_MS,
      } as Parameters<typeof nodemailer.createTransport>[0]),
    };
  }
  return slot.__smtp.transport;
}

/** Takes a due row for this process; false when another sender took it first. */
async function claim(id: number): Promise<boolean> {
  const r = await rows(sql`update email_outbox set send_after = now() + make_interval(secs => ${CLAIM_S})
    where id = ${id} and sent_at is null and send_after <= now() returning id`);
  return r.length === 1;
}

async function htmlBodies(ids: number[]): Promise<Map<number, string>> {
  if (!ids.length) return new Map();
  const r = await rows<{ id: number; html: string | null }>(sql`
    select id, html_body as html from email_outbox
    where id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)}) and html_body is not null`);
  return new Map(r.filter((x) => x.html).map((x) => [Number(x.id), x.html!]));
}

function messageId(row: OutboxRow, from: string): string {
  const domain = /@([^>\s]+)>?\s*$/.exec(from)?.[1] ?? "localhost";
  return `<outbox-${row.id}-${Date.parse(row.createdAt) || 0}@${domain}>`;
}

export type DeliveryReport = { sent: number; failed: number; skipped: number; errors: string[] };

/**
 * One pass over the mail that is due: sends each row and records the outcome. Never throws
 * for a failed send (that is recorded on the row); a database that is down does throw.
 */
export async function deliverDue(opts: { limit?: number; smtpUrl?: string } = {}): Promise<DeliveryReport> {
  const url = opts.smtpUrl ?? process.env.SMTP_URL;
  if (!url) throw new Error("SMTP_URL is not set: mail stays in the outbox (see /dev/outbox).");
  const report: DeliveryReport = { sent: 0, failed: 0, skipped: 0, errors: [] };
  const due = await dueMail(opts.limit ?? 20);
  if (!due.length) return report;
  const html = await htmlBodies(due.map((r) => Number(r.id)));
  const from = mailFrom();
  const smtp = transport(url);
  for (const row of due) {
    const id = Number(row.id);
    if (!(await claim(id))) {
      report.skipped++;
      continue;
    }
    try {
      await smtp.sendMail({
        from, to: row.to, subject: row.subject, text: row.text, html: html.get(id),
        messageId: messageId(row, from),
        headers: { "Auto-Submitted": "auto-generated" },
      });
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      report.failed++;
      report.errors.push(`#${id}: ${message}`);
      await markFailed(id, message || "send failed");
      continue;
    }
    await markSent(id);
    report.sent++;
  }
  return report;
}

/** Sends until nothing is due (failed rows wait for their retry time, so this ends). */
export async function drainOutbox(opts: { smtpUrl?: string; maxPasses?: number } = {}): Promise<DeliveryReport> {
  const total: DeliveryReport = { sent: 0, failed: 0, skipped: 0, errors: [] };
  for (let pass = 0; pass < (opts.maxPasses ?? 100); pass++) {
    const r = await deliverDue({ smtpUrl: opts.smtpUrl });
    total.sent += r.sent; total.failed += r.failed; total.skipped += r.skipped; total.errors.push(...r.errors);
    if (r.sent + r.failed + r.skipped === 0) break;
  }
  return total;
}

const loop = globalThis as unknown as { __mailLoop?: { timer?: NodeJS.Timeout; stopped: boolean } };

/**
 * The background sender of an app instance: a pass every `everyMs`, never overlapping, on an
 * unref'd timer (it never keeps the process alive), logging failures instead of throwing.
 */
export function startMailLoop(everyMs = 5_000): () => void {
  if (loop.__mailLoop && !loop.__mailLoop.stopped) return () => stopMailLoop();
  const state: { timer?: NodeJS.Timeout; stopped: boolean } = { stopped: false };
  loop.__mailLoop = state;
  let lastError = "";
  const tick = async () => {
    try {
      const r = await deliverDue();
      for (const e of r.errors) console.warn(`[mail] delivery failed, will retry: ${e}`);
      lastError = "";
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      // The same error every 5 s (database down) is logged once until it changes.
      if (message !== lastError) console.error(`[mail] outbox pass failed: ${message}`);
      lastError = message;
    }
    if (!state.stopped) {
      state.timer = setTimeout(() => void tick(), everyMs);
      state.timer.unref();
    }
  };
  state.timer = setTimeout(() => void tick(), Math.min(everyMs, 1_000));
  state.timer.unref();
  return () => stopMailLoop();
}

export function stopMailLoop(): void {
  const state = loop.__mailLoop;
  if (!state) return;
  state.stopped = true;
  if (state.timer) clearTimeout(state.timer);
  loop.__mailLoop = undefined;
}
