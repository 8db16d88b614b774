"use client";

import { useState, useTransition, type FormEvent } from "react";
import { CopySecret } from "../copy-secret";
import { createKeyAction, deleteKeyAction, rotateKeyAction, type KeyActionResult, type NewKeyView } from "./actions";

export type KeyRow = { id: string; name: string; prefix: string; createdAt: string; lastUsedAt: string | null };

const day = (iso: string | null) => (iso ? iso.slice(0, 10) : "never");

export function KeysPanel({ keys }: { keys: KeyRow[] }) {
  const [fresh, setFresh] = useState<{ key: NewKeyView; verb: "created" | "rotated" } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
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
    const name = String(new FormData(form).get("name") ?? "");
    run("create", () => createKeyAction(name), "created");
    form.reset();
  }

  return (
    <div className="keys">
      {fresh && (
        <div className="notice success fresh-key" data-testid="new-key">
          <p>
            Key <strong>{fresh.key.name}</strong> {fresh.verb}
            {fresh.verb === "rotated" ? ": the old secret stopped working." : "."}
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
          <table className="table" data-testid="keys">
            <thead>
              <tr><th>Name</th><th>Key</th><th>Created</th><th>Last used</th><th><span className="visually-hidden">Actions</span></th></tr>
            </thead>
            <tbody>
              {keys.map((k) => (
                <tr key={k.id} data-key-id={k.id}>
                  <td>{k.name}</td>
                  <td><code className="prefix">{k.prefix}</code></td>
                  <td>{day(k.createdAt)}</td>
                  <td>{day(k.lastUsedAt)}</td>
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

      <form className="inline-form" onSubmit={create}>
        <label htmlFor="key-name" className="visually-hidden">Name of the new key</label>
        <input id="key-name" name="name" placeholder="Name, e.g. production" maxLength={100} />
        <button type="submit" className="button" disabled={pending}>{busy === "create" ? "Creating…" : "Create key"}</button>
      </form>
      <p className="muted small">Rate and credits are per account: more keys add no throughput. Secrets are shown once.</p>
    </div>
  );
}
