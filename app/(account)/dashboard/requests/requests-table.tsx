"use client";

import { QueryClient, QueryClientProvider, useInfiniteQuery } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { n, when, type RequestRow } from "../format";
import { RouteText } from "../route-label";
import { useOrigin } from "../use-origin";
import { loadRequests } from "./actions";

// The request log's rows: the first page from the server, more after the cursor on request
// (TanStack Query's infinite query over the loadRequests action); a row opens its details
// (every field, the request id to copy, a curl line to repeat the call).

// The first page is the server's and never refetched: each server render (new filters, a
// reload) is a new query, keyed by its filters and time.
const client = new QueryClient({
  defaultOptions: { queries: { retry: false, staleTime: Infinity, refetchOnWindowFocus: false, refetchOnMount: false, refetchOnReconnect: false } },
});

type LogPage = { rows: RequestRow[]; next: string | null };

type Props = {
  initial: RequestRow[]; next: string | null; filters: Record<string, string>; at: number; origin: string; fixedOrigin: boolean;
  searched: string | null; filtered: boolean;
};

const statusClass = (s: number) => (s >= 500 ? "s5" : s >= 400 ? "s4" : s >= 300 ? "s3" : "s2");
const dayOf = (iso: string) => new Date(iso).toLocaleDateString("en-GB", { day: "numeric", month: "short", timeZone: "UTC" });
const timeOf = (iso: string) => new Date(iso).toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit", second: "2-digit", hour12: false, timeZone: "UTC" });
const keyName = (r: RequestRow) => (r.key ? `${r.key.name}${r.key.deleted ? " (deleted)" : ""}` : "—");
const ms = (v: number) => (v >= 100 ? `${Math.round(v)} ms` : `${v.toFixed(1)} ms`);

/** A shell-safe single-quoted word. */
const sq = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** The curl line of a call, with the key as a variable: the secret is never shown again. */
export function curlOf(r: RequestRow, origin: string): { line: string; template: boolean } {
  const template = /\{\w+\}/.test(r.route);
  const url = `${origin}${r.route}`;
  const parts = ["curl"];
  if (r.method !== "GET") parts.push("-X", r.method);
  parts.push("-H", '"X-Api-Key: $PPK_KEY"');
  if (r.route.endsWith("/measure") || r.route.endsWith("/identify")) parts.push("-F", "image=@card.jpg");
  else if (r.method === "POST" || r.method === "PUT" || r.method === "PATCH") parts.push("-H", sq("Content-Type: application/json"), "-d", sq("{…}"));
  parts.push(sq(url));
  return { line: parts.join(" "), template };
}

function Copy({ text, label }: { text: string; label: string }) {
  const [done, setDone] = useState(false);
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setDone(true);
      window.setTimeout(() => setDone(false), 1500);
    } catch {
      // No clipboard (plain http on another host): the text is selectable instead.
    }
  }
  return <button type="button" className="button secondary small" onClick={copy} aria-label={label}>{done ? "Copied" : "Copy"}</button>;
}

function Details({ row, origin, onClose }: { row: RequestRow; origin: string; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
  }, []);
  const curl = curlOf(row, origin);
  return (
    <dialog ref={dialog} className="log-details" aria-labelledby="log-details-h" onClose={onClose} data-testid="request-details"
      onClick={(e) => { if (e.target === e.currentTarget) dialog.current?.close(); }}>
      <div className="log-details-body">
        <div className="log-details-head">
          <h2 id="log-details-h"><span className="method">{row.method}</span> <code>{row.route}</code></h2>
          <button type="button" className="button secondary small" onClick={() => dialog.current?.close()}>Close</button>
        </div>
        <div className="copy-row">
          <code className="request-id" data-testid="details-request-id">{row.request_id}</code>
          <Copy text={row.request_id} label="Copy the request id" />
        </div>
        <dl className="log-fields">
          <div><dt>Time (UTC)</dt><dd>{when(row.at)}</dd></div>
          <div><dt>Status</dt><dd><span className={`status ${statusClass(row.status)}`}>{row.status}</span>{row.error_code ? <> <code>{row.error_code}</code></> : null}</dd></div>
          <div><dt>Key</dt><dd>{row.key ? <>{row.key.name} <code>{row.key.prefix}</code> <span className="muted small">{row.key.id}{row.key.deleted ? ", deleted since" : ""}</span></> : <span className="muted">no key: the signed-in dashboard</span>}</dd></div>
          <div><dt>Credits</dt><dd>{n(row.credits)}{row.refunded ? <span className="tag">refunded</span> : null}</dd></div>
          <div><dt>Cards added</dt><dd>{n(row.cards_added)}</dd></div>
          <div><dt>Latency</dt><dd>{ms(row.latency_ms)}</dd></div>
        </dl>
        <h3 className="log-curl-h">Repeat it</h3>
        <div className="copy-row">
          <pre className="curl" data-testid="details-curl">{curl.line}</pre>
          <Copy text={curl.line} label="Copy the curl line" />
        </div>
        <p className="muted small">
          Set <code>PPK_KEY</code> to one of your keys first (<code>export PPK_KEY=ppk_live_…</code>): secrets are shown once and
          never here.{curl.template ? " The log keeps the route's template: put the value back in place of each {…}." : ""} The log
          keeps no query string or body.
        </p>
      </div>
    </dialog>
  );
}

