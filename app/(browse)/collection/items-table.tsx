"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import type { ItemView } from "@/lib/collection/service";
import { removeItemForm, updateQuantityForm } from "./actions";
import { trend } from "@/lib/prices/labels";

// The items with their quantity and a remove button. Each is a plain form posting a server
// action (works without script); with script, TanStack Query mutations call the item's route
// (PATCH / DELETE /collection/items/{id}) and the page's data is refreshed after.

type Row = ItemView & { printingName: string; languageName: string };

const eur = (v: number | null | undefined) => (v == null ? "–" : v.toLocaleString("en", { style: "currency", currency: "EUR" }));
const money = (v: number | null, c: string) => (v == null ? "–" : v.toLocaleString("en", { style: "currency", currency: c }));
const signed = (v: number | null) => (v == null ? "–" : `${v > 0 ? "+" : v < 0 ? "−" : ""}${eur(Math.abs(v))}`);

async function call(url: string, init: RequestInit): Promise<void> {
  const res = await fetch(url, { ...init, headers: { "content-type": "application/json", accept: "application/json" } });
  if (!res.ok) {
    const body = await res.json().catch(() => null) as { error?: { message?: string } } | null;
    throw new Error(body?.error?.message ?? `The server answered ${res.status}.`);
  }
}

export function ItemsTable({ items }: { items: Row[] }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const update = useMutation({
    mutationFn: (v: { id: number; quantity: string }) => call(`/collection/items/${v.id}`, { method: "PATCH", body: JSON.stringify({ quantity: v.quantity }) }),
    onSuccess: () => (setError(null), router.refresh()),
    onError: (e) => setError(e.message),
  });
  const remove = useMutation({
    mutationFn: (id: number) => call(`/collection/items/${id}`, { method: "DELETE" }),
    onSuccess: () => (setError(null), router.refresh()),
    onError: (e) => setError(e.message),
  });
  const onQuantity = (id: number) => (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    update.mutate({ id, quantity: String(new FormData(e.currentTarget).get("quantity") ?? "") });
  };
  const onRemove = (id: number) => (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    remove.mutate(id);
  };
  const busy = (id: number) => (update.isPending && update.variables?.id === id) || (remove.isPending && remove.variables === id);
  return (
    <>
      {error && <p className="error-note" role="alert">{error}</p>}
      <div className="table-scroll">
        <table className="cards items" data-testid="collection-items">
          <thead>
            <tr>
              <th>Card</th><th className="opt">Condition</th><th className="opt">Printing</th><th className="opt">Language</th>
              <th>Quantity</th><th className="num opt">Paid each</th><th className="num opt-phone">Index each</th><th className="num">Value</th><th className="num">Gain</th>
              <th><span className="visually-hidden">Remove</span></th>
            </tr>
          </thead>
          <tbody>
            {items.map((it) => (
              <tr key={it.id} data-testid="collection-item" aria-busy={busy(it.id) || undefined}>
                <td>
                  <Link href={`/cards/${encodeURIComponent(it.cardId)}`}>{it.name}</Link>
                  <div className="cell-sub">{it.setName} · {it.number}</div>
                </td>
                <td className="opt">{it.condition}</td>
                <td className="opt">{it.printingName}</td>
                <td className="opt">{it.languageName}</td>
                <td>
                  <form action={updateQuantityForm} onSubmit={onQuantity(it.id)} className="qty-form">
                    <input type="hidden" name="id" value={it.id} />
                    <input name="quantity" type="number" min={1} max={100000} defaultValue={it.quantity} key={it.quantity}
                      aria-label={`Quantity of ${it.name}`} required />
                    <button type="submit" className="small">Save</button>
                  </form>
                </td>
                <td className="num opt">{money(it.pricePaid, it.currency)}</td>
                <td className="num opt-phone">{eur(it.unitEur)}{it.unitEur != null && it.headline && <span className="cell-sub" title="The card's index: none for this language and printing"> card</span>}</td>
                <td className="num">{eur(it.value)}</td>
                <td className={`num${trend(it.gain)}`}>{signed(it.gain)}</td>
                <td>
                  <form action={removeItemForm} onSubmit={onRemove(it.id)}>
                    <input type="hidden" name="id" value={it.id} />
                    <button type="submit" className="link-button" aria-label={`Remove ${it.name} (${it.condition}, ${it.printingName}) from your collection`}>Remove</button>
                  </form>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
