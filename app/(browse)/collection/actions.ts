"use server";

import { revalidatePath } from "next/cache";
import { notFound, redirect } from "next/navigation";
import { addItem, CollectionNotFound, removeItem, removeWatch, setQuantity, setWatch } from "@/lib/collection/service";
import { noticeQuery, type Notice } from "@/lib/collection/notice";
import { formText } from "@/lib/util/text";
import { sessionAccount } from "./session";

// The collection's server actions (same-origin by Next's own Origin check). Each re-reads the
// session: a server action is an endpoint anyone can call, and the account is never taken
// from the form. An id of another account's item or alert is "not found".

export type AddState = { ok: boolean; message: string } | null;

const field = (form: FormData, name: string, max = 120) => formText(form, name, max);
const idOf = (form: FormData) => (/^\d{1,15}$/.test(field(form, "id")) ? Number(field(form, "id")) : 0);
const back = (q: Notice, hash = "") => redirect(`/collection?${noticeQuery(q)}${hash}`);

/** The "Add to collection" form (add-button.tsx), with useActionState: its message comes back to the form. */
export async function addToCollectionAction(_prev: AddState, form: FormData): Promise<AddState> {
  const account = await sessionAccount();
  if (!account) return { ok: false, message: "Sign in to keep a collection." };
  const r = await addItem(account.id, {
    card_id: field(form, "card_id"), quantity: field(form, "quantity"), condition: field(form, "condition"), printing: field(form, "printing"),
    language: field(form, "language"), price_paid: field(form, "price_paid"), currency: field(form, "currency"),
  });
  if (!r.ok) return { ok: false, message: r.error };
  revalidatePath("/collection");
  const n = Number(field(form, "quantity"));
  return { ok: true, message: `Added ${n} ${n === 1 ? "copy" : "copies"} to your collection.` };
}

async function owned<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof CollectionNotFound) notFound();
    throw err;
  }
}

/** Plain form on /collection: a new quantity for one item. */
export async function updateQuantityForm(form: FormData): Promise<void> {
  const account = await sessionAccount();
  if (!account) redirect("/sign-in");
  const r = await owned(() => setQuantity(account.id, idOf(form), field(form, "quantity")));
  revalidatePath("/collection");
  if (!r.ok) back({ error: r.error });
  back({ done: "Quantity saved." });
}

export async function removeItemForm(form: FormData): Promise<void> {
  const account = await sessionAccount();
  if (!account) redirect("/sign-in");
  await owned(() => removeItem(account.id, idOf(form)));
  revalidatePath("/collection");
  back({ done: "Removed from your collection." });
}

export async function setWatchForm(form: FormData): Promise<void> {
  const account = await sessionAccount();
  if (!account) redirect("/sign-in");
  const r = await setWatch(account.id, { card_id: field(form, "card_id"), direction: field(form, "direction"), threshold: field(form, "threshold") });
  revalidatePath("/collection");
  if (!r.ok) back({ alert_error: r.error }, "#alerts");
  back({ done: "Price alert set." }, "#alerts");
}

export async function removeWatchForm(form: FormData): Promise<void> {
  const account = await sessionAccount();
  if (!account) redirect("/sign-in");
  await owned(() => removeWatch(account.id, idOf(form)));
  revalidatePath("/collection");
  back({ done: "Price alert removed." }, "#alerts");
}
