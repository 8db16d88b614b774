"use client";

import { useState, useTransition, type FormEvent } from "react";
import { CopySecret } from "../copy-secret";
import { createKeyAction, deleteKeyAction, rotateKeyAction, type KeyActionResult, type NewKeyView } from "./actions";
import { QuickStart } from "./quick-start";

export type KeyRow = {
  id: string; name: string; prefix: string; createdAt: string; lastUsedAt: string | null;
  expiresAt: string | null; requests30d: number;
};

const DAY_MS = 86_400_000;
const day = (iso: string | null, none = "never") =>
  iso ? new Date(iso).toLocaleDateString("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" }) : none;
/** "3 hours ago" for the last use: when it was matters more than the date. */
function ago(iso: string | null, now: number): string {
  if (!iso) return "never";
  const s = Math.max(0, (now - Date.parse(iso)) / 1000);
  if (s < 90) return "just now";
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86_400) return `${Math.round(s / 3600)} h ago`;
  if (s < 30 * 86_400) return `${Math.round(s / 86_400)} days ago`;
  return day(iso);
}
const today = () => new Date().toISOString().slice(0, 10);

function Expiry({ at, now }: { at: string | null; now: number }) {
  if (!at) return <span className="muted">never</span>;
  const left = Date.parse(at) - now;
  if (left <= 0) return <span className="tag warn">expired {day(at)}</span>;
  return <span className={left < 7 * DAY_MS ? "soon" : undefined}>{day(at)}</span>;
}

export function KeysPanel({ keys, origin, fixedOrigin, now }: { keys: KeyRow[]; origin: string; fixedOrigin: boolean; now: number }) {
  const [fresh, setFresh] = useState<{ key: NewKeyView; verb: "created" | "rotated" } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [expiry, setExpiry] = useState("none");
  const [pending, startTransition] = useTransition();

  function run(tag: string, call: () => Promise<KeyActionResult>, verb?: "created" | "rotated") {
    setError(null);
    setBusy(tag);
    startTransition(async () => {
      const r = await call();
      setBusy(null);
      setConfirming(null);
      if (!r.ok) setError(r.error);
      else if (r.key && verb) setFresh({ key: r.key, verb });
    });
  }

  function create(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const data = new FormData(form);
    const name = String(data.get("name") ?? "");
    const choice = String(data.get("expiry") ?? "none");
    const until = choice === "date" ? String(data.get("expires_on") ?? "") : choice;
    run("create", () => createKeyAction(name, until), "created");
    form.reset();
    setExpiry("none");
  }

  const newest = [...keys].sort((a, b) => b.createdAt.localeCompare(a.createdAt))[0];

  return (
    <div className="keys">
      {fresh && (
        <div className="notice success fresh-key" data-testid="new-key">
          <p>
            Key <strong>{fresh.key.name}</strong> {fresh.verb}
            {fresh.verb === "rotated" ? ": the old secret stopped working." : "."}
            {fresh.key.expiresAt ? ` It expires on ${day(fresh.key.expiresAt)}.` : ""}
          </p>
          <CopySecret secret={fresh.key.secret} label="New secret" />
          <button type="button" className="button secondary small" onClick={() => setFresh(null)}>I saved it</button>
        </div>
      )}
      {error && <div className="notice error" role="alert"><p>{error}</p></div>}

      {keys.length === 0 ? (
        <p className="muted">No live keys. Create one below.</p>
      ) : (
        <div className="table-scroll">
          <table className="table keys-table" data-testid="keys">
            <thead>
              <tr>
                <th>Name</th><th>Key</th><th>Created</th><th>Last used</th><th>Expires</th>
                <th className="num" title="Requests in the last 30 days">Requests, 30 d</th>
                <th><span className="visually-hidden">Actions</span></th>
              </tr>
            </thead>
            <tbody>
              {keys.map((k) => (
                <tr key={k.id} data-key-id={k.id}>
                  <td data-label="Name" className="key-name">{k.name}</td>
                  <td data-label="Key"><code className="prefix">{k.prefix}</code></td>
                  <td className="nowrap" data-col="created" data-label="Created">{day(k.createdAt)}</td>
                  <td className="nowrap" data-col="last-used" data-label="Last used" title={k.lastUsedAt ?? undefined}>{ago(k.lastUsedAt, now)}</td>
                  <td className="nowrap" data-col="expires" data-label="Expires"><Expiry at={k.expiresAt} now={now} /></td>
                  <td className="num" data-col="requests" data-label="Requests, 30 d">
                    <a href={`/dashboard/requests?key=${encodeURIComponent(k.id)}`} title="Its requests in the log">{k.requests30d.toLocaleString("en-US")}</a>
                  </td>
                  <td className="row-actions">
                    {confirming === k.id ? (
                      <>
                        <span className="muted">Delete for good?</span>
                        <button type="button" className="button danger small" disabled={pending}
                          onClick={() => run(`delete:${k.id}`, () => deleteKeyAction(k.id))}>
                          {busy === `delete:${k.id}` ? "Deleting…" : "Delete"}
                        </button>
                        <button type="button" className="button secondary small" onClick={() => setConfirming(null)}>Keep</button>
                      </>
                    ) : (
                      <>
                        <button type="button" className="button secondary small" disabled={pending}
                          onClick={() => run(`rotate:${k.id}`, () => rotateKeyAction(k.id), "rotated")}>
                          {busy === `rotate:${k.id}` ? "Rotating…" : "Rotate"}
                        </button>
                        <button type="button" className="button secondary small" disabled={pending} onClick={() => setConfirming(k.id)}>
                          Delete
                        </button>
                      </>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      <form className="key-form" onSubmit={create}>
        <label htmlFor="key-name" className="visually-hidden">Name of the new key</label>
        <input id="key-name" name="name" placeholder="Name, e.g. production" maxLength={100} />
        <label className="key-expiry">
          <span>Expires</span>
          <select name="expiry" value={expiry} onChange={(e) => setExpiry(e.target.value)} aria-label="Expiry of the new key">
            <option value="none">Never</option>
            <option value="30">In 30 days</option>
            <option value="90">In 90 days</option>
            <option value="date">On a date…</option>
          </select>
        </label>
        {expiry === "date" && (
          <label className="key-expiry">
            <span className="visually-hidden">Expiry date</span>
            <input type="date" name="expires_on" min={today()} required aria-label="Expiry date" />
          </label>
        )}
        <button type="submit" className="button" disabled={pending}>{busy === "create" ? "Creating…" : "Create key"}</button>
      </form>
      <p className="muted small">
        Rate and credits are per account: more keys add no throughput. Secrets are shown once. A key with an expiry stops working then (a date: at the
        end of that day, UTC); rotating keeps it.
      </p>

      <QuickStart origin={origin} fixedOrigin={fixedOrigin} secret={fresh?.key.secret ?? null} prefix={fresh ? fresh.key.prefix : newest?.prefix ?? null} />
    </div>
  );
}