export function RequestsTable(props: Props) {
  return (
    <QueryClientProvider client={client}>
      <Log {...props} />
    </QueryClientProvider>
  );
}

function Log({ initial, next: firstNext, filters, at, origin: serverOrigin, fixedOrigin, searched, filtered }: Props) {
  const [open, setOpen] = useState<RequestRow | null>(null);
  const origin = useOrigin(serverOrigin, fixedOrigin);
  const log = useInfiniteQuery({
    queryKey: ["requests", filters, at],
    queryFn: async ({ pageParam }): Promise<LogPage> => {
      const page = await loadRequests(filters, pageParam, at);
      if (!page.ok) throw new Error(page.error);
      return { rows: page.rows, next: page.next };
    },
    initialPageParam: "",
    getNextPageParam: (last: LogPage) => last.next ?? undefined,
    initialData: { pages: [{ rows: initial, next: firstNext }], pageParams: [""] },
  });
  // A row already shown (a call logged between two pages) is not shown twice.
  const seen = new Set<string>();
  const rows = log.data.pages.flatMap((p) => p.rows).filter((r) => {
    const k = r.request_id + r.at;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  const next = log.hasNextPage;
  const pending = log.isFetchingNextPage;
  const error = log.isFetchNextPageError ? log.error?.message ?? "The next page could not be read." : null;
  const more = () => void log.fetchNextPage();

  if (rows.length === 0) {
    return (
      <p className="muted log-empty" data-testid="requests-empty">
        {searched
          ? <>No call with the request id <code>{searched}</code> in the last 30 days on this account. An id from another account&apos;s answer, or from one older than 30 days, is not here.</>
          : filtered ? "No calls match these filters." : "No calls yet. Calls of your keys appear here within seconds."}
      </p>
    );
  }

  return (
    <>
      <p className="muted small log-count" data-testid="requests-count">
        {rows.length === 1 ? "1 call" : `${n(rows.length)} calls`}{next ? " shown; more below" : ""}
      </p>
      <div className="table-scroll">
        <table className="table log-table" data-testid="requests">
          <thead>
            <tr>
              <th>Time</th><th className="col-key">Key</th><th>Request</th><th>Status</th><th className="col-code">Error</th>
              <th className="num">Credits</th><th className="num col-cards">Cards</th><th className="num col-latency">Latency</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.request_id + r.at} data-request-id={r.request_id} className={r.refunded ? "refunded" : undefined} onClick={() => setOpen(r)}>
                <td className="nowrap">
                  <button type="button" className="link-button row-open" onClick={(e) => { e.stopPropagation(); setOpen(r); }}
                    aria-label={`Details of ${r.method} ${r.route} at ${when(r.at)}`}>
                    <span className="log-day">{dayOf(r.at)}</span> <span className="log-time">{timeOf(r.at)}</span>
                  </button>
                </td>
                <td className="col-key">{keyName(r)}</td>
                <td className="route-cell"><span className="method">{r.method}</span> <code><RouteText text={r.route} /></code></td>
                <td><span className={`status ${statusClass(r.status)}`} title={r.error_code ?? undefined}>{r.status}</span></td>
                <td className="col-code">{r.error_code ? <code>{r.error_code}</code> : ""}</td>
                <td className="num">{r.refunded ? <span title="refunded">0 ↺</span> : n(r.credits)}</td>
                <td className="num col-cards">{n(r.cards_added)}</td>
                <td className="num col-latency">{ms(r.latency_ms)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {error && <div className="notice error" role="alert"><p>{error}</p></div>}
      {next && (
        <p className="load-more">
          <button type="button" className="button secondary" onClick={more} disabled={pending}>{pending ? "Loading…" : "Load more"}</button>
        </p>
      )}
      {open && <Details row={open} origin={origin} onClose={() => setOpen(null)} />}
    </>
  );
}
