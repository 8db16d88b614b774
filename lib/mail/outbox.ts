import { sql } from "drizzle-orm";
import { getDb, rows, type Db } from "@/lib/db/client";
import { emailOutbox } from "@/lib/db/schema";
import { iso } from "@/lib/db/sql";

// Mail goes into the outbox in the transaction that causes it; a sender delivers it after
// (SMTP when configured), so a mail server that is down loses nothing.

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export type Mail = { to: string; subject: string; text: string; html?: string; kind: string; accountId?: string | null };

export async function enqueue(mail: Mail, tx?: Tx | Db): Promise<void> {
  const db = tx ?? (await getDb());
  await db.insert(emailOutbox).values({
    toAddress: mail.to, subject: mail.subject, textBody: mail.text, htmlBody: mail.html ?? null, kind: mail.kind,
    accountId: mail.accountId ?? null,
  });
}

export type OutboxRow = {
  id: number; to: string; subject: string; text: string; kind: string; createdAt: string; sentAt: string | null;
  attempts: number; lastError: string | null;
};

/** The newest mail, for the development page that stands in for a mailbox. */
export async function recentMail(limit = 50, to?: string): Promise<OutboxRow[]> {
  return rows<OutboxRow>(sql`
    select id, to_address as "to", subject, text_body as "text", kind, ${iso(sql`created_at`)} as "createdAt",
      ${iso(sql`sent_at`)} as "sentAt", attempts, last_error as "lastError"
    from email_outbox ${to ? sql`where lower(to_address) = ${to.toLowerCase()}` : sql``}
    order by id desc limit ${limit}`);
}

/** Mail due for delivery: unsent, past its retry time, oldest first. */
export async function dueMail(limit = 20): Promise<OutboxRow[]> {
  return rows<OutboxRow>(sql`
    select id, to_address as "to", subject, text_body as "text", kind, ${iso(sql`created_at`)} as "createdAt",
      null as "sentAt", attempts, last_error as "lastError"
    from email_outbox where sent_at is null and send_after <= now() and attempts < 20
    order by id limit ${limit}`);
}

export async function markSent(id: number): Promise<void> {
  await rows(sql`update email_outbox set sent_at = now(), attempts = attempts + 1, last_error = null where id = ${id}`);
}

/** Backs off exponentially: 30 s, 1 min, 2 min … up to 1 h between attempts. */
export async function markFailed(id: number, error: string): Promise<void> {
  await rows(sql`update email_outbox set attempts = attempts + 1, last_error = ${error.slice(0, 500)},
    send_after = now() + least(interval '1 hour', interval '30 seconds' * power(2, attempts))
    where id = ${id}`);
}
