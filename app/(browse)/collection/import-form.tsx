"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";

// CSV import: a plain multipart form to POST /collection/import (without script the route
// sends the page back with the outcome in its query); with script, the same request asking for
// JSON, the outcome shown here and the page refreshed.

type Outcome = { imported?: number; errors?: string[]; count?: number };

export function ImportForm({ imported, errors, errorCount }: { imported?: string; errors?: string[]; errorCount?: number }) {
  const router = useRouter();
  const [outcome, setOutcome] = useState<Outcome | null>(
    imported ? { imported: Number(imported) } : errors?.length ? { errors, count: errorCount || errors.length } : null,
  );
  const [pending, setPending] = useState(false);
  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    setPending(true);
    try {
      const res = await fetch("/collection/import", { method: "POST", body: new FormData(form), headers: { accept: "application/json" } });
      const body = (await res.json().catch(() => ({ errors: [`The server answered ${res.status}.`] }))) as Outcome;
      setOutcome(body);
      if (res.ok) {
        form.reset();
        router.refresh();
      }
    } catch {
      setOutcome({ errors: ["The import could not reach the server."] });
    } finally {
      setPending(false);
    }
  }
  return (
    <form action="/collection/import" method="post" encType="multipart/form-data" onSubmit={onSubmit} className="inline-form" data-testid="import-form">
      <label>CSV file<input type="file" name="file" accept=".csv,text/csv" required /></label>
      <button type="submit" disabled={pending}>{pending ? "Importing…" : "Import"}</button>
      {outcome?.imported != null && <p className="ok-note" role="status" data-testid="import-result">Imported {outcome.imported} {outcome.imported === 1 ? "line" : "lines"}.</p>}
      {outcome?.errors && (
        <div className="error-note" role="alert" data-testid="import-errors">
          <p>Nothing was imported{outcome.count && outcome.count > 1 ? ` (${outcome.count} problems)` : ""}:</p>
          <ul>{outcome.errors.map((m, i) => <li key={i}>{m}</li>)}</ul>
        </div>
      )}
    </form>
  );
}
