import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { listKeys } from "@/lib/accounts/keys";
import { publicOrigin } from "@/lib/api/context";
import { env } from "@/lib/env";
import { ApiError, ERRORS } from "@/lib/api/errors";
import { listRequests } from "@/lib/usage/requests";
import { Shell } from "../../shell";
import { currentRequest, signedIn } from "../../server";
import type { RequestRow } from "../format";
import { DashboardNav } from "../nav";
import { cursorOf, FILTER_NAMES, filterSearch, readFilters, SINCE } from "./filters";
import { toQuery } from "./query";
import { FilterForm } from "./filter-form";
import { RequestsTable } from "./requests-table";

export const metadata: Metadata = { title: "Requests · PokéPrice API", robots: { index: false, follow: false } };
export const dynamic = "force-dynamic";

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const SINCE_LABEL: Record<keyof typeof SINCE, string> = { "1h": "Last hour", "24h": "Last 24 hours", "7d": "Last 7 days", "30d": "Last 30 days" };
const STATUS_CLASSES = ["2xx", "3xx", "4xx", "5xx"];
const CODES = Object.keys(ERRORS).sort();
// Input widths for datetime-local: the value without seconds, as the picker shows it.
const local = (iso: string | undefined) => (iso ? iso.replace(/Z$/, "").slice(0, 16) : "");

// The owner's request log: every call of the account's keys, newest first, filtered by the
// URL's query (a filtered view is a link). The filter form is a plain GET form; more rows are
// read after the cursor; a row opens its details.
export default async function RequestsPage({ searchParams }: Props) {
  const me = await signedIn();
  if (!me) redirect("/sign-in");
  const nav = <DashboardNav current="requests" />;
  if (!me.account) {
    return (
      <Shell nav={nav}>
        <section className="panel narrow"><h1>No API account</h1><p>{me.email} has no API account yet.</p></section>
      </Shell>
    );
  }
  const account = me.account;
  const sp = await searchParams;
  const filters = readFilters(sp);
  // An untidy address (empty fields of a form sent without script, a pasted header line) is
  // replaced by the tidy one, so that what the address bar holds is the link to this view.
  const tidy = filterSearch(filters);
  const given = new URLSearchParams(Object.entries(sp).flatMap(([k, v]) => (v === undefined ? [] : [[k, Array.isArray(v) ? v[0]! : v]]))).toString();
  if (given !== tidy) redirect(tidy ? `/dashboard/requests?${tidy}` : "/dashboard/requests");
  const now = Date.now();
  const parsed = toQuery(filters, undefined, now);
  let rows: RequestRow[] = [];
  let next: string | null = null;
  let error = parsed.ok ? null : parsed.error;
  const [keys, req] = await Promise.all([listKeys(account.id), currentRequest()]);
  if (parsed.ok) {
    try {
      const page = await listRequests(account, parsed.query, (q) => `/v1/me/requests?cursor=${encodeURIComponent(String(q.cursor ?? ""))}`);
      rows = page.body.data;
      next = cursorOf(page.body.links.next);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      error = err.message;
    }
  }
  const active = FILTER_NAMES.filter((k) => filters[k]).length;
  const timeChoice = filters.since ?? (filters.from || filters.to ? "custom" : "");
  const statusOptions = filters.status && !STATUS_CLASSES.includes(filters.status) ? [...STATUS_CLASSES, filters.status] : STATUS_CLASSES;
  const plain: Record<string, string> = Object.fromEntries(Object.entries(filters).filter(([, v]) => v)) as Record<string, string>;

  return (
    <Shell nav={nav} wide>
      <div className="page-head">
        <div>
          <h1>Requests</h1>
          <p className="muted">
            Every call of your keys in the last 30 days, newest first, refused ones included. Times in UTC. Paste the{" "}
            <code>X-Request-Id</code> of an answer to find its call.
          </p>
        </div>
      </div>

      {/* Keyed by the filters: its fields are uncontrolled, and must show the URL's filters after a link changes them. */}
      <FilterForm key={tidy} className="panel log-filters" action="/dashboard/requests">
        <label className="wide-field">
          Request id
          <input type="search" name="request_id" defaultValue={filters.request_id ?? ""} placeholder="req_…"
            autoComplete="off" spellCheck={false} />
        </label>
        <label>
          Key
          <select name="key" defaultValue={filters.key ?? ""}>
            <option value="">All keys</option>
            {keys.map((k) => <option key={k.id} value={k.id}>{k.name} ({k.prefix})</option>)}
            {filters.key && !keys.some((k) => k.id === filters.key) && <option value={filters.key}>{filters.key} (deleted)</option>}
          </select>
        </label>
        <label>
          Route
          <input type="text" name="route" defaultValue={filters.route ?? ""} placeholder="/v1/cards/{id}" list="log-routes" spellCheck={false} />
        </label>
        <label>
          Status
          <select name="status" defaultValue={filters.status ?? ""}>
            <option value="">Any status</option>
            {statusOptions.map((s) => <option key={s} value={s}>{s}</option>)}
          </select>
        </label>
        <label>
          Error code
          <input type="text" name="error_code" defaultValue={filters.error_code ?? ""} placeholder="RATE_LIMITED" list="log-codes" spellCheck={false} />
        </label>
        <label>
          Time
          <select name="since" defaultValue={timeChoice === "custom" ? "" : timeChoice}>
            <option value="">{timeChoice === "custom" ? "From / to below" : "Any time"}</option>
            {Object.entries(SINCE_LABEL).map(([v, l]) => <option key={v} value={v}>{l}</option>)}
          </select>
        </label>
        <details className="log-custom" open={timeChoice === "custom"}>
          <summary>Exact times (UTC)</summary>
          <div className="log-custom-fields">
            <label>From<input type="datetime-local" name="from" defaultValue={local(filters.from)} /></label>
            <label>To<input type="datetime-local" name="to" defaultValue={local(filters.to)} /></label>
          </div>
        </details>
        <div className="log-filter-actions">
          <button type="submit" className="button">Filter</button>
          {active > 0 && <Link href="/dashboard/requests" className="button secondary">Clear {active === 1 ? "filter" : `${active} filters`}</Link>}
        </div>
        <datalist id="log-routes">{[...new Set(rows.map((r) => r.route))].map((r) => <option key={r} value={r} />)}</datalist>
        <datalist id="log-codes">{CODES.map((c) => <option key={c} value={c} />)}</datalist>
      </FilterForm>

      {error && <div className="notice error" role="alert"><p>{error}</p></div>}

      <section className="panel log-panel" aria-label="Request log">
        <RequestsTable
          key={`${tidy}@${now}`}
          initial={rows}
          next={next}
          filters={plain}
          at={now}
          origin={publicOrigin(req)}
          fixedOrigin={Boolean(env().PUBLIC_BASE_URL)}
          searched={filters.request_id ?? null}
          filtered={active > 0}
        />
      </section>
    </Shell>
  );
}

