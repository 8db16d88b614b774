"use client";

import { useActionState, useId } from "react";
import { CONDITION_NAMES, CONDITIONS, CURRENCIES, LANGUAGE_NAMES, PRINTING_NAMES, PRINTINGS, type Language, type Printing } from "@/lib/collection/model";
import { addToCollectionAction, type AddState } from "./actions";

export function AddForm({ cardId, cardName, printings, languages, compact }: {
  cardId: string; cardName: string; printings: Printing[]; languages: Language[]; compact: boolean;
}) {
  const [state, action, pending] = useActionState<AddState, FormData>(addToCollectionAction, null);
  const id = useId();
  const offered = printings.length ? printings : [...PRINTINGS];
  const lang = languages.includes("en") ? "en" : languages[0]!;
  const status = state && (
    <p className={state.ok ? "add-ok" : "add-error"} role={state.ok ? "status" : "alert"} data-testid="add-result">
      {state.message}{state.ok && <> <a href="/collection">See your collection</a></>}
    </p>
  );
  if (compact) {
    return (
      <form action={action} className="add-compact" aria-label={`Add ${cardName} to your collection`}>
        <input type="hidden" name="card_id" value={cardId} />
        <input type="hidden" name="quantity" value="1" />
        <input type="hidden" name="condition" value="NM" />
        <input type="hidden" name="printing" value={offered[0]} />
        <input type="hidden" name="language" value={lang} />
        <button type="submit" disabled={pending} aria-label={`Add ${cardName} to collection`}>{pending ? "Adding…" : "Add"}</button>
        {status}
      </form>
    );
  }
  return (
    <form action={action} className="add-form" aria-labelledby={`${id}-title`} data-testid="add-to-collection">
      <h2 id={`${id}-title`}>Add to collection</h2>
      <input type="hidden" name="card_id" value={cardId} />
      <div className="add-fields">
        <label>Quantity<input name="quantity" type="number" min={1} max={100000} defaultValue={1} required /></label>
        <label>Condition
          <select name="condition" defaultValue="NM">
            {CONDITIONS.map((c) => <option key={c} value={c}>{c} · {CONDITION_NAMES[c]}</option>)}
          </select>
        </label>
        <label>Printing
          <select name="printing" defaultValue={offered[0]}>
            {offered.map((p) => <option key={p} value={p}>{PRINTING_NAMES[p]}</option>)}
          </select>
        </label>
        <label>Language
          <select name="language" defaultValue={lang}>
            {languages.map((l) => <option key={l} value={l}>{LANGUAGE_NAMES[l]}</option>)}
          </select>
        </label>
        <label>Price paid (each)<input name="price_paid" inputMode="decimal" pattern="\d{1,10}(\.\d{1,2})?" placeholder="optional" /></label>
        <label>Currency
          <select name="currency" defaultValue="EUR">
            {CURRENCIES.map((c) => <option key={c} value={c}>{c}</option>)}
          </select>
        </label>
      </div>
      <button type="submit" disabled={pending}>{pending ? "Adding…" : "Add to collection"}</button>
      {status}
    </form>
  );
}
