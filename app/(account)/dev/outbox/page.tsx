import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { outboxAccess } from "@/lib/mail/dev-outbox";
import { recentMail } from "@/lib/mail/outbox";
import { currentRequest } from "../../server";
import { Shell } from "../../shell";

// The development mailbox: without SMTP_URL, mail stays in the outbox and is read here, links
// and all, by those lib/mail/dev-outbox.ts allows; for everyone else the page does not exist.
// Text is rendered as text (React escapes it); only http(s) URLs become links.

export const metadata: Metadata = { title: "Development outbox · PokéPrice API", robots: { index: false, follow: false }, referrer: "no-referrer" };
export const dynamic = "force-dynamic";

const URL_RE = /\bhttps?:\/\/[^\s<>"'`]+/g;

function linkify(text: string): ReactNode[] {
  const out: ReactNode[] = [];
  let last = 0;
  for (const m of text.matchAll(URL_RE)) {
    // Sentence punctuation after a URL belongs to the sentence.
    const url = m[0].replace(/[).,;:!?]+$/, "");
    const at = m.index;
    if (at > last) out.push(text.slice(last, at));
    out.push(<a key={at} href={url} rel="noreferrer">{url}</a>);
    last = at + url.length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

type Props = { searchParams: Promise<{ to?: string | string[] }> };

export default async function OutboxPage({ searchParams }: Props) {
  if (outboxAccess(await currentRequest()) === "closed") notFound();
  const raw = (await searchParams).to;
  const to = typeof raw === "string" ? raw.trim().slice(0, 320) : "";
  const mail = await recentMail(50, to || undefined);

  return (
    <Shell current="outbox" wide>
      <div className="page-head">
        <div>
          <h1>Development outbox</h1>
          <p className="muted">
            No mail server is configured (<code>SMTP_URL</code> is unset), so mail stays here. The newest 50
            {to ? <> to <strong>{to}</strong></> : null}.
          </p>
        </div>
        <form className="filter" method="get" action="/dev/outbox">
          <label className="visually-hidden" htmlFor="outbox-to">Recipient</label>
          <input id="outbox-to" type="email" name="to" placeholder="Filter by recipient" defaultValue={to} />
          <button type="submit" className="button secondary small">Filter</button>
          {to && <Link href="/dev/outbox" className="small-link">Show all</Link>}
        </form>
      </div>
      {mail.length === 0 ? (
        <p className="panel muted">No mail{to ? " to that address" : ""} yet.</p>
      ) : (
        <ol className="mail-list">
          {mail.map((m) => (
            <li key={m.id} className="mail" data-testid="mail" data-kind={m.kind}>
              <header>
                <h2>{m.subject}</h2>
                <p className="mail-meta">
                  <span>To <strong>{m.to}</strong></span>
                  <span className="tag">{m.kind}</span>
                  <time dateTime={m.createdAt}>{m.createdAt.replace("T", " ").slice(0, 19)} UTC</time>
                  {m.sentAt ? <span className="tag ok">sent</span> : null}
                </p>
              </header>
              <pre className="mail-text">{linkify(m.text)}</pre>
            </li>
          ))}
        </ol>
      )}
    </Shell>
  );
}
